import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError, commonErrors } from '../common/errors.js';
import { ErrorSchema } from '../common/schemas.js';
import type { Container } from '../container.js';
import type { App } from '../http/types.js';
import { requireCsrf, sameOrigin, SESSION_COOKIE, sessionToken } from './auth.js';
import { bankRoutes } from './bank-routes.js';
import { dashboardErrors } from './errors.js';
import { normaliseEmail, type SignedIn } from './service.js';

export const DASHBOARD_API = '/dashboard/api';

const { $id: _ignored, ...errorResponse } = ErrorSchema as typeof ErrorSchema & { $id?: string };

const SessionSchema = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.String() }),
  platform: Type.Object({ id: Type.String(), name: Type.String() }),
  environment: Type.Enum(['SANDBOX', 'PRODUCTION']),
  permissions: Type.Array(Type.String()),
  csrfToken: Type.String({ description: 'Send as X-CSRF-Token on every write' }),
  expiresAt: Type.String(),
});

const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 256 }) },
  { additionalProperties: false },
);
const EnvironmentBody = Type.Object({ environment: Type.Enum(['SANDBOX', 'PRODUCTION']) }, { additionalProperties: false });

const responses = { 200: SessionSchema, '4xx': errorResponse, '5xx': errorResponse };

/** Sign-in, the current session, the environment switch and sign-out, outside the API version. */
export function dashboardRoutes(app: App, container: Container) {
  const { dashboard, config } = container;
  const tags = ['Dashboard'];

  const cookieOptions = (req: FastifyRequest) => ({
    path: '/',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.publicUrl.startsWith('https://') || req.protocol === 'https',
  });

  /**
   * Sign-in attempts per client address (a new email per try must not dodge the per-account
   * wait) and per account (from any number of addresses), counted before the password is
   * hashed. In memory, per node, bounded (the least recently seen keys go first).
   */
  function limiter(max: number, key: (req: FastifyRequest) => string) {
    if (max <= 0) return undefined;
    const check = app.createRateLimit({ max, timeWindow: config.dashboardSignInWindowMs, keyGenerator: key, cache: 10_000 } as Parameters<
      App['createRateLimit']
    >[0]);
    return async (req: FastifyRequest, reply: FastifyReply, reason: string) => {
      const result = await check(req);
      if (result.isAllowed || !result.isExceeded) return;
      const retryAfterSeconds = Math.max(1, result.ttlInSeconds);
      reply.header('Retry-After', String(retryAfterSeconds));
      throw dashboardErrors.TOO_MANY_SIGN_INS({ reason, retryAfterSeconds });
    };
  }
  const perAddress = limiter(config.dashboardSignInLimitPerAddress, (req) => `address|${req.ip}`);
  const perAccount = limiter(config.dashboardSignInLimitPerAccount, (req) => `account|${normaliseEmail((req.body as { email: string }).email)}`);

  async function view(token: string, { session, user }: SignedIn) {
    const context = dashboard.authContext({ session, user });
    return {
      user: { id: user.id, email: user.email, role: user.role },
      platform: { id: session.platform_id, name: await dashboard.platformName(session.platform_id) },
      environment: context.environment,
      permissions: [...context.permissions],
      csrfToken: dashboard.csrfToken(token),
      expiresAt: session.expires_at,
    };
  }

  /** The live session of the request, or 401; writes also need their CSRF proof. */
  async function current(req: FastifyRequest, write: boolean): Promise<{ token: string; signedIn: SignedIn }> {
    const token = sessionToken(req);
    const signedIn = token ? await dashboard.session(token) : undefined;
    if (!token || !signedIn) throw commonErrors.UNAUTHORIZED({ reason: 'not signed in' }, 'Sign in to the dashboard first');
    if (write) requireCsrf(dashboard, req, token, config.publicUrl);
    return { token, signedIn };
  }

  app.post(
    `${DASHBOARD_API}/session`,
    {
      schema: { tags, summary: 'Sign in to the dashboard (sets the session cookie)', body: SignInBody, response: { ...responses, 201: SessionSchema } },
    },
    async (req, reply) => {
      // A sign-in form posted from another site (login CSRF) is refused.
      if (req.headers.origin !== undefined && !sameOrigin(req, config.publicUrl)) throw dashboardErrors.CSRF_TOKEN_INVALID();
      await perAddress?.(req, reply, 'too many sign-in attempts from this address');
      await perAccount?.(req, reply, 'too many sign-in attempts for this account');
      try {
        const { token, session, user } = await dashboard.signIn(req.body.email, req.body.password);
        reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), expires: new Date(session.expires_at) });
        reply.code(201);
        return view(token, { session, user });
      } catch (e) {
        if (e instanceof ApiError && (e.code === 'TOO_MANY_ATTEMPTS' || e.code === 'SIGN_IN_BUSY'))
          reply.header('Retry-After', String(e.details?.retryAfterSeconds ?? 60));
        throw e;
      }
    },
  );

  app.get(
    `${DASHBOARD_API}/session`,
    {
      schema: { tags, summary: 'The signed-in user, platform, environment and CSRF token', response: responses },
    },
    async (req) => {
      const { token, signedIn } = await current(req, false);
      return view(token, signedIn);
    },
  );

  app.put(
    `${DASHBOARD_API}/session/environment`,
    {
      schema: { tags, summary: 'Switch the environment the dashboard works in', body: EnvironmentBody, response: responses },
    },
    async (req) => {
      const { token, signedIn } = await current(req, true);
      await dashboard.setEnvironment(signedIn.session.id, req.body.environment);
      return view(token, { ...signedIn, session: { ...signedIn.session, environment: req.body.environment } });
    },
  );

  app.delete(
    `${DASHBOARD_API}/session`,
    {
      schema: { tags, summary: 'Sign out: the session stops working at once', response: { 204: Type.Null(), '4xx': errorResponse, '5xx': errorResponse } },
    },
    async (req, reply) => {
      const { signedIn } = await current(req, true);
      await dashboard.signOut(signedIn.session.id);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
      reply.code(204).send(null);
    },
  );

  // The Bank page (ADMIN users of the operator's platform, in PRODUCTION).
  bankRoutes(app, container);

  // Anything else under /dashboard/api is an unknown route (not the pages' fallback).
  app.all(`${DASHBOARD_API}/*`, { schema: { hide: true } as object }, async (_req, reply) => {
    reply.code(404).send(commonErrors.ROUTE_NOT_FOUND().toBody());
  });
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { commonErrors } from '../common/errors.js';
import { ErrorSchema } from '../common/schemas.js';
import type { Container } from '../container.js';
import { sessionToken } from '../dashboard/auth.js';
import { normaliseEmail } from '../dashboard/service.js';
import type { App } from '../http/types.js';
import { createAuditLog, type AuditEntry } from './store.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DASHBOARD_API = '/dashboard/api';
const SIGN_IN = `${DASHBOARD_API}/session`;

const { $id: _ignored, ...errorResponse } = ErrorSchema as typeof ErrorSchema & { $id?: string };

const AuditRecordSchema = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  actorType: Type.Enum(['OPERATOR', 'USER', 'TOKEN']),
  actor: Type.String(),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  source: Type.Union([Type.String(), Type.Null()]),
  environment: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.Enum(['SUCCEEDED', 'FAILED']),
  statusCode: Type.Union([Type.Integer(), Type.Null()]),
});

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    before: Type.Optional(Type.String({ pattern: '^Audit:[0-9a-fA-F-]{36}$', description: 'the id of the last entry of the previous page' })),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'entries whose action starts with this text' })),
  },
  { additionalProperties: false },
);

type Pending = Omit<AuditEntry, 'outcome' | 'statusCode'>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on dashboard writes: what the audit log records once the answer is sent. */
    audit?: Pending;
  }
}

/**
 * Records every dashboard write (the dashboard's own session routes and every API write made with
 * a session cookie) in the audit log once it is answered: who, what, on what, when, from which
 * address, and how it ended. Also serves the log to the platform's ADMIN users.
 */
export function registerAudit(app: App, container: Container) {
  // Real time: a dashboard write of a sandbox runs on its platform's clock, which a DEVELOPER can move or freeze.
  const audit = createAuditLog({ db: container.db, clock: container.sandbox.clocks.realClock });

  async function emailOf(userId: string): Promise<string> {
    const row = await container.db.executor().selectFrom('dashboard_users').select('email').where('id', '=', userId).executeTakeFirst();
    return row?.email ?? userId;
  }

  // Before validation, so refused writes (400) are recorded too; after authentication (onRequest).
  const begin = async (req: FastifyRequest) => {
    if (!WRITES.has(req.method)) return;
    const route = req.routeOptions.url ?? req.url.split('?')[0];
    const action = `${req.method} ${route}`;
    const params = req.params as Record<string, string> | undefined;
    const target = params && Object.keys(params).length ? Object.values(params).join(' ') : null;
    const clientId = (req as FastifyRequest & { auth?: { clientId?: string } }).auth?.clientId;
    if (clientId?.startsWith('dashboard:')) {
      const userId = clientId.slice('dashboard:'.length);
      req.audit = {
        actorType: 'USER',
        actor: await emailOf(userId),
        action,
        target,
        source: req.ip,
        platformId: req.auth.platformId,
        environment: req.auth.environment,
        details: { userId },
      };
    } else if (route === SIGN_IN && req.method === 'POST') {
      const email = normaliseEmail(String((req.body as { email?: string } | undefined)?.email ?? ''));
      // A failed sign-in of a known user belongs to that user's platform, so its ADMINs see it.
      const user = await container.db.executor().selectFrom('dashboard_users').select('platform_id').where('email', '=', email).executeTakeFirst();
      req.audit = { actorType: 'USER', actor: email, action: 'dashboard sign-in', target: null, source: req.ip, platformId: user?.platform_id ?? null };
    } else if (route.startsWith(DASHBOARD_API)) {
      const token = sessionToken(req);
      const signedIn = token ? await container.dashboard.session(token) : undefined;
      if (!signedIn) return;
      const { session, user } = signedIn;
      req.audit = {
        actorType: 'USER',
        actor: user.email,
        action,
        target,
        source: req.ip,
        platformId: session.platform_id,
        environment: session.environment,
        details: { userId: user.id },
      };
    }
  };

  /** The id of what a write created, taken from its answer when it names one. */
  const targetFrom = (pending: Pending, answer: unknown) => {
    if (typeof answer !== 'object' || answer === null) return;
    const body = answer as { id?: unknown; user?: { id?: unknown }; platform?: { id?: unknown }; environment?: unknown };
    if (!pending.target && typeof body.id === 'string') pending.target = body.id;
    if (pending.action === 'dashboard sign-in' && typeof body.user?.id === 'string') {
      pending.target = body.user.id;
      pending.platformId = typeof body.platform?.id === 'string' ? body.platform.id : null;
      pending.environment = typeof body.environment === 'string' ? body.environment : null;
    }
  };

  // A write that succeeds is recorded in its own transaction: it commits with its entry or not at
  // all. Once committed, nothing is left for the answer to record.
  const recordInTransaction = async (req: FastifyRequest, answer: unknown, statusCode: number) => {
    const pending = req.audit;
    if (!pending) return;
    targetFrom(pending, answer);
    await audit.record({ ...pending, outcome: 'SUCCEEDED', statusCode });
    container.db.afterCommit(() => {
      if (req.audit === pending) req.audit = undefined;
    });
  };

  // What is still pending when the answer leaves (a refused write, which changed nothing; a sign-in;
  // a write that waits on the network outside a transaction) is recorded before the answer leaves:
  // a client that saw the answer can find the entry.
  const record = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const pending = req.audit;
    if (!pending) return payload;
    req.audit = undefined;
    if (reply.statusCode < 300 && typeof payload === 'string' && payload.startsWith('{')) {
      try {
        targetFrom(pending, JSON.parse(payload));
      } catch {
        /* not JSON: no target */
      }
    }
    try {
      await audit.record({ ...pending, outcome: reply.statusCode < 400 ? 'SUCCEEDED' : 'FAILED', statusCode: reply.statusCode });
    } catch (err) {
      req.log.error({ err }, 'could not record the audit entry');
    }
    return payload;
  };

  // Hooks on the write routes only (every route registered after this), so reads pay nothing for the log.
  app.addHook('onRoute', (route) => {
    if (![route.method].flat().some((m) => WRITES.has(m))) return;
    route.preValidation = [...[route.preValidation ?? []].flat(), begin] as typeof route.preValidation;
    route.onSend = [...[route.onSend ?? []].flat(), record] as typeof route.onSend;
    // A handler that waits on the network runs outside a transaction (idempotency mode 'record'):
    // its entry is written with its answer.
    if ((route.config as { idempotency?: string } | undefined)?.idempotency === 'record') return;
    // An Idempotency-Key's transaction (src/http/idempotency.ts) holds the handler and calls
    // beforeCommit itself; otherwise the handler runs in a transaction of its own here.
    // (The API's routes are those that declare a permission: src/app.ts wraps their POSTs.)
    const idempotent = route.method === 'POST' && (route.config as { permission?: string } | undefined)?.permission !== undefined;
    const handler = route.handler as (this: unknown, req: FastifyRequest, reply: FastifyReply) => unknown;
    route.handler = async function (this: unknown, req: FastifyRequest, reply: FastifyReply) {
      // A sign-in checks a password hash (~100 ms) first: not inside a transaction; its entry is written with its answer.
      if (!req.audit || req.audit.action === 'dashboard sign-in') return handler.call(this, req, reply);
      req.beforeCommit = (answer, statusCode) => recordInTransaction(req, answer, statusCode);
      if (idempotent && req.headers['idempotency-key'] !== undefined) return handler.call(this, req, reply);
      const refused = { answer: undefined as unknown };
      try {
        return await container.db.tx(async () => {
          const answer = await handler.call(this, req, reply);
          // Answered with an error without throwing: whatever it wrote is undone, as a throw would.
          if (reply.statusCode >= 400) {
            refused.answer = answer;
            throw refused;
          }
          await req.beforeCommit!(answer, reply.statusCode);
          return answer;
        });
      } catch (e) {
        if (e === refused) return refused.answer;
        throw e;
      }
    } as typeof route.handler;
  });

  app.get(
    `${DASHBOARD_API}/audit`,
    {
      schema: {
        tags: ['Dashboard'],
        summary: "The platform's audit log, newest first (ADMIN users only)",
        querystring: ListQuery,
        response: {
          200: Type.Object({ data: Type.Array(AuditRecordSchema), nextBefore: Type.Union([Type.String(), Type.Null()]) }),
          '4xx': errorResponse,
          '5xx': errorResponse,
        },
      },
    },
    async (req) => {
      const token = sessionToken(req);
      const signedIn = token ? await container.dashboard.session(token) : undefined;
      if (!signedIn) throw commonErrors.UNAUTHORIZED({ reason: 'not signed in' }, 'Sign in to the dashboard first');
      if (signedIn.user.role !== 'ADMIN') throw commonErrors.FORBIDDEN({ requiredRole: 'ADMIN' }, 'Only ADMIN users may read the audit log');
      const q = req.query as { limit?: number; before?: string; actor?: string; action?: string };
      const limit = q.limit ?? 50;
      const data = await audit.list({ platformId: signedIn.session.platform_id, actor: q.actor, action: q.action, before: q.before, limit });
      return { data, nextBefore: data.length === limit ? data[data.length - 1].id : null };
    },
  );
}

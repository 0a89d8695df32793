import { randomUUID } from 'node:crypto';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import cookie from '@fastify/cookie';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { commonErrors, invalidInput } from './common/errors.js';
import { ErrorSchema } from './common/schemas.js';
import { allows, type Permission } from './common/scope.js';
import type { Container } from './container.js';
import { authenticateSession, registerDashboard, sessionToken } from './dashboard/index.js';
import { errorHandler } from './http/errors.js';
import { registerMetrics } from './http/metrics.js';
import { registerOverload, serverTimeouts } from './http/overload.js';
import { addExamples } from './http/openapi.js';
import { failureKey } from './http/auth.js';
import { createFailureLimiter } from './http/rate-limit.js';
import { gridProfileHook } from './http/profile.js';
import { lazyRequestLogger } from './http/request-logger.js';
import type { App } from './http/types.js';
import { validatorCompiler } from './http/validation.js';
import { apiModules } from './modules/index.js';
import { registerAudit } from './audit/http.js';
import { umaWireRoutes } from './modules/uma/routes.js';

export const API_VERSION = '2025-10-13';
export const API_PREFIX = `/${API_VERSION}`;

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const { $id: _ignored, ...errorResponse } = ErrorSchema as typeof ErrorSchema & { $id?: string };

/** Headers of every answer: tracing, and what a security scanner expects of a JSON API. */
function standardHeaders(req: FastifyRequest, reply: FastifyReply) {
  reply.header('X-Request-Id', req.id);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Cache-Control', 'no-store');
  // /docs (Swagger UI) and /dashboard set their own policies.
  if (!reply.hasHeader('Referrer-Policy')) reply.header('Referrer-Policy', 'no-referrer');
  if (!reply.hasHeader('X-Frame-Options')) reply.header('X-Frame-Options', 'DENY');
  if (!reply.hasHeader('Content-Security-Policy') && !req.url.startsWith('/docs') && !req.url.startsWith('/dashboard')) {
    reply.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  }
  // HTTPS as the client saw it (X-Forwarded-Proto counts only with TRUST_PROXY).
  if (req.protocol === 'https') reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}

type SerializerFactory = (externalSchemas: unknown, options: unknown) => (route: unknown) => (data: unknown) => string;
const serializerSelector = SerializerSelector as unknown as () => SerializerFactory;

/**
 * Fastify's response serializers (fast-json-stringify), each compiled on its route's first answer
 * with that status rather than at start, like the validators (src/http/validation.ts).
 */
const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = serializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= build(route))(data);
  };
};

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Replaces the overload measures (tests force load shedding with it); src/http/overload.ts. */
  pressureCheck?: () => Promise<boolean>;
}

/** The HTTP application over a container. No I/O at import; tests build it in-process. */
export async function buildApp(container: Container, options: BuildOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    // A request's logger is made when it first writes (src/http/request-logger.ts).
    ...(options.logger ? { childLoggerFactory: lazyRequestLogger } : {}),
    bodyLimit: container.config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: 'array' } },
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a path segment over maxParamLength, broken percent-encoding) in the D2 shape too.
    frameworkErrors: (err, req, reply) => {
      const message = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'has a segment longer than 100 characters' : 'is not a valid URL path';
      standardHeaders(req, reply as FastifyReply);
      (reply as FastifyReply).code(400).send(invalidInput([{ field: '(path)', in: 'path', message }]).toBody());
    },
    // A hop count is valid at run time; Fastify's types omit it.
    trustProxy: container.config.trustProxy as boolean | string,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // Slow or idle clients cannot hold sockets forever (docs/operations.md, "Timeouts").
    ...serverTimeouts(container.config.timeouts),
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler((_req, reply) => {
    reply.code(404).send(commonErrors.ROUTE_NOT_FOUND().toBody());
  });
  // JSON only: without a text/plain parser such bodies get 415.
  app.removeContentTypeParser('text/plain');
  // Sets cookies (the dashboard's session); they are read on demand, not parsed for every request (sessionToken).
  await app.register(cookie, { hook: false });

  // Every answer carries the standard headers and is written at the end of the event loop's turn,
  // together with the others finished in that turn. Written one by one, each answer to a client
  // that had gone idle meanwhile wakes it (on a virtual machine, an interrupt to another core),
  // inside our write. Written together, the first wakes the client and it reads the rest in the
  // same wake-up; its next requests arrive together too. Under 20 concurrent clients GET /ping
  // costs two fifths less CPU. An answer waits at most for the requests read in the same turn.
  app.addHook('onSend', (req, reply, payload, done) => {
    standardHeaders(req, reply);
    setImmediate(done, null, payload);
  });
  // Metrics first, then load shedding, which refuses before authentication does any work.
  const metrics = registerMetrics(app, container.db.stats, container.config.metricsToken, () => container.jobs.deadCount());
  await registerOverload(app, container.config, metrics, options.pressureCheck);

  // Failed authentications are limited per client address and client id (src/http/rate-limit.ts).
  const authFailures = createFailureLimiter({ limit: container.config.authFailureLimit, windowMs: container.config.authFailureWindowMs });
  /** The onRequest hook of a route that needs `permission`: a hook per route, so routes without one pay nothing. */
  const authenticate = (permission: Permission, sandboxOnly: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    // Without an Authorization header, the dashboard's session cookie may authenticate (src/dashboard).
    const auth =
      req.headers.authorization === undefined
        ? await authenticateSession(container.dashboard, req, container.config.publicUrl)
        : await container.authenticator.authenticate(req.headers.authorization);
    if (!auth) {
      // A presented credential that failed counts; no credential at all does not. One that verifies is never refused.
      const key = failureKey(req.ip, req.headers.authorization, sessionToken(req));
      const retryAfter = key === undefined ? 0 : authFailures.retryAfterSeconds(key);
      if (retryAfter > 0) {
        reply.header('Retry-After', String(retryAfter));
        throw commonErrors.RATE_LIMITED({ reason: 'too many failed authentications from this address with this client id', retryAfterSeconds: retryAfter });
      }
      if (key !== undefined) authFailures.fail(key);
      throw commonErrors.UNAUTHORIZED();
    }
    if (!allows(auth.permissions, permission)) {
      throw commonErrors.FORBIDDEN({ requiredPermission: permission, tokenPermissions: auth.permissions });
    }
    if (sandboxOnly && auth.environment !== 'SANDBOX') {
      throw commonErrors.FORBIDDEN({ reason: 'sandbox endpoints need a SANDBOX token' }, 'This endpoint exists only in the sandbox');
    }
    req.auth = auth;
  };

  // Every API route declares its permission and, unless PUBLIC, authenticates; POST routes honour
  // Idempotency-Key; every route documents the error shape.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const config = (route.config ?? {}) as { permission?: Permission | 'PUBLIC'; idempotency?: 'transaction' | 'record'; sandboxOnly?: boolean };
    if (!config.permission) throw new Error(`route ${route.method} ${route.url} declares no permission`);
    const schema = (route.schema ??= {}) as Record<string, unknown>;
    // The role the route needs, as OpenAPI 3.1 lets non-OAuth schemes name roles (tools and the security matrix read it).
    if (config.permission !== 'PUBLIC') {
      schema.security = [{ basicAuth: [config.permission] }];
      // After the application's own onRequest hooks (metrics, load shedding): shedding refuses before authentication works.
      route.onRequest = [...[route.onRequest ?? []].flat(), authenticate(config.permission, config.sandboxOnly === true)] as typeof route.onRequest;
    }
    const response = (schema.response ??= {}) as Record<string, unknown>;
    response['4xx'] ??= errorResponse;
    response['5xx'] ??= errorResponse;
    if (route.method === 'POST') route.handler = container.idempotency.wrap(route.handler as never, config.idempotency) as never;
  });

  // A sandbox request runs on its platform's sandbox clock (src/modules/sandbox/clock.ts).
  app.addHook('preHandler', container.sandbox.clocks.hook);
  // A GRID-profile platform's answers in the vendor's names (src/http/profile.ts).
  app.addHook('preSerialization', gridProfileHook(container.configs));

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Corridor payments API',
        version: API_VERSION,
        description: 'Cross-currency payments: customers, accounts, quotes, transfers and webhooks. Authenticate with HTTP Basic `clientId:clientSecret`.',
      },
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
    },
    // Every API operation shows request and answer examples (src/http/openapi.ts).
    transformObject: (doc) => addExamples('openapiObject' in doc ? doc.openapiObject : doc.swaggerObject, API_PREFIX),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true } as object }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } as object }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } as object }, async (_req, reply) => {
    try {
      await container.db.executor().selectFrom('system_settings').select('key').limit(1).execute();
      return { status: 'ready' };
    } catch {
      reply.code(503);
      return commonErrors.SERVICE_UNAVAILABLE().toBody();
    }
  });
  // The UMA protocol's endpoints of each platform's domain (src/modules/uma).
  umaWireRoutes(app, container.umaWire);
  // Dashboard writes are recorded in the audit log (src/audit).
  registerAudit(app, container);
  await registerDashboard(app, container);

  await app.register(
    async (api) => {
      for (const mount of apiModules) mount(api as App, container);
    },
    { prefix: API_PREFIX },
  );

  return app;
}

import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AuthContext, Permission } from '../common/scope.js';

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication on every API route. */
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** Permission the route needs (D3); 'PUBLIC' routes need no credentials. */
    permission?: Permission | 'PUBLIC';
    /** Sandbox endpoints refuse PRODUCTION tokens (D4). */
    sandboxOnly?: boolean;
    /** How a POST honours Idempotency-Key (see http/idempotency.ts). */
    idempotency?: 'transaction' | 'record';
  }
}

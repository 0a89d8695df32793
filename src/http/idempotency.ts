import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../common/canonical-json.js';
import type { Clock } from '../common/clock.js';
import { ApiError, commonErrors, invalidInput } from '../common/errors.js';
import type { Database, Executor } from '../db/database.js';
import { toNumber } from '../db/values.js';

const RETENTION_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

type Handler = (req: FastifyRequest, reply: FastifyReply) => unknown;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Work that must commit with the request's write, in its transaction (an audit entry,
     * src/audit/http.ts): called with a successful answer before the transaction ends.
     */
    beforeCommit?: (answer: unknown, statusCode: number) => Promise<void>;
  }
}

/**
 * Idempotency-Key (D5) on every POST. The key is scoped to (platform, environment, route): the
 * method, the route's pattern and its decoded path parameters (routeKey), never the raw URL, so
 * `/customers` and `/customers/`, or an id written with `%3A` for `:`, are the same request.
 * In the default mode the handler runs inside one database transaction together with the record
 * of its response, so a crash either loses both (the retry runs once) or keeps both (the retry
 * replays): exactly one effect. Rejections (4xx) are recorded after the rollback and replayed too.
 * Mode 'record' is for handlers that wait on the network (a webhook test): they run outside the
 * transaction and only their answer is recorded.
 */
export function createIdempotency(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  const inFlight = new Set<string>();

  const find = (ex: Executor, k: Keys) =>
    ex
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('platform_id', '=', k.platformId)
      .where('environment', '=', k.environment)
      .where('route', '=', k.route)
      .where('idempotency_key', '=', k.key)
      .executeTakeFirst();

  async function record(ex: Executor, k: Keys, hash: string, status: number, body: unknown) {
    const now = clock.now();
    await ex
      .insertInto('idempotency_keys')
      .values({
        platform_id: k.platformId,
        environment: k.environment,
        route: k.route,
        idempotency_key: k.key,
        request_hash: hash,
        status_code: status,
        response_body: JSON.stringify(body ?? null),
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + RETENTION_MS).toISOString(),
      })
      .execute();
  }

  /** Answers from a stored record, or undefined when there is none (or it expired and was dropped). */
  async function replay(ex: Executor, k: Keys, hash: string, reply: FastifyReply): Promise<{ body: unknown } | undefined> {
    const row = await find(ex, k);
    if (!row) return undefined;
    if (row.expires_at <= clock.now().toISOString()) {
      await ex
        .deleteFrom('idempotency_keys')
        .where('platform_id', '=', k.platformId)
        .where('environment', '=', k.environment)
        .where('route', '=', k.route)
        .where('idempotency_key', '=', k.key)
        .execute();
      return undefined;
    }
    if (row.request_hash !== hash) throw commonErrors.IDEMPOTENCY_KEY_REUSED({ idempotencyKey: k.key });
    reply.code(toNumber(row.status_code)).header('Idempotent-Replayed', 'true');
    return { body: JSON.parse(row.response_body) };
  }

  return {
    wrap(handler: Handler, mode: 'transaction' | 'record' = 'transaction'): Handler {
      return async (req, reply) => {
        const raw = req.headers['idempotency-key'];
        if (raw === undefined) return handler(req, reply);
        const key = Array.isArray(raw) ? raw[0] : raw;
        if (!KEY_PATTERN.test(key)) {
          throw invalidInput([{ field: 'Idempotency-Key', in: 'header', message: 'must be 1 to 255 printable ASCII characters' }]);
        }
        const auth = req.auth;
        const k: Keys = { platformId: auth.platformId, environment: auth.environment, route: routeKey(req), key };
        const hash = createHash('sha256')
          .update(canonicalJson(req.body ?? null))
          .digest('hex');
        const flightKey = `${k.platformId}|${k.environment}|${k.route}|${key}`;
        if (inFlight.has(flightKey)) throw commonErrors.IDEMPOTENCY_REQUEST_IN_PROGRESS({ idempotencyKey: key });
        inFlight.add(flightKey);
        try {
          return await run(k, hash, req, reply, handler, mode);
        } finally {
          inFlight.delete(flightKey);
        }
      };
    },
  };

  async function run(k: Keys, hash: string, req: FastifyRequest, reply: FastifyReply, handler: Handler, mode: 'transaction' | 'record') {
    try {
      if (mode === 'record') {
        const replayed = await db.tx((trx) => replay(trx, k, hash, reply));
        if (replayed) return replayed.body;
        const body = await handler(req, reply);
        await db.tx((trx) => record(trx, k, hash, reply.statusCode, body));
        return body;
      }
      return await db.tx(async (trx) => {
        const replayed = await replay(trx, k, hash, reply);
        if (replayed) return replayed.body;
        const body = await handler(req, reply);
        if (reply.statusCode < 400) await req.beforeCommit?.(body, reply.statusCode);
        await record(trx, k, hash, reply.statusCode, body);
        return body;
      });
    } catch (e) {
      // Our work rolled back. If another node committed the same key while we ran, we were its
      // duplicate, whatever our attempt met: the key's own unique row, or a unique key of the
      // resource that the service already turned into its conflict (PLATFORM_CUSTOMER_ID_EXISTS).
      // So the answer is the first request's, replayed, never an error of our own making.
      const replayed = await db.tx((trx) => replay(trx, k, hash, reply));
      if (replayed) return replayed.body;
      if (e instanceof ApiError && e.status < 500 && e.code !== 'IDEMPOTENCY_KEY_REUSED') {
        await db.tx((trx) => record(trx, k, hash, e.status, e.toBody())).catch(() => undefined);
        reply.code(e.status);
        return e.toBody();
      }
      throw e;
    }
  }
}

/**
 * What an Idempotency-Key is scoped to within a platform and environment: the method, the
 * declared route pattern (`/2025-10-13/quotes/:quoteId/execute`) and the path parameters as the
 * router decoded them, in a canonical order. Spellings of one URL (a trailing slash, percent-
 * encoding) map to one key; another resource (another id) to another.
 */
export function routeKey(req: Pick<FastifyRequest, 'method' | 'routeOptions' | 'params' | 'url'>): string {
  const pattern = req.routeOptions.url ?? req.url.split('?')[0];
  const params = (req.params ?? {}) as Record<string, unknown>;
  return Object.keys(params).length === 0 ? `${req.method} ${pattern}` : `${req.method} ${pattern} ${canonicalJson(params)}`;
}

interface Keys {
  platformId: string;
  environment: string;
  route: string;
  key: string;
}

export type Idempotency = ReturnType<typeof createIdempotency>;

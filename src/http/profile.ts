/**
 * Answers in the vendor's names for platforms on the GRID profile (src/modules/config/grid-profile.ts).
 * One preSerialization hook: a CORRIDOR platform's answer goes on untouched after a cached
 * configuration read; a GRID platform's answer is first serialised by its route's own schema (so
 * exactly the members the spec's answer has), then renamed, and sent as that text.
 *
 * Only API clients authenticated with a token see the vendor's names: the dashboard (a session
 * cookie) is Corridor's own page and reads the spec's.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformConfigsTable } from '../db/schema.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import { gridShape, profileOf } from '../modules/config/grid-profile.js';

const asIs = (text: unknown) => text as string;

/** 'POST /webhooks/test': the method and the route's path under the version prefix. */
const routeOf = (req: FastifyRequest) => `${req.method} ${(req.routeOptions.url ?? '').replace(/^\/\d{4}-\d{2}-\d{2}(?=\/)/, '')}`;

/**
 * Whether this request is answered in the vendor's names: an API client's (token), on a GRID
 * platform. For the few answers that differ in more than names (docs/vendor-clients.md).
 */
export async function answersInGrid(req: FastifyRequest, configs: Pick<ConfigCache, 'get'>): Promise<boolean> {
  if (!req.auth || req.headers.authorization === undefined) return false;
  return profileOf(await configs.get(req.auth)) === 'GRID';
}

export function gridProfileHook(configs: Pick<ConfigCache, 'get' | 'peek'>) {
  // Callback style, and the cached configuration read without a promise: most answers leave at
  // once, and a promise per request costs more than the rest of this hook.
  return (req: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: Error | null, payload?: unknown) => void) => {
    const auth = req.auth;
    if (!auth || req.headers.authorization === undefined || reply.statusCode >= 300) return done(null, payload);
    if (typeof payload !== 'object' || payload === null || Buffer.isBuffer(payload) || typeof (payload as { pipe?: unknown }).pipe === 'function')
      return done(null, payload);
    const answer = (config: PlatformConfigsTable) => {
      if (profileOf(config) !== 'GRID') return done(null, payload);
      let renamed: string;
      try {
        renamed = JSON.stringify(gridShape(JSON.parse(String(reply.serialize(payload))) as unknown, routeOf(req)));
      } catch (e) {
        return done(e as Error);
      }
      reply.serializer(asIs);
      done(null, renamed);
    };
    const cached = configs.peek(auth);
    if (cached) answer(cached);
    else configs.get(auth).then(answer, done);
  };
}

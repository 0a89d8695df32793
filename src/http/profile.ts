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
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import { gridShape, profileOf } from '../modules/config/grid-profile.js';

const asIs = (text: unknown) => text as string;

export function gridProfileHook(configs: Pick<ConfigCache, 'get'>) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const auth = req.auth;
    if (!auth || req.headers.authorization === undefined || reply.statusCode >= 300) return payload;
    if (typeof payload !== 'object' || payload === null || Buffer.isBuffer(payload) || typeof (payload as { pipe?: unknown }).pipe === 'function')
      return payload;
    if (profileOf(await configs.get(auth)) !== 'GRID') return payload;
    const text = gridShape(JSON.parse(String(reply.serialize(payload))) as unknown);
    reply.serializer(asIs);
    return JSON.stringify(text);
  };
}

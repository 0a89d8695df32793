import { createHash, hash, timingSafeEqual } from 'node:crypto';
import type { AuthContext, Environment, Permission } from '../common/scope.js';
import type { Database } from '../db/database.js';
import { tokenRepository } from '../modules/tokens/repository.js';

interface CacheEntry {
  secretHash: Buffer;
  context: AuthContext;
  expiresAt: number;
}

const MAX_CACHED = 10_000;
// Compared against when the client id is unknown, so both paths cost the same.
const DUMMY_HASH = createHash('sha256').update('no such token').digest();

/** Parses `Authorization: Basic base64(clientId:clientSecret)`; undefined when malformed. */
export function parseBasic(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (!header || header.length > 1024) return undefined;
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  if (i <= 0 || i === decoded.length - 1) return undefined;
  return { clientId: decoded.slice(0, i), clientSecret: decoded.slice(i + 1) };
}

/**
 * The key a failed authentication is counted under: the client address AND the credential's
 * client id, so one noisy client behind a proxy or NAT does not limit the others sharing its
 * address. A session cookie counts as one client id, a header that is not Basic as another.
 * Undefined when no credential was presented (nothing to count).
 */
export function failureKey(address: string, authorization: string | undefined, sessionCookie: string | undefined): string | undefined {
  if (authorization !== undefined) {
    const clientId = parseBasic(authorization)?.clientId;
    return `${address}|${clientId === undefined ? '(not basic)' : clientId.slice(0, 128)}`;
  }
  return sessionCookie ? `${address}|(dashboard session)` : undefined;
}

/**
 * Verifies API credentials. A verified credential is remembered for ttlMs so most requests cost
 * one hash and a map lookup; revoking through this node forgets it at once, other nodes within ttlMs.
 */
export function createAuthenticator(opts: { db: Database; ttlMs: number; now?: () => number }) {
  const cache = new Map<string, CacheEntry>();
  const now = opts.now ?? Date.now;

  function matches(secret: string, stored: Buffer): boolean {
    // One-shot hashing: about half the cost of a Hash object, on every authenticated request.
    const given = hash('sha256', secret, 'buffer') as unknown as Buffer;
    return timingSafeEqual(given, stored.length === given.length ? stored : DUMMY_HASH);
  }

  return {
    async authenticate(header: string | undefined): Promise<AuthContext | undefined> {
      const creds = parseBasic(header);
      if (!creds) return undefined;
      const cached = cache.get(creds.clientId);
      if (cached && cached.expiresAt > now()) return matches(creds.clientSecret, cached.secretHash) ? cached.context : undefined;
      if (creds.clientId.length > 128) return undefined;
      const row = await tokenRepository.findActiveByClientId(opts.db.executor(), creds.clientId);
      const stored = row ? Buffer.from(row.secret_hash, 'hex') : DUMMY_HASH;
      if (!matches(creds.clientSecret, stored) || !row) return undefined;
      const context: AuthContext = {
        platformId: row.platform_id,
        environment: row.environment as Environment,
        tokenId: row.id,
        clientId: row.client_id,
        permissions: row.permissions.split(',') as Permission[],
      };
      // Remembered from committed rows only (a read inside a transaction waits for its commit).
      if (opts.ttlMs > 0)
        opts.db.afterCommit(() => {
          if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
          cache.set(creds.clientId, { secretHash: stored, context, expiresAt: now() + opts.ttlMs });
        });
      return context;
    },

    forget(clientId: string) {
      cache.delete(clientId);
    },
  };
}

export type Authenticator = ReturnType<typeof createAuthenticator>;

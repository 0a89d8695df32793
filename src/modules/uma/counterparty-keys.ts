/**
 * Counterparties' published UMA keys (`/.well-known/lnurlpubkey`), fetched through the wire
 * client and cached until they expire. The SDK's cache compares `expirationTimestamp` (seconds)
 * with Date.now() (milliseconds), so every entry looks expired; here the expiry is read as the
 * protocol defines it, in seconds, and never trusted beyond MAX_CACHE_MS or the leaf
 * certificate's own end.
 *
 * A published answer is refused (fail closed) when it carries no usable key, when a certificate is
 * not valid now, or when a certificate and the bare key it comes with disagree: a key swapped in
 * beside someone else's certificate is not accepted from either side.
 */
import { X509Certificate } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import type { Environment } from '../../common/scope.js';
import type { WireClient } from './wire-client.js';

const MAX_CACHE_MS = 3600_000;
const CACHE_MAX_ENTRIES = 10_000;

export interface CounterpartyKeys {
  domain: string;
  /** uncompressed secp256k1 (65 bytes) */
  signingKey: Buffer;
  encryptionKey: Buffer;
  /** ms since epoch after which they are fetched again */
  expiresAt: number;
}

export class CounterpartyKeysError extends Error {}

function leafKey(chain: unknown, now: number, what: string): Buffer | undefined {
  if (chain === undefined || chain === null) return undefined;
  if (!Array.isArray(chain) || chain.length === 0 || !chain.every((c) => typeof c === 'string'))
    throw new CounterpartyKeysError(`${what}CertChain is not a list of hex certificates`);
  let certs: X509Certificate[];
  try {
    certs = chain.map((hex: string) => new X509Certificate(Buffer.from(hex, 'hex')));
  } catch {
    throw new CounterpartyKeysError(`${what}CertChain holds something that is not a certificate`);
  }
  for (const c of certs) {
    if (now < Date.parse(c.validFrom) || now > Date.parse(c.validTo))
      throw new CounterpartyKeysError(`a ${what} certificate is not valid now (${c.validFrom} – ${c.validTo})`);
  }
  // Each certificate is issued by the next one up the chain.
  for (let i = 0; i + 1 < certs.length; i++) {
    if (!certs[i].checkIssued(certs[i + 1]) || !certs[i].verify(certs[i + 1].publicKey))
      throw new CounterpartyKeysError(`the ${what} certificate chain is broken at position ${i}`);
  }
  const key = certs[0].publicKey;
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp256k1')
    throw new CounterpartyKeysError(`the ${what} certificate's key is not secp256k1`);
  return key.export({ type: 'spki', format: 'der' }).subarray(-65);
}

function bareKey(hex: unknown, what: string): Buffer | undefined {
  if (hex === undefined || hex === null) return undefined;
  if (typeof hex !== 'string' || !/^04([0-9a-f]{128})$/i.test(hex)) throw new CounterpartyKeysError(`${what}PubKey is not an uncompressed secp256k1 key`);
  return Buffer.from(hex, 'hex');
}

/** Reads a `/.well-known/lnurlpubkey` answer; throws CounterpartyKeysError when it cannot be trusted. */
export function parsePublishedKeys(domain: string, text: string, now: number): CounterpartyKeys {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new CounterpartyKeysError('the answer is not JSON');
  }
  if (typeof json !== 'object' || json === null) throw new CounterpartyKeysError('the answer is not an object');
  const pick = (what: 'signing' | 'encryption') => {
    const fromCert = leafKey(json[`${what}CertChain`], now, what);
    const bare = bareKey(json[`${what}PubKey`], what);
    if (fromCert && bare && !fromCert.equals(bare)) throw new CounterpartyKeysError(`${what}PubKey is not the key of the ${what} certificate`);
    const key = fromCert ?? bare;
    if (!key) throw new CounterpartyKeysError(`no ${what} key`);
    return key;
  };
  const signingKey = pick('signing');
  const encryptionKey = pick('encryption');
  const exp = json.expirationTimestamp;
  if (exp !== undefined && exp !== null && (typeof exp !== 'number' || !Number.isFinite(exp)))
    throw new CounterpartyKeysError('expirationTimestamp is not a number');
  // Seconds since the epoch, as the protocol says; a value already past means: use once, do not keep.
  const published = typeof exp === 'number' ? exp * 1000 : Infinity;
  return { domain, signingKey, encryptionKey, expiresAt: Math.min(published, now + MAX_CACHE_MS) };
}

export function createCounterpartyKeyCache(deps: { wire: WireClient; clock: Clock }) {
  const cache = new Map<string, CounterpartyKeys>();

  async function fetchKeys(environment: Environment, domain: string): Promise<CounterpartyKeys> {
    const res = await deps.wire.request({ environment, method: 'GET', url: `https://${domain}/.well-known/lnurlpubkey` });
    if (res.status !== 200) throw new CounterpartyKeysError(`${domain} answered ${res.status} for its public keys`);
    const keys = parsePublishedKeys(domain, res.body, deps.clock.now().getTime());
    if (keys.expiresAt > deps.clock.now().getTime()) {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(`${environment}|${domain}`, keys);
    }
    return keys;
  }

  return {
    /** The domain's keys, from the cache while they are unexpired; `fresh` fetches them again. */
    async get(environment: Environment, domain: string, opts: { fresh?: boolean } = {}): Promise<{ keys: CounterpartyKeys; cached: boolean }> {
      const d = domain.toLowerCase();
      const hit = cache.get(`${environment}|${d}`);
      if (hit && !opts.fresh && hit.expiresAt > deps.clock.now().getTime()) return { keys: hit, cached: true };
      cache.delete(`${environment}|${d}`);
      return { keys: await fetchKeys(environment, d), cached: false };
    },

    /**
     * Whether `check` holds with the domain's signing key. A failure with a cached key fetches the
     * keys once more (the counterparty may have rotated) before it counts.
     */
    async verifyWith(environment: Environment, domain: string, check: (keys: CounterpartyKeys) => boolean): Promise<{ ok: boolean; keys: CounterpartyKeys }> {
      const first = await this.get(environment, domain);
      if (check(first.keys)) return { ok: true, keys: first.keys };
      if (!first.cached) return { ok: false, keys: first.keys };
      const again = await this.get(environment, domain, { fresh: true });
      return { ok: check(again.keys), keys: again.keys };
    },
  };
}

export type CounterpartyKeyCache = ReturnType<typeof createCounterpartyKeyCache>;

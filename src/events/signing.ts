/**
 * Webhook signatures (decision D7).
 *
 *   X-Corridor-Signature: t=<unix seconds>,v1=<base64 Ed25519 signature of "<t>.<raw body>">
 *
 * Ed25519 rather than an HMAC so integrators hold only a public key: a leaked receiver config
 * cannot forge events. The timestamp is inside the signed bytes, and every attempt is signed
 * afresh, so a receiver can refuse replays older than the tolerance (5 minutes).
 */
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';

export const SIGNATURE_HEADER = 'X-Corridor-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;
const REDACTED = '[redacted]';

// Up to 12 digits: unix seconds until the year 33658; more would be garbage, and a bound keeps
// Number() exact. An Ed25519 signature is 64 bytes, i.e. exactly 88 base64 characters.
const HEADER_PATTERN = /^t=(\d{1,12}),v1=([A-Za-z0-9+/]{86}==)$/;

export interface SigningKeyPair {
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
}

/**
 * A fresh Ed25519 key pair as PEM (spki / pkcs8), the form stored per (platform, environment)
 * and published (public half) in GET /config. The returned object prints as "[redacted]" for
 * its private half, so logging it by mistake does not leak the key.
 */
export function generateSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return redactedPair(publicKey, privateKey);
}

/** A key pair whose private half prints as "[redacted]" through JSON.stringify and util.inspect. */
export function redactedPair(publicKeyPem: string, privateKeyPem: string): SigningKeyPair {
  const pair = { publicKeyPem, privateKeyPem };
  const safe = () => ({ publicKeyPem, privateKeyPem: REDACTED });
  // Non-enumerable so they do not show up in spreads or key listings.
  Object.defineProperty(pair, 'toJSON', { value: safe });
  Object.defineProperty(pair, inspect.custom, { value: () => safe() });
  return pair;
}

/**
 * Holds a private key for a long-lived signer (e.g. the delivery worker) without ever exposing
 * it through JSON.stringify, util.inspect, String() or template literals.
 */
export class WebhookSigner {
  readonly #privateKeyPem: string;

  constructor(privateKeyPem: string) {
    this.#privateKeyPem = privateKeyPem;
    privateKeyObject(privateKeyPem); // fail fast on a bad key, and warm the cache
  }

  /** The X-Corridor-Signature value for one attempt. */
  header(rawBody: string, nowSeconds: number): string {
    return signatureHeader(this.#privateKeyPem, rawBody, nowSeconds);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `WebhookSigner ${REDACTED}`;
  }
}

/** Signs "<t>.<rawBody>"; rawBody must be the exact bytes that will be sent. */
export function signatureHeader(privateKeyPem: string, rawBody: string, nowSeconds: number): string {
  if (!Number.isSafeInteger(nowSeconds) || nowSeconds < 0) throw new RangeError('nowSeconds must be a non-negative integer');
  const signature = sign(null, Buffer.from(`${nowSeconds}.${rawBody}`, 'utf8'), privateKeyObject(privateKeyPem));
  return `t=${nowSeconds},v1=${signature.toString('base64')}`;
}

export type VerifyResult = { ok: true } | { ok: false; reason: 'malformed header' | 'timestamp outside tolerance' | 'bad signature' | 'invalid public key' };

/**
 * What an integrator runs on receipt (docs/webhooks.md carries the same logic in plain Node).
 * Order matters for cost only: the cheap format and time checks run before the signature check.
 */
export function verifySignatureHeader(
  publicKeyPem: string,
  header: string | undefined,
  rawBody: string,
  { nowSeconds, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS }: { nowSeconds: number; toleranceSeconds?: number },
): VerifyResult {
  const match = HEADER_PATTERN.exec(header ?? '');
  if (!match) return { ok: false, reason: 'malformed header' };
  // Both directions: a timestamp far in the future is as suspicious as an old one.
  if (Math.abs(nowSeconds - Number(match[1])) > toleranceSeconds) return { ok: false, reason: 'timestamp outside tolerance' };
  let key: KeyObject;
  try {
    key = publicKeyObject(publicKeyPem);
  } catch {
    return { ok: false, reason: 'invalid public key' };
  }
  try {
    // The timestamp string as sent (match[1]) is what was signed, so "0123" cannot pass as "123".
    const signed = Buffer.from(`${match[1]}.${rawBody}`, 'utf8');
    if (verify(null, signed, key, Buffer.from(match[2], 'base64'))) return { ok: true };
  } catch {
    // A non-Ed25519 public key makes verify throw; for the caller it is simply not a valid signature.
  }
  return { ok: false, reason: 'bad signature' };
}

// --- KeyObject cache -------------------------------------------------------------------------
// Parsing a PEM costs far more than an Ed25519 signature, and a worker signs every attempt with
// one of a handful of keys. The map is keyed by a SHA-256 of the PEM so the cache does not hold
// a second copy of private key text, and bounded (least recently used out) so many tenants
// cannot grow it without limit.
const CACHE_MAX_ENTRIES = 64;
const keyCache = new Map<string, KeyObject>();

function cached(kind: 'private' | 'public', pem: string, parse: (pem: string) => KeyObject): KeyObject {
  const id = `${kind}:${createHash('sha256').update(pem).digest('hex')}`;
  const hit = keyCache.get(id);
  if (hit) {
    keyCache.delete(id); // re-insert: Map keeps insertion order, so the oldest is first
    keyCache.set(id, hit);
    return hit;
  }
  const key = parse(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new TypeError(`expected an Ed25519 ${kind} key`);
  if (keyCache.size >= CACHE_MAX_ENTRIES) keyCache.delete(keyCache.keys().next().value as string);
  keyCache.set(id, key);
  return key;
}

function privateKeyObject(pem: string): KeyObject {
  return cached('private', pem, (p) => createPrivateKey(p));
}

function publicKeyObject(pem: string): KeyObject {
  return cached('public', pem, (p) => createPublicKey(p));
}

/** For tests: how many parsed keys are held. */
export function keyCacheSize(): number {
  return keyCache.size;
}

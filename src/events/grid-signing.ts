/**
 * The vendor's webhook signature, used for platforms on the GRID profile (decision D7 keeps
 * X-Corridor-Signature for the others):
 *
 *   X-Grid-Signature: {"v":"1","s":"<base64 ECDSA P-256 / SHA-256 signature of the raw body>"}
 *
 * The signature is DER-encoded, as node:crypto's sign() and verify() and most ECDSA libraries use
 * by default. The body carries no timestamp in the signed bytes: the vendor's scheme signs the
 * body alone; its `timestamp` member lets a receiver refuse old deliveries.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from 'node:crypto';
import { inspect } from 'node:util';
import { redactedPair, type SigningKeyPair } from './signing.js';

export const GRID_SIGNATURE_HEADER = 'X-Grid-Signature';
const REDACTED = '[redacted]';

/** A fresh P-256 pair as PEM (spki / pkcs8); prints its private half as "[redacted]". */
export function generateP256KeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', {
    namedCurve: 'prime256v1',
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return redactedPair(publicKey, privateKey);
}

/** Holds a P-256 private key without exposing it through JSON, inspect or string conversion. */
export class GridSigner {
  readonly #key: KeyObject;

  constructor(privateKeyPem: string) {
    const key = createPrivateKey(privateKeyPem);
    if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new TypeError('expected a P-256 private key');
    this.#key = key;
  }

  /** The X-Grid-Signature value for these exact bytes (the vendor's scheme signs no time). */
  header(rawBody: string, _nowSeconds?: number): string {
    const signature = sign('sha256', Buffer.from(rawBody, 'utf8'), this.#key);
    return JSON.stringify({ v: '1', s: signature.toString('base64') });
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `GridSigner ${REDACTED}`;
  }
}

/** What an integrator runs on receipt (docs/vendor-clients.md has the same lines): true when authentic. */
export function verifyGridSignature(publicKeyPem: string, header: string | undefined, rawBody: string | Buffer): boolean {
  try {
    const parsed = JSON.parse(header ?? '') as { v?: unknown; s?: unknown };
    if (parsed.v !== '1' || typeof parsed.s !== 'string') return false;
    return verify('sha256', Buffer.from(rawBody), createPublicKey(publicKeyPem), Buffer.from(parsed.s, 'base64'));
  } catch {
    return false;
  }
}

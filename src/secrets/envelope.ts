/**
 * Secrets at rest: webhook private keys and KYC document bytes are encrypted with AES-256-GCM under
 * a key-encryption key (KEK) the operator provides (src/secrets/kek.ts). Each value carries a
 * version prefix and the id of the KEK that sealed it, so
 * - rows written before encryption (no prefix) still read, as plaintext, until rotated;
 * - several KEKs can be known at once (the current one, and previous ones during a rotation);
 * - `npx corridor keys rotate-kek` finds what is not sealed by the current KEK.
 *
 * The caller names what a value is (`context`, e.g. `documents|Document:…`): it is the GCM
 * additional data, so a sealed value copied into another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const KEK_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KID_BYTES = 8;
/** Text values: `enc:v1:<kid hex>:<base64 of iv | tag | ciphertext>`. */
const TEXT_PREFIX = 'enc:v1:';
/** Byte values: "CRDE" 0x01 | kid | iv | tag | ciphertext. No PDF, JPEG or PNG starts with it. */
const BYTES_MAGIC = Buffer.from([0x43, 0x52, 0x44, 0x45, 0x01]);

/** The id of a KEK as stored beside each value: the first 8 bytes of its SHA-256. */
export function kekId(kek: Buffer): Buffer {
  return createHash('sha256').update(kek).digest().subarray(0, KID_BYTES);
}

export class SecretError extends Error {}

export interface Sealer {
  sealText(plain: string, context: string): string;
  openText(stored: string, context: string): string;
  sealBytes(plain: Buffer, context: string): Buffer;
  openBytes(stored: Buffer, context: string): Buffer;
  /** Whether a stored value is sealed by the current KEK (false: plaintext or an older KEK). */
  isCurrentText(stored: string): boolean;
  isCurrentBytes(stored: Buffer): boolean;
  /** The hex id of the current KEK (shown by the CLI, never the key). */
  readonly currentKekId: string;
}

export function createSealer(keys: { current: Buffer; previous?: readonly Buffer[] }): Sealer {
  for (const k of [keys.current, ...(keys.previous ?? [])])
    if (k.length !== KEK_BYTES) throw new SecretError(`a key-encryption key must be ${KEK_BYTES} bytes`);
  const currentId = kekId(keys.current);
  const byId = new Map<string, Buffer>([keys.current, ...(keys.previous ?? [])].map((k) => [kekId(k).toString('hex'), k]));

  function seal(plain: Buffer, context: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', keys.current, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  function open(kid: string, sealed: Buffer, context: string): Buffer {
    const kek = byId.get(kid);
    if (!kek) throw new SecretError(`sealed by an unknown key-encryption key (id ${kid}): set CORRIDOR_KEK or CORRIDOR_KEK_PREVIOUS to it`);
    if (sealed.length < IV_BYTES + TAG_BYTES) throw new SecretError('sealed value is truncated');
    const decipher = createDecipheriv('aes-256-gcm', kek, sealed.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
    } catch {
      throw new SecretError('sealed value does not open with its key-encryption key (altered, or moved from another row)');
    }
  }

  return {
    currentKekId: currentId.toString('hex'),
    sealText(plain, context) {
      return `${TEXT_PREFIX}${currentId.toString('hex')}:${seal(Buffer.from(plain, 'utf8'), context).toString('base64')}`;
    },
    openText(stored, context) {
      if (!stored.startsWith(TEXT_PREFIX)) return stored; // written before encryption
      const rest = stored.slice(TEXT_PREFIX.length);
      const colon = rest.indexOf(':');
      return open(rest.slice(0, colon), Buffer.from(rest.slice(colon + 1), 'base64'), context).toString('utf8');
    },
    sealBytes(plain, context) {
      return Buffer.concat([BYTES_MAGIC, currentId, seal(plain, context)]);
    },
    openBytes(stored, context) {
      const buf = Buffer.from(stored);
      if (!isSealedBytes(buf)) return buf; // written before encryption
      const kid = buf.subarray(BYTES_MAGIC.length, BYTES_MAGIC.length + KID_BYTES).toString('hex');
      return open(kid, buf.subarray(BYTES_MAGIC.length + KID_BYTES), context);
    },
    isCurrentText(stored) {
      return stored.startsWith(`${TEXT_PREFIX}${currentId.toString('hex')}:`);
    },
    isCurrentBytes(stored) {
      const buf = Buffer.from(stored);
      return isSealedBytes(buf) && buf.subarray(BYTES_MAGIC.length, BYTES_MAGIC.length + KID_BYTES).equals(currentId);
    },
  };
}

function isSealedBytes(buf: Buffer): boolean {
  return buf.length > BYTES_MAGIC.length && buf.subarray(0, BYTES_MAGIC.length).equals(BYTES_MAGIC);
}

export function isSealedText(stored: string): boolean {
  return stored.startsWith(TEXT_PREFIX);
}

/**
 * Just enough DER (X.690) to write an X.509 certificate: definite lengths, the few universal
 * types a certificate uses. Node's crypto parses certificates but cannot make one, and the UMA
 * key endpoint publishes keys as certificate chains.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
}

export const sequence = (...items: Buffer[]) => tlv(0x30, ...items);
export const set = (...items: Buffer[]) => tlv(0x31, ...items);
export const nullValue = () => Buffer.from([0x05, 0x00]);
/** A context-specific constructed tag ([n] EXPLICIT). */
export const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps it positive). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && (b[1] & 0x80) === 0) b = b.subarray(1);
  if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

export const smallInteger = (n: number) => unsignedInteger(Buffer.from([n]));

export function objectIdentifier(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [40 * parts[0] + parts[1]];
  for (const part of parts.slice(2)) {
    const groups: number[] = [];
    let v = part;
    do {
      groups.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < groups.length - 1; i++) groups[i] |= 0x80;
    bytes.push(...groups);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export const utf8String = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
export const bitString = (bytes: Buffer) => tlv(0x03, Buffer.from([0]), bytes);
export const octetString = (bytes: Buffer) => tlv(0x04, bytes);
export const boolean = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 4.1.2.5), to the second. */
export function time(d: Date): Buffer {
  const iso = d.toISOString();
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z';
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

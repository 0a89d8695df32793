/**
 * secp256k1 ECDSA over SHA-256 as UMA uses it: signatures are DER, hex on the wire; public keys
 * uncompressed (65 bytes). Verification never throws: anything malformed is simply not valid.
 */
import { createPublicKey, sign, verify } from 'node:crypto';
import { keyObjectOf } from './keys.js';

export function publicKeyObject(publicKey: Uint8Array) {
  const key = Buffer.from(publicKey);
  if (key.length !== 65 || key[0] !== 4) throw new Error('not an uncompressed secp256k1 public key');
  return createPublicKey({
    format: 'jwk',
    key: { kty: 'EC', crv: 'secp256k1', x: key.subarray(1, 33).toString('base64url'), y: key.subarray(33).toString('base64url') },
  });
}

export function verifySignature(payload: string | Uint8Array, signatureHex: unknown, publicKey: Uint8Array): boolean {
  if (typeof signatureHex !== 'string' || !/^([0-9a-f]{2}){8,80}$/i.test(signatureHex)) return false;
  try {
    return verify(
      'sha256',
      typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload,
      { key: publicKeyObject(publicKey), dsaEncoding: 'der' },
      Buffer.from(signatureHex, 'hex'),
    );
  } catch {
    return false;
  }
}

/** Signs like the UMA SDK's signPayload (DER, hex). */
export function signText(payload: string, privateKey: Buffer, publicKey: Buffer): string {
  return sign('sha256', Buffer.from(payload, 'utf8'), { key: keyObjectOf(privateKey, publicKey), dsaEncoding: 'der' }).toString('hex');
}

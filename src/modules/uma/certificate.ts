/**
 * Self-signed X.509 certificates for a platform's UMA keys (secp256k1). `/.well-known/lnurlpubkey`
 * publishes each key as a certificate chain whose leaf carries the key; counterparties read the
 * key from the leaf and cache it until the certificate's expiry. A chain of one self-signed
 * certificate is what the protocol's reference VASPs publish; a platform that holds a certificate
 * from a certification authority can have it installed instead (the chain is stored as text).
 */
import { createPublicKey, sign, X509Certificate, type KeyObject } from 'node:crypto';
import * as der from './der.js';

const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const COMMON_NAME = '2.5.4.3';
const BASIC_CONSTRAINTS = '2.5.29.19';
const KEY_USAGE = '2.5.29.15';

export interface CertificateRequest {
  /** The UMA domain the key belongs to (the certificate's subject and issuer common name). */
  domain: string;
  privateKey: KeyObject;
  notBefore: Date;
  notAfter: Date;
  /** 16 random bytes; a serial is unique per issuer. */
  serial: Buffer;
}

/** A PEM certificate for the key pair, signed by itself with ECDSA-SHA256. */
export function selfSignedCertificate(req: CertificateRequest): string {
  const algorithm = der.sequence(der.objectIdentifier(ECDSA_WITH_SHA256));
  const name = der.sequence(der.set(der.sequence(der.objectIdentifier(COMMON_NAME), der.utf8String(req.domain))));
  const spki = createPublicKey(req.privateKey).export({ type: 'spki', format: 'der' });
  // A leaf, not an authority; its key signs (digitalSignature) and, for the encryption key, agrees keys.
  const extensions = der.explicit(
    3,
    der.sequence(
      der.sequence(der.objectIdentifier(BASIC_CONSTRAINTS), der.boolean(true), der.octetString(der.sequence())),
      der.sequence(der.objectIdentifier(KEY_USAGE), der.boolean(true), der.octetString(der.tlv(0x03, Buffer.from([0x03, 0x88])))),
    ),
  );
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)), // v3
    der.unsignedInteger(req.serial),
    algorithm,
    name,
    der.sequence(der.time(req.notBefore), der.time(req.notAfter)),
    name,
    spki,
    extensions,
  );
  const signature = sign('sha256', tbs, req.privateKey); // DER ECDSA-Sig-Value
  const cert = der.sequence(tbs, algorithm, der.bitString(signature));
  const body = cert
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}

/** The uncompressed secp256k1 public key (65 bytes) a certificate carries, as the UMA SDK reads it. */
export function certificatePublicKey(pem: string): Buffer {
  const key = new X509Certificate(pem).publicKey;
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'secp256k1') throw new Error('not a secp256k1 certificate');
  return key.export({ type: 'spki', format: 'der' }).subarray(-65);
}

import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealer, isSealedText, SecretError } from './envelope.js';

const kekA = randomBytes(32);
const kekB = randomBytes(32);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('sealing secrets at rest (AES-256-GCM under a key-encryption key)', () => {
  it('seals text and bytes so that the stored value does not contain them, and opens them again', () => {
    const a = createSealer({ current: kekA });
    const pem = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEI\n-----END PRIVATE KEY-----\n';
    const sealedText = a.sealText(pem, 'webhook_keys|P|SANDBOX');
    expect(sealedText).toMatch(/^enc:v1:[0-9a-f]{16}:[A-Za-z0-9+/=]+$/);
    expect(sealedText).not.toContain('PRIVATE KEY');
    expect(a.openText(sealedText, 'webhook_keys|P|SANDBOX')).toBe(pem);
    const sealedBytes = a.sealBytes(PNG, 'documents|D1');
    expect(sealedBytes.includes(PNG.subarray(0, 8))).toBe(false);
    expect(a.openBytes(sealedBytes, 'documents|D1').equals(PNG)).toBe(true);
    // Fresh randomness each time: the same secret never seals to the same value.
    expect(a.sealText(pem, 'c')).not.toBe(a.sealText(pem, 'c'));
  });

  it('reads values written before encryption as they are (no version prefix)', () => {
    const a = createSealer({ current: kekA });
    expect(a.openText('-----BEGIN PRIVATE KEY-----', 'x')).toBe('-----BEGIN PRIVATE KEY-----');
    expect(a.openBytes(PNG, 'x').equals(PNG)).toBe(true);
    expect(a.isCurrentText('-----BEGIN PRIVATE KEY-----')).toBe(false);
    expect(a.isCurrentBytes(PNG)).toBe(false);
    expect(isSealedText('-----BEGIN')).toBe(false);
  });

  it('binds a value to its row: moved to another row, or altered, it does not open', () => {
    const a = createSealer({ current: kekA });
    const sealed = a.sealBytes(PNG, 'documents|D1');
    expect(() => a.openBytes(sealed, 'documents|D2')).toThrow(SecretError);
    const altered = Buffer.from(sealed);
    altered[altered.length - 1] ^= 1;
    expect(() => a.openBytes(altered, 'documents|D1')).toThrow(SecretError);
  });

  it('opens with a previous key during a rotation, seals with the current one, and names an unknown key', () => {
    const old = createSealer({ current: kekA });
    const sealedOld = old.sealText('secret', 'c');
    const rotating = createSealer({ current: kekB, previous: [kekA] });
    expect(rotating.openText(sealedOld, 'c')).toBe('secret');
    expect(rotating.isCurrentText(sealedOld)).toBe(false);
    expect(rotating.isCurrentText(rotating.sealText('secret', 'c'))).toBe(true);
    expect(() => createSealer({ current: kekB }).openText(sealedOld, 'c')).toThrow(/unknown key-encryption key .*CORRIDOR_KEK/);
    expect(() => createSealer({ current: randomBytes(16) })).toThrow(/32 bytes/);
  });
});

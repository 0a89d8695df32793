import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificatePublicKey, selfSignedCertificate } from './certificate.js';
import { createCounterpartyKeyCache, CounterpartyKeysError, parsePublishedKeys } from './counterparty-keys.js';

const NOW = Date.parse('2026-11-28T12:00:00Z');

function certified(validFor = { from: NOW - 3600_000, to: NOW + 86_400_000 }) {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
  const pem = selfSignedCertificate({
    domain: 'b.test',
    privateKey,
    notBefore: new Date(validFor.from),
    notAfter: new Date(validFor.to),
    serial: randomBytes(16),
  });
  const der = Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64').toString('hex');
  return { chain: [der], key: certificatePublicKey(pem).toString('hex') };
}

describe('published UMA keys', () => {
  it('reads the keys from the leaf certificates and the expiry in seconds (capped at an hour)', () => {
    const s = certified();
    const e = certified();
    const keys = parsePublishedKeys(
      'b.test',
      JSON.stringify({ signingCertChain: s.chain, encryptionCertChain: e.chain, expirationTimestamp: NOW / 1000 + 600 }),
      NOW,
    );
    expect(keys.signingKey.toString('hex')).toBe(s.key);
    expect(keys.encryptionKey.toString('hex')).toBe(e.key);
    expect(keys.expiresAt).toBe(NOW + 600_000);
    const far = parsePublishedKeys('b.test', JSON.stringify({ signingPubKey: s.key, encryptionPubKey: e.key, expirationTimestamp: NOW / 1000 + 86_400 }), NOW);
    expect(far.expiresAt).toBe(NOW + 3600_000);
  });

  it('refuses a bare key that is not the certificate’s (a swapped certificate), an expired certificate, a missing key', () => {
    const s = certified();
    const other = certified();
    expect(() =>
      parsePublishedKeys('b.test', JSON.stringify({ signingCertChain: s.chain, signingPubKey: other.key, encryptionPubKey: other.key }), NOW),
    ).toThrow(/not the key of the signing certificate/);
    const old = certified({ from: NOW - 2 * 86_400_000, to: NOW - 86_400_000 });
    expect(() => parsePublishedKeys('b.test', JSON.stringify({ signingCertChain: old.chain, encryptionPubKey: s.key }), NOW)).toThrow(/not valid now/);
    expect(() => parsePublishedKeys('b.test', JSON.stringify({ signingPubKey: s.key }), NOW)).toThrow(CounterpartyKeysError);
    expect(() => parsePublishedKeys('b.test', JSON.stringify({ signingPubKey: 'zz', encryptionPubKey: s.key }), NOW)).toThrow(CounterpartyKeysError);
    expect(() => parsePublishedKeys('b.test', 'not json', NOW)).toThrow(CounterpartyKeysError);
  });

  it('caches until the published expiry, read in seconds, and refetches once when a cached key fails', async () => {
    let now = NOW;
    let fetches = 0;
    let current = certified();
    const wire = {
      async request() {
        fetches += 1;
        return { status: 200, body: JSON.stringify({ signingPubKey: current.key, encryptionPubKey: current.key, expirationTimestamp: now / 1000 + 300 }) };
      },
    };
    const cache = createCounterpartyKeyCache({ wire, clock: { now: () => new Date(now) } });
    await cache.get('SANDBOX', 'b.test');
    await cache.get('SANDBOX', 'b.test');
    expect(fetches).toBe(1);
    now += 299_000;
    await cache.get('SANDBOX', 'b.test');
    expect(fetches).toBe(1);
    now += 2_000; // past the published expiry (5 minutes), not 1000 times past it
    await cache.get('SANDBOX', 'b.test');
    expect(fetches).toBe(2);

    const rotated = certified();
    const wanted = rotated.key;
    current = rotated;
    const { ok } = await cache.verifyWith('SANDBOX', 'b.test', (k) => k.signingKey.toString('hex') === wanted);
    expect(ok).toBe(true);
    expect(fetches).toBe(3);
    const refused = await cache.verifyWith('SANDBOX', 'b.test', () => false);
    expect(refused.ok).toBe(false);
    expect(fetches).toBe(4);
  });
});

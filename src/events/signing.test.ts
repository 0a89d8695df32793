import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSigningKeyPair, keyCacheSize, signatureHeader, verifySignatureHeader, WebhookSigner } from './signing.ts';

const keys = generateSigningKeyPair();
const other = generateSigningKeyPair();
const now = 1_767_225_600;
const body = JSON.stringify({ type: 'OUTGOING_PAYMENT', webhookId: 'Webhook:1', note: 'Zürich → São Paulo' });

describe('signatureHeader / verifySignatureHeader', () => {
  it('produces t=<seconds>,v1=<88 base64 chars> that verifies', () => {
    const header = signatureHeader(keys.privateKeyPem, body, now);
    expect(header).toMatch(/^t=1767225600,v1=[A-Za-z0-9+/]{86}==$/);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now })).toEqual({ ok: true });
  });

  it('accepts any body and time within tolerance (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.integer({ min: 0, max: 4_000_000_000 }), fc.integer({ min: -300, max: 300 }), (raw, t, skew) => {
        const header = signatureHeader(keys.privateKeyPem, raw, t);
        return verifySignatureHeader(keys.publicKeyPem, header, raw, { nowSeconds: t + skew }).ok;
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a tampered body', () => {
    const header = signatureHeader(keys.privateKeyPem, body, now);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body.replace('1', '2'), { nowSeconds: now })).toEqual({ ok: false, reason: 'bad signature' });
    expect(verifySignatureHeader(keys.publicKeyPem, header, `${body} `, { nowSeconds: now }).ok).toBe(false);
  });

  it('refuses a tampered timestamp, even one inside the tolerance', () => {
    const header = signatureHeader(keys.privateKeyPem, body, now);
    const moved = header.replace(`t=${now}`, `t=${now + 1}`);
    expect(verifySignatureHeader(keys.publicKeyPem, moved, body, { nowSeconds: now })).toEqual({ ok: false, reason: 'bad signature' });
    const padded = header.replace(`t=${now}`, `t=0${now}`); // same number, different signed bytes
    expect(verifySignatureHeader(keys.publicKeyPem, padded, body, { nowSeconds: now }).ok).toBe(false);
  });

  it('refuses a signature made with another key', () => {
    const header = signatureHeader(other.privateKeyPem, body, now);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now })).toEqual({ ok: false, reason: 'bad signature' });
  });

  it('refuses timestamps outside the tolerance, in both directions', () => {
    const header = signatureHeader(keys.privateKeyPem, body, now);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now + 300 }).ok).toBe(true);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now + 301 })).toEqual({ ok: false, reason: 'timestamp outside tolerance' });
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now - 301 })).toEqual({ ok: false, reason: 'timestamp outside tolerance' });
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now + 20, toleranceSeconds: 10 }).ok).toBe(false);
  });

  it('refuses malformed headers', () => {
    const good = signatureHeader(keys.privateKeyPem, body, now);
    const sig = good.split('v1=')[1];
    for (const header of [
      undefined,
      '',
      't=,v1=',
      `v1=${sig},t=${now}`,
      `t=${now}`,
      `v1=${sig}`,
      `t=${now},v1=${sig},`,
      ` ${good}`,
      `t=${now},v1=${sig.slice(4)}`,
      `t=-1,v1=${sig}`,
      `t=1e9,v1=${sig}`,
      `t=${now},v0=${sig}`,
      `t=${now},v1=${sig.replace(/==$/, '')}`,
    ]) {
      expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now })).toEqual({ ok: false, reason: 'malformed header' });
    }
  });

  it('reports a bad public key instead of throwing', () => {
    const header = signatureHeader(keys.privateKeyPem, body, now);
    expect(verifySignatureHeader('not a key', header, body, { nowSeconds: now })).toEqual({ ok: false, reason: 'invalid public key' });
  });

  it('caches parsed keys in a bounded map', () => {
    for (let i = 0; i < 70; i++) signatureHeader(generateSigningKeyPair().privateKeyPem, body, now);
    expect(keyCacheSize()).toBeLessThanOrEqual(64);
  });
});

describe('private key redaction', () => {
  it('a generated key pair never prints its private half', () => {
    const secretLine = keys.privateKeyPem.split('\n')[1];
    for (const shown of [JSON.stringify(keys), inspect(keys), inspect({ nested: keys }, { depth: 5 })]) {
      expect(shown).toContain('[redacted]');
      expect(shown).not.toContain(secretLine);
      expect(shown).toContain(keys.publicKeyPem.split('\n')[1]);
    }
    expect(keys.privateKeyPem).toContain('BEGIN PRIVATE KEY'); // still usable by code
  });

  it('a WebhookSigner signs, yet shows nothing of its key', () => {
    const signer = new WebhookSigner(keys.privateKeyPem);
    const header = signer.header(body, now);
    expect(verifySignatureHeader(keys.publicKeyPem, header, body, { nowSeconds: now }).ok).toBe(true);
    const secretLine = keys.privateKeyPem.split('\n')[1];
    for (const shown of [JSON.stringify({ signer }), inspect(signer, { showHidden: true }), String(signer), `${signer}`, Object.keys(signer).join()]) {
      expect(shown).not.toContain(secretLine);
    }
    expect(JSON.stringify({ signer })).toBe('{"signer":"[redacted]"}');
  });

  it('a bad private key fails without echoing it', () => {
    expect(() => new WebhookSigner('-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----')).toThrow();
    try {
      new WebhookSigner('-----BEGIN PRIVATE KEY-----\nc2VjcmV0\n-----END PRIVATE KEY-----');
    } catch (err) {
      expect(String(err)).not.toContain('c2VjcmV0');
    }
  });
});

describe('the verification snippet in docs/webhooks.md', () => {
  // Run the documented code exactly as an integrator would paste it: plain Node, in a child
  // process, outside Vitest's module transform. It must agree with verifySignatureHeader.
  it('agrees with verifySignatureHeader on good and bad requests', () => {
    const markdown = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
    const snippet = /<!-- verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/.exec(markdown)?.[1];
    expect(snippet).toBeDefined();

    const good = signatureHeader(keys.privateKeyPem, body, now);
    const cases = [
      { header: good, body, now },
      { header: good, body, now: now + 300 },
      { header: good, body, now: now - 301 },
      { header: good, body: body + ' ', now },
      { header: good.replace(`t=${now}`, `t=${now + 1}`), body, now },
      { header: signatureHeader(other.privateKeyPem, body, now), body, now },
      { header: 'garbage', body, now },
      { header: undefined, body, now },
    ];
    const expected = cases.map((c) => verifySignatureHeader(keys.publicKeyPem, c.header, c.body, { nowSeconds: c.now }).ok);
    expect(expected).toEqual([true, true, false, false, false, false, false, false]);

    const dir = mkdtempSync(join(tmpdir(), 'corridor-docs-'));
    try {
      const driver = `${snippet}
const { cases, publicKeyPem } = JSON.parse(process.argv[2]);
const results = cases.map((c, i) => verifyCorridorSignature(c.header ?? undefined, i % 2 ? Buffer.from(c.body) : c.body, publicKeyPem, c.now));
process.stdout.write(JSON.stringify(results));
`;
      writeFileSync(join(dir, 'verify.mjs'), driver);
      const out = execFileSync(process.execPath, [join(dir, 'verify.mjs'), JSON.stringify({ cases, publicKeyPem: keys.publicKeyPem })], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

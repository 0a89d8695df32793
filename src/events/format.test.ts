import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDelivery, gridEventType } from './format.js';
import { generateP256KeyPair, GridSigner, verifyGridSignature } from './grid-signing.js';
import { generateSigningKeyPair, verifySignatureHeader, WebhookSigner } from './signing.js';

const stored = JSON.stringify({
  type: 'INCOMING_PAYMENT',
  webhookId: 'Webhook:0001',
  timestamp: '2026-01-01T00:00:00.000Z',
  transaction: { id: 'Transaction:1', status: 'PENDING', rateDetails: { serviceApiFixedFee: 10 } },
  requestedReceiverCustomerInfoFields: ['FULL_NAME'],
});
const now = new Date('2026-01-01T00:00:05.000Z');

describe('formatDelivery', () => {
  it('CORRIDOR: the stored bytes with X-Corridor-Signature', () => {
    const pair = generateSigningKeyPair();
    const sent = formatDelivery('CORRIDOR', stored, new WebhookSigner(pair.privateKeyPem), now);
    expect(sent.body).toBe(stored);
    expect(Object.keys(sent.headers)).toEqual(['X-Corridor-Signature']);
    expect(verifySignatureHeader(pair.publicKeyPem, sent.headers['X-Corridor-Signature'], sent.body, { nowSeconds: now.getTime() / 1000 })).toEqual({
      ok: true,
    });
  });

  it("GRID: the vendor's envelope, names and P-256 signature of the raw body", () => {
    const pair = generateP256KeyPair();
    const sent = formatDelivery('GRID', stored, new GridSigner(pair.privateKeyPem), now);
    expect(JSON.parse(sent.body)).toEqual({
      id: 'Webhook:0001',
      type: 'INCOMING_PAYMENT.PENDING',
      timestamp: now.toISOString(),
      data: {
        id: 'Transaction:1',
        status: 'PENDING',
        rateDetails: { gridApiFixedFee: 10 },
        requestedReceiverCustomerInfoFields: [{ name: 'FULL_NAME', mandatory: true }],
      },
    });
    const header = JSON.parse(sent.headers['X-Grid-Signature']);
    expect(header.v).toBe('1');
    expect(verify('sha256', Buffer.from(sent.body), pair.publicKeyPem, Buffer.from(header.s, 'base64'))).toBe(true);
    expect(verifyGridSignature(pair.publicKeyPem, sent.headers['X-Grid-Signature'], sent.body)).toBe(true);
    expect(verifyGridSignature(pair.publicKeyPem, sent.headers['X-Grid-Signature'], `${sent.body} `)).toBe(false);
  });

  it('names events as the vendor does', () => {
    expect(gridEventType('OUTGOING_PAYMENT', { transaction: { status: 'COMPLETED' } })).toBe('OUTGOING_PAYMENT.COMPLETED');
    expect(gridEventType('OUTGOING_PAYMENT', { transaction: { status: 'REJECTED' } })).toBe('OUTGOING_PAYMENT.FAILED');
    expect(gridEventType('OUTGOING_PAYMENT', { transaction: { status: 'REFUNDED', refund: { status: 'PENDING' } } })).toBe('OUTGOING_PAYMENT.REFUND_PENDING');
    expect(gridEventType('INCOMING_PAYMENT', { transaction: { status: 'REJECTED' } })).toBe('INCOMING_PAYMENT.FAILED');
    expect(gridEventType('TEST')).toBe('TEST');
    expect(gridEventType('CUSTOMER', { customer: { kycStatus: 'APPROVED' } })).toBe('CUSTOMER.KYC_APPROVED');
    expect(gridEventType('CUSTOMER', { customer: { kycStatus: 'REJECTED' } })).toBe('CUSTOMER.KYC_REJECTED');
    expect(gridEventType('INVITATION', { invitation: { status: 'CLAIMED' } })).toBe('INVITATION.CLAIMED');
    expect(gridEventType('BULK_UPLOAD', { job: { status: 'FAILED' } })).toBe('BULK_UPLOAD.FAILED');
  });

  it('GridSigner takes only P-256 keys and never prints its key', () => {
    const ed = generateKeyPairSync('ed25519', { privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    expect(() => new GridSigner(ed.privateKey)).toThrow(/P-256/);
    const signer = new GridSigner(generateP256KeyPair().privateKeyPem);
    expect(JSON.stringify({ signer })).toBe('{"signer":"[redacted]"}');
    expect(String(signer)).toBe('[redacted]');
  });
});

// The verification example of docs/vendor-clients.md, run as an integrator would run it: plain
// Node in its own process. It must accept what formatDelivery sends and refuse anything else.
describe('the documented X-Grid-Signature check', () => {
  it('agrees with verifyGridSignature on good and bad requests', () => {
    const markdown = readFileSync(new URL('../../docs/vendor-clients.md', import.meta.url), 'utf8');
    const snippet = /<!-- grid-verify-snippet[^>]*-->\s*```js\n([\s\S]*?)```/.exec(markdown)?.[1];
    expect(snippet).toBeDefined();
    const pair = generateP256KeyPair();
    const other = generateP256KeyPair();
    const sent = formatDelivery('GRID', stored, new GridSigner(pair.privateKeyPem), now);
    const header = sent.headers['X-Grid-Signature'];
    const cases = [
      { header, body: sent.body },
      { header, body: `${sent.body} ` },
      { header: formatDelivery('GRID', stored, new GridSigner(other.privateKeyPem), now).headers['X-Grid-Signature'], body: sent.body },
      { header: JSON.stringify({ v: '2', s: JSON.parse(header).s }), body: sent.body },
      { header: 'garbage', body: sent.body },
      { header: null, body: sent.body },
    ];
    const expected = cases.map((c) => verifyGridSignature(pair.publicKeyPem, c.header ?? undefined, c.body));
    expect(expected).toEqual([true, false, false, false, false, false]);
    const dir = mkdtempSync(join(tmpdir(), 'corridor-docs-'));
    try {
      const driver = `${snippet}
const { cases, publicKeyPem } = JSON.parse(process.argv[2]);
process.stdout.write(JSON.stringify(cases.map((c, i) => verifyGridSignature(c.header ?? undefined, i % 2 ? Buffer.from(c.body) : c.body, publicKeyPem))));
`;
      writeFileSync(join(dir, 'verify.mjs'), driver);
      const out = execFileSync(process.execPath, [join(dir, 'verify.mjs'), JSON.stringify({ cases, publicKeyPem: pair.publicKeyPem })], { encoding: 'utf8' });
      expect(JSON.parse(out)).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

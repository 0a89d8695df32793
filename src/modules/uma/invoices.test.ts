import { generateKeyPairSync } from 'node:crypto';
import bolt11 from 'bolt11';
import { describe, expect, it } from 'vitest';
import { invoiceProblems, makeInvoice, provesPayment, readInvoice, sha256Hex, InvoiceError } from './invoices.js';

function nodeKey() {
  const jwk = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).privateKey.export({ format: 'jwk' });
  const y = Buffer.from(jwk.y!, 'base64url');
  return {
    privateKey: Buffer.from(jwk.d!, 'base64url'),
    compressed: Buffer.concat([Buffer.from([2 + (y[31] & 1)]), Buffer.from(jwk.x!, 'base64url')]).toString('hex'),
  };
}

const createdAt = new Date('2026-11-28T12:00:00Z');
const expiresAt = new Date('2026-11-28T12:05:00Z');

describe('BOLT11 invoices', () => {
  it('a sandbox invoice is regtest, signed by the node key, for the exact amount, expiring with the quote', () => {
    const key = nodeKey();
    const made = makeInvoice({
      environment: 'SANDBOX',
      nodePrivateKey: key.privateKey,
      amountMsats: 100_000_005n,
      metadata: '[["text/plain","x"]]',
      createdAt,
      expiresAt,
    });
    expect(made.bolt11).toMatch(/^lnbcrt/);
    const read = readInvoice(made.bolt11);
    expect(read).toEqual({
      network: 'bcrt',
      amountMsats: 100_000_005n,
      paymentHash: made.paymentHash,
      payee: key.compressed,
      metadataHash: sha256Hex('[["text/plain","x"]]'),
      createdAt,
      expiresAt,
    });
    // Someone else's decoder agrees.
    expect(bolt11.decode(made.bolt11, { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0] }).payeeNodeKey).toBe(key.compressed);
  });

  it('the preimage proves payment; anything else does not', () => {
    const made = makeInvoice({ environment: 'SANDBOX', nodePrivateKey: nodeKey().privateKey, amountMsats: 1000n, metadata: 'm', createdAt, expiresAt });
    expect(provesPayment(made.preimage, made.paymentHash)).toBe(true);
    expect(provesPayment('00'.repeat(32), made.paymentHash)).toBe(false);
    expect(provesPayment('zz', made.paymentHash)).toBe(false);
    expect(provesPayment(undefined, made.paymentHash)).toBe(false);
  });

  it('refuses what is not a complete, signed invoice with an amount', () => {
    const made = makeInvoice({ environment: 'SANDBOX', nodePrivateKey: nodeKey().privateKey, amountMsats: 1000n, metadata: 'm', createdAt, expiresAt });
    const tampered = made.bolt11.slice(0, 20) + (made.bolt11[20] === 'q' ? 'p' : 'q') + made.bolt11.slice(21);
    for (const bad of [tampered, 'lnbcrt1', '', 42, 'x'.repeat(3000)]) expect(() => readInvoice(bad), String(bad).slice(0, 30)).toThrow(InvoiceError);
  });
});

describe('an invoice from a counterparty', () => {
  it('is measured against the amount, node key, network and time agreed', () => {
    const key = nodeKey();
    const read = readInvoice(
      makeInvoice({ environment: 'SANDBOX', nodePrivateKey: key.privateKey, amountMsats: 5000n, metadata: 'm', createdAt, expiresAt }).bolt11,
    );
    const want = { environment: 'SANDBOX' as const, amountMsats: 5000n, payee: key.compressed, payableAt: createdAt };
    expect(invoiceProblems(read, want)).toEqual([]);
    expect(invoiceProblems(read, { ...want, amountMsats: 5001n })).toEqual(['it asks 5000 msats, not the 5001 agreed']);
    expect(invoiceProblems(read, { ...want, payee: nodeKey().compressed })).toEqual(["it is not signed by the receiver's node key"]);
    expect(invoiceProblems(read, { ...want, environment: 'PRODUCTION' })).toEqual(['it is for the bcrt network, not bc']);
    expect(invoiceProblems(read, { ...want, payableAt: expiresAt })).toHaveLength(1);
  });
});

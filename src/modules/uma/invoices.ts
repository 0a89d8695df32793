/**
 * BOLT11 invoices, the settlement object of a UMA payment: the receiver makes one for
 * amount × multiplier + fee millisatoshis, committed to by the metadata hash (h tag), expiring with
 * the quote, signed by the platform's Lightning node key; the sender reads one back and pays only
 * when every part is what it agreed to. A payment's proof is the preimage: sha256(preimage) is the
 * invoice's payment hash. The sandbox writes regtest invoices (lnbcrt), so none can be paid on
 * Bitcoin's main network by mistake, nor a mainnet invoice by the sandbox.
 */
import bolt11 from 'bolt11';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../../common/scope.js';

const REGTEST = { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, validWitnessVersions: [0, 1] };
const MAINNET = { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, validWitnessVersions: [0, 1] };
/** The bech32 prefix of each environment's invoices. */
export const NETWORK_OF: Record<Environment, string> = { SANDBOX: 'bcrt', PRODUCTION: 'bc' };
/** Longest invoice accepted from a counterparty (BOLT11 has no limit; a UMA invoice is a few hundred characters). */
const MAX_INVOICE_CHARS = 2048;

export interface NewInvoice {
  environment: Environment;
  /** 32 bytes */
  nodePrivateKey: Buffer;
  amountMsats: bigint;
  /** what the h tag commits to: the LNURL metadata and payer data, as the UMA SDK hashes it */
  metadata: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface MadeInvoice {
  bolt11: string;
  paymentHash: string;
  /** 32 bytes, hex: revealed only when the invoice is paid */
  preimage: string;
}

export const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

export function makeInvoice(req: NewInvoice): MadeInvoice {
  const preimage = randomBytes(32);
  const paymentHash = sha256Hex(preimage);
  const created = Math.floor(req.createdAt.getTime() / 1000);
  const expirySeconds = Math.max(1, Math.floor(req.expiresAt.getTime() / 1000) - created);
  const unsigned = bolt11.encode({
    network: req.environment === 'SANDBOX' ? REGTEST : MAINNET,
    millisatoshis: req.amountMsats.toString(),
    timestamp: created,
    tags: [
      { tagName: 'payment_hash', data: paymentHash },
      { tagName: 'purpose_commit_hash', data: sha256Hex(req.metadata) },
      { tagName: 'expire_time', data: expirySeconds },
      { tagName: 'payment_secret', data: randomBytes(32).toString('hex') },
    ],
  });
  const signed = bolt11.sign(unsigned, req.nodePrivateKey.toString('hex'));
  if (!signed.paymentRequest) throw new Error('bolt11 did not sign the invoice');
  return { bolt11: signed.paymentRequest, paymentHash, preimage: preimage.toString('hex') };
}

export interface ReadInvoice {
  network: string;
  amountMsats: bigint;
  paymentHash: string;
  /** compressed node key that signed it, hex */
  payee: string;
  /** hex, when the invoice commits to metadata */
  metadataHash?: string;
  createdAt: Date;
  expiresAt: Date;
}

export class InvoiceError extends Error {}

/** Decodes and checks a BOLT11 invoice (signature, amount, hash, expiry present); throws InvoiceError. */
export function readInvoice(text: unknown): ReadInvoice {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_INVOICE_CHARS) throw new InvoiceError('not an invoice');
  let d: ReturnType<typeof bolt11.decode>;
  try {
    d = bolt11.decode(text, text.toLowerCase().startsWith('lnbcrt') ? REGTEST : undefined);
  } catch (e) {
    throw new InvoiceError(`not a valid BOLT11 invoice: ${(e as Error).message}`);
  }
  const tag = (name: string) => d.tags.find((t) => t.tagName === name)?.data;
  const hash = tag('payment_hash');
  if (!d.complete || !d.payeeNodeKey || typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash))
    throw new InvoiceError('the invoice is not signed or has no payment hash');
  if (d.millisatoshis === undefined || d.millisatoshis === null || !/^[0-9]+$/.test(d.millisatoshis)) throw new InvoiceError('the invoice names no amount');
  if (!d.timestamp || !d.timeExpireDate) throw new InvoiceError('the invoice has no time');
  const h = tag('purpose_commit_hash');
  return {
    network: d.network?.bech32 ?? '',
    amountMsats: BigInt(d.millisatoshis),
    paymentHash: hash,
    payee: d.payeeNodeKey,
    ...(typeof h === 'string' ? { metadataHash: h } : {}),
    createdAt: new Date(d.timestamp * 1000),
    expiresAt: new Date(d.timeExpireDate * 1000),
  };
}

/** Whether `preimage` (hex) proves payment of an invoice with `paymentHash`. */
export function provesPayment(preimage: unknown, paymentHash: string): boolean {
  if (typeof preimage !== 'string' || !/^[0-9a-f]{64}$/i.test(preimage)) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(Buffer.from(preimage, 'hex')), 'hex'), Buffer.from(paymentHash, 'hex'));
}

export interface InvoiceExpectation {
  environment: Environment;
  amountMsats: bigint;
  /** the receiver's node key (compressed hex) as its signed pay-request answer names it */
  payee: string;
  /** the invoice must still be payable then */
  payableAt: Date;
}

/**
 * What is wrong with an invoice a counterparty sent, measured against what was agreed; empty when
 * nothing is. A signature over altered data recovers some other key, so the payee check is what
 * makes the signature count.
 */
export function invoiceProblems(invoice: ReadInvoice, want: InvoiceExpectation): string[] {
  const problems: string[] = [];
  if (invoice.network !== NETWORK_OF[want.environment]) problems.push(`it is for the ${invoice.network} network, not ${NETWORK_OF[want.environment]}`);
  if (invoice.amountMsats !== want.amountMsats) problems.push(`it asks ${invoice.amountMsats} msats, not the ${want.amountMsats} agreed`);
  if (invoice.payee.toLowerCase() !== want.payee.toLowerCase()) problems.push("it is not signed by the receiver's node key");
  if (invoice.expiresAt.getTime() <= want.payableAt.getTime()) problems.push(`it expires at ${invoice.expiresAt.toISOString()}`);
  return problems;
}

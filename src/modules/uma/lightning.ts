/**
 * The Lightning seam: how an invoice is made, paid and asked about. UMA itself moves no money;
 * its invoices are settled over Lightning, and a proof of payment (the preimage whose sha256 is
 * the invoice's payment hash) is what the payer keeps.
 *
 * SANDBOX has the sandbox Lightning: the payer presents the invoice, signed with its UMA signing
 * key, to the receiving provider's settlement endpoint (POST https://{domain}/uma/sandbox/settle,
 * pay-requests.ts), which credits its customer once and reveals the preimage. Presenting it again
 * answers the same and credits nothing more, so paying and asking are the same call.
 *
 * PRODUCTION has no backend: a real node (LND, a Lightspark account) would be one more
 * implementation of this interface, and until one is configured cross-provider UMA is refused
 * (sending.ts, pay-requests.ts). Nothing pretends to pay in PRODUCTION.
 */
import { randomBytes } from 'node:crypto';
import type { Environment } from '../../common/scope.js';
import { makeInvoice, type MadeInvoice, type NewInvoice } from './invoices.js';
import { settlementPayload } from './pay-requests.js';
import { signText } from './signatures.js';
import { WireError, type WireClient } from './wire-client.js';

/** Who pays: the paying platform's UMA domain and signing key. */
export interface Payer {
  domain: string;
  signingKey: Buffer;
  signingPublicKey: Buffer;
}

export interface InvoiceToPay {
  environment: Environment;
  /** the receiver's UMA domain: the provider that issued the invoice */
  payeeDomain: string;
  bolt11: string;
}

/**
 * Where a payment stands. SUCCEEDED carries the preimage (not yet checked: the caller checks it
 * against the hash it agreed to). FAILED is final: the invoice can no longer be paid, and nothing
 * was credited. UNKNOWN is anything else (no answer, an answer that cannot be read): ask again.
 */
export type PaymentState =
  | { state: 'SUCCEEDED'; preimage: unknown }
  | { state: 'PENDING'; answer: string }
  | { state: 'REJECTED'; answer: string }
  | { state: 'FAILED'; answer: string }
  | { state: 'UNKNOWN'; answer: string };

export interface LightningBackend {
  createInvoice(req: NewInvoice): MadeInvoice;
  /** Pays the invoice, or asks how its payment stands; never pays twice. */
  payInvoice(payer: Payer, invoice: InvoiceToPay): Promise<PaymentState>;
}

/** Receiver answers that say the invoice can never be paid (pay-requests.ts settle). */
const FINAL_REFUSALS = new Set(['INVOICE_EXPIRED', 'INVALID_INVOICE']);

export function createSandboxLightning(deps: { wire: WireClient; now: () => Date }): LightningBackend {
  return {
    createInvoice: makeInvoice,

    async payInvoice(payer, invoice) {
      if (invoice.environment !== 'SANDBOX') return { state: 'FAILED', answer: 'no Lightning backend is configured for PRODUCTION' };
      const nonce = randomBytes(16).toString('hex');
      const timestamp = Math.floor(deps.now().getTime() / 1000);
      const signature = signText(settlementPayload(invoice.bolt11, nonce, timestamp), payer.signingKey, payer.signingPublicKey);
      let res;
      try {
        res = await deps.wire.request({
          environment: invoice.environment,
          method: 'POST',
          url: `https://${invoice.payeeDomain}/uma/sandbox/settle`,
          body: JSON.stringify({ invoice: invoice.bolt11, vaspDomain: payer.domain, nonce, timestamp, signature }),
        });
      } catch (e) {
        if (e instanceof WireError) return { state: 'UNKNOWN', answer: e.message };
        throw e;
      }
      const answer = `${res.status} ${res.body.slice(0, 500)}`;
      let body: { status?: unknown; preimage?: unknown; code?: unknown };
      try {
        body = JSON.parse(res.body) as typeof body;
      } catch {
        return { state: 'UNKNOWN', answer };
      }
      if (res.status === 200 && body.status === 'COMPLETED') return { state: 'SUCCEEDED', preimage: body.preimage };
      if (res.status === 200 && (body.status === 'PENDING' || body.status === 'OPEN')) return { state: 'PENDING', answer };
      if (res.status === 200 && body.status === 'REJECTED') return { state: 'REJECTED', answer };
      if (res.status === 200 && typeof body.status === 'string' && ['FAILED', 'EXPIRED'].includes(body.status)) return { state: 'FAILED', answer };
      if (res.status >= 400 && res.status < 500 && typeof body.code === 'string' && FINAL_REFUSALS.has(body.code)) return { state: 'FAILED', answer };
      return { state: 'UNKNOWN', answer };
    },
  };
}

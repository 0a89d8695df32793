/**
 * Paying a customer of another UMA provider: the sender's side of a cross-provider payment.
 *
 * Quote (agree): the pay request goes to the callback of the verified lookup, signed with the
 * platform's signing key, with the payer's data and its travel-rule information encrypted to the
 * receiver's published encryption key. The answer counts only when its payee compliance section is
 * signed by the receiver's signing key (fresh timestamp, unseen nonce), it converts exactly the
 * amount quoted into the quoted currency, and its invoice is for that amount × multiplier + fee,
 * on this environment's network, signed by the receiver's node and payable past the quote's
 * expiry (the quote expires before the invoice). A receiver's fee (msats) is charged to the
 * sender: it is priced as the quote's counterpartyFixedFee in receiving units, rounded up.
 *
 * Execution and settlement: settling.ts.
 */
import { getPayRequest, KycStatus, PayReqResponse, UmaError } from '@uma-sdk/core';
import { divCeil, rational, toDisplayNumber, type Rational } from '../../common/money.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { PricedQuote } from '../../fx/pricing.js';
import { receiverErrors } from '../receiver/errors.js';
import { fromUmaData, toUmaData } from './counterparty-data.js';
import { InvoiceError, NETWORK_OF, readInvoice, type ReadInvoice } from './invoices.js';
import { parseMultiplier } from './multipliers.js';
import { TIMESTAMP_WINDOW_MS } from './nonces.js';
import { postTransactionUrl } from './pay-requests.js';
import { senderIdentity, type Sending, type SendingDeps } from './sending.js';
import { verifySignature } from './signatures.js';
import { WireError } from './wire-client.js';

/** A quote expires this long before its invoice, so an execution at the last moment still settles. */
export const SETTLEMENT_MARGIN_MS = 30_000;
/** What this Corridor asks of every receiver: who it is, and its signed compliance section. */
const REQUESTED_PAYEE_DATA = { identifier: { mandatory: true }, compliance: { mandatory: true }, name: { mandatory: false } };

/** What sending lookups use (sending.ts): paying needs no more. */
export type PayingDeps = Omit<SendingDeps, 'policy'> & { sending: Sending };

export interface AgreementInput {
  lookupId: string;
  address: string;
  currency: string;
  payer: { customerId: string | null; info: Record<string, unknown> };
  /** the quote priced without a receiver's fee */
  price: PricedQuote;
  /** the quote priced again with the receiver's fee, in receiving minor units */
  reprice(counterpartyFixedFee: bigint): Promise<PricedQuote>;
  /** when the quote would expire if the invoice allowed it, on the platform's clock */
  expiresAt: Date;
  /** the quote's creation time on the platform's clock (a sandbox platform's may run ahead) */
  now: Date;
}

export interface Agreement {
  price: PricedQuote;
  expiresAt: Date;
  /** what the receiver's provider said about its customer (payeeData), as Corridor field names */
  counterpartyInformation: Record<string, string>;
  /** Stores the agreement with the quote's transaction, in the quote's database transaction. */
  persist(trx: Executor, ids: { transactionId: string; quoteId: string }): Promise<void>;
}

/** What one pay request obtained, verified. */
interface Offer {
  amount: bigint;
  multiplier: Rational;
  feeMsats: bigint;
  bolt11: string;
  invoice: ReadInvoice;
  postTxUrl: string | null;
  payee: Record<string, string>;
}

class PayRequestRefused extends Error {}

/** amount × multiplier, as a receiver may round it (down, half up or up), plus the fee. */
function invoiceAmountAgrees(msats: bigint, amount: bigint, m: Rational, fee: bigint): boolean {
  const low = (amount * m.num) / m.den + fee;
  const high = divCeil(amount * m.num, m.den) + fee;
  return msats >= low && msats <= high;
}

export function createPaying(deps: PayingDeps) {
  const { db, clock, wire } = deps;

  function refused(address: string, domain: string, reason: string) {
    return receiverErrors.PAY_REQUEST_FAILED({ umaAddress: address, domain, reason });
  }

  /** The payer's UMA identifier: the paying customer's own address (the receiver is told who pays). */
  async function payerIdentifierOf(scope: Scope, customerId: string | null): Promise<{ identifier: string; verified: boolean }> {
    const customer = customerId
      ? await db
          .executor()
          .selectFrom('customers')
          .select(['uma_address', 'kyc_status'])
          .where('id', '=', customerId)
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .executeTakeFirst()
      : undefined;
    if (!customer?.uma_address)
      throw invalidField(
        'source',
        'a customer pays a customer of another UMA provider (its umaAddress is the payer the receiver is told of), not a platform account',
      );
    return { identifier: customer.uma_address, verified: customer.kyc_status === 'APPROVED' };
  }

  return {
    /** Whether a payment goes to another provider: its quote's agreement is stored. */
    async isRemote(ex: Executor, transactionId: string): Promise<boolean> {
      return (await ex.selectFrom('uma_payments').select('transaction_id').where('transaction_id', '=', transactionId).executeTakeFirst()) !== undefined;
    },

    /** The pay request of a quote, verified; see the module comment. */
    async agree(scope: Scope, input: AgreementInput): Promise<Agreement> {
      const terms = await deps.sending.terms(db.executor(), scope, input.lookupId);
      if (!terms) throw invalidField('lookupId', 'is not a lookup of an address hosted by another UMA provider');
      const { domain } = terms;
      const payer = await payerIdentifierOf(scope, input.payer.customerId);
      const me = await senderIdentity(deps, scope);
      const major = Number(terms.uma_version.split('.')[0]);

      const ask = async (amount: bigint): Promise<Offer> => {
        if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw new PayRequestRefused('the amount is too large for a UMA pay request');
        let receiverKeys;
        try {
          receiverKeys = (await deps.counterparties.get(scope.environment, domain)).keys;
        } catch (e) {
          throw new PayRequestRefused(`the public keys of ${domain} could not be read: ${(e as Error).message}`);
        }
        const payerData = toUmaData(input.payer.info);
        const request = await getPayRequest({
          receiverEncryptionPubKey: receiverKeys.encryptionKey,
          sendingVaspPrivateKey: me.keys.signing.privateKey,
          receivingCurrencyCode: input.currency,
          amount: Number(amount),
          isAmountInReceivingCurrency: true,
          payerIdentifier: payer.identifier,
          payerKycStatus: payer.verified ? KycStatus.Verified : KycStatus.Pending,
          payerName: payerData.name,
          payerEmail: payerData.email,
          payerData,
          // Corridor's receivers read Corridor field names; UMA keys are the protocol's.
          trInfo: JSON.stringify(input.payer.info),
          utxoCallback: postTransactionUrl(me.domain),
          requestedPayeeData: REQUESTED_PAYEE_DATA,
          umaMajorVersion: major === 0 ? 0 : 1,
        });
        const res = await wire.request({ environment: scope.environment, method: 'POST', url: terms.callback, body: request.toJsonString() });
        if (res.status !== 200) {
          let reason = res.body.slice(0, 300);
          try {
            const b = JSON.parse(res.body) as { reason?: unknown; code?: unknown };
            if (typeof b.reason === 'string') reason = `${typeof b.code === 'string' ? `${b.code}: ` : ''}${b.reason.slice(0, 300)}`;
          } catch {
            /* not JSON: the text itself */
          }
          throw new PayRequestRefused(`${domain} answered ${res.status}: ${reason}`);
        }
        let response: PayReqResponse;
        try {
          response = PayReqResponse.fromJson(res.body);
        } catch (e) {
          throw new PayRequestRefused(`the answer is not a pay response (${(e as Error).message.slice(0, 200)})`);
        }
        const payee = (response.payeeData ?? {}) as Record<string, unknown>;
        const missing = Object.entries(REQUESTED_PAYEE_DATA)
          .filter(([k, o]) => o.mandatory && (payee[k] === undefined || payee[k] === null))
          .map(([k]) => k);
        if (missing.length) throw new PayRequestRefused(`the answer lacks the mandatory payee data ${missing.join(', ')}`);
        if (!response.isUma()) throw new PayRequestRefused('the answer is not a UMA pay response (no payee data or conversion)');
        if (typeof payee.identifier !== 'string' || payee.identifier.toLowerCase() !== input.address)
          throw new PayRequestRefused(`the answer is about ${String(payee.identifier)}, not ${input.address}`);
        const c = response.payeeData.compliance!;
        if (typeof c.signatureTimestamp !== 'number' || Math.abs(clock.now().getTime() - c.signatureTimestamp * 1000) > TIMESTAMP_WINDOW_MS)
          throw new PayRequestRefused('the answer was not signed now');
        let payload: string;
        try {
          payload = response.signablePayload(payer.identifier, input.address);
        } catch (e) {
          throw new PayRequestRefused(`the answer cannot be verified: ${(e as Error).message}`);
        }
        const check = await deps.counterparties
          .verifyWith(scope.environment, domain, (k) => verifySignature(payload, c.signature, k.signingKey))
          .catch((e: Error) => {
            throw new PayRequestRefused(`the public keys of ${domain} could not be read: ${e.message}`);
          });
        if (!check.ok) throw new PayRequestRefused(`the answer is not signed by ${domain}'s signing key`);
        const verdict = await deps.nonces.accept(domain, String(c.signatureNonce), c.signatureTimestamp);
        if (verdict !== 'ACCEPTED') throw new PayRequestRefused(`the answer's nonce was refused (${verdict.toLowerCase()})`);

        const converted = response.converted;
        if (converted.currencyCode !== input.currency) throw new PayRequestRefused(`the answer converts into ${converted.currencyCode}, not ${input.currency}`);
        if (!Number.isSafeInteger(converted.amount) || BigInt(converted.amount!) !== amount)
          throw new PayRequestRefused(`the answer credits ${converted.amount}, not the ${amount} quoted`);
        const multiplier = parseMultiplier(converted.multiplier);
        if (!multiplier) throw new PayRequestRefused('the answer has no usable multiplier');
        if (!Number.isSafeInteger(converted.fee) || converted.fee < 0) throw new PayRequestRefused('the answer has no usable fee');
        const feeMsats = BigInt(converted.fee);
        let invoice: ReadInvoice;
        try {
          invoice = readInvoice(response.pr);
        } catch (e) {
          if (e instanceof InvoiceError) throw new PayRequestRefused(`the invoice: ${e.message}`);
          throw e;
        }
        const problems: string[] = [];
        if (invoice.network !== NETWORK_OF[scope.environment]) problems.push(`it is for the ${invoice.network} network`);
        if (!invoiceAmountAgrees(invoice.amountMsats, amount, multiplier, feeMsats))
          problems.push(`it asks ${invoice.amountMsats} msats, not ${amount} × ${converted.multiplier} + ${feeMsats}`);
        if (c.nodePubKey && invoice.payee.toLowerCase() !== c.nodePubKey.toLowerCase()) problems.push("it is not signed by the receiver's node key");
        if (invoice.expiresAt.getTime() <= clock.now().getTime() + SETTLEMENT_MARGIN_MS) problems.push(`it expires at ${invoice.expiresAt.toISOString()}`);
        if (problems.length) throw new PayRequestRefused(`the invoice does not pay what was quoted: ${problems.join('; ')}`);
        let postTxUrl: string | null = null;
        if (c.utxoCallback) {
          let u: URL;
          try {
            u = new URL(c.utxoCallback);
          } catch {
            throw new PayRequestRefused('the post-transaction callback is not a URL');
          }
          // The callback names the payer's VASP: it goes to the receiver's own domain, nowhere else.
          if (u.host.toLowerCase() !== domain || u.protocol !== 'https:')
            throw new PayRequestRefused(`the post-transaction callback ${c.utxoCallback} is not on ${domain}`);
          postTxUrl = u.toString();
        }
        return { amount, multiplier, feeMsats, bolt11: response.pr, invoice, postTxUrl, payee: fromUmaData(payee) };
      };

      let price = input.price;
      let offer: Offer;
      try {
        offer = await ask(price.totalReceivingAmount);
        if (offer.feeMsats > 0n) {
          // The receiver's fee, charged to the sender in receiving units (rounded up); the
          // amount credited may change with it (a SENDING lock), and is asked for once more.
          const { num, den } = offer.multiplier;
          price = await input.reprice(divCeil(offer.feeMsats * den, num));
          if (price.totalReceivingAmount !== offer.amount) {
            const again = await ask(price.totalReceivingAmount);
            if (again.feeMsats !== offer.feeMsats) throw new PayRequestRefused("the receiver's fee changed between two pay requests");
            offer = again;
          }
        }
      } catch (e) {
        if (e instanceof PayRequestRefused || e instanceof WireError || e instanceof UmaError) throw refused(input.address, domain, e.message);
        throw e;
      }
      // The invoice's life is real time; the quote's expiry is on the platform's clock, so what is
      // left of the one is carried over to the other.
      const invoiceLeftMs = offer.invoice.expiresAt.getTime() - clock.now().getTime() - SETTLEMENT_MARGIN_MS;
      const expiresAt = new Date(Math.min(input.expiresAt.getTime(), input.now.getTime() + invoiceLeftMs));
      const rateDetails = price.rateDetails && {
        ...price.rateDetails,
        // receiving minor units per millisatoshi: the inverse of the UMA multiplier
        counterpartyMultiplier: toDisplayNumber(rational(offer.multiplier.den, offer.multiplier.num)),
      };
      const agreed = offer;
      return {
        price: { ...price, rateDetails },
        expiresAt,
        counterpartyInformation: agreed.payee,
        async persist(trx, ids) {
          const now = clock.now().toISOString();
          await trx
            .insertInto('uma_payments')
            .values({
              transaction_id: ids.transactionId,
              quote_id: ids.quoteId,
              platform_id: scope.platformId,
              environment: scope.environment,
              sender_address: payer.identifier,
              receiver_address: input.address,
              domain,
              currency: input.currency,
              amount: agreed.amount,
              amount_msats: agreed.invoice.amountMsats,
              fee_msats: agreed.feeMsats,
              multiplier: `${agreed.multiplier.num}/${agreed.multiplier.den}`,
              bolt11: agreed.bolt11,
              payment_hash: agreed.invoice.paymentHash,
              post_tx_url: agreed.postTxUrl,
              status: 'QUOTED',
              preimage: null,
              last_answer: null,
              expires_at: agreed.invoice.expiresAt.toISOString(),
              created_at: now,
              settled_at: null,
              post_tx_at: null,
            })
            .execute();
        },
      };
    },
  };
}

export type Paying = ReturnType<typeof createPaying>;

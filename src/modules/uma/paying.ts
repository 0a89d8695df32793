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
 * Execution (dispatch): the lifecycle reserves the funds (PROCESSING) and a job settles after
 * commit: the network is never used inside a database transaction. Settlement presents the
 * invoice to the Lightning backend until its answer is final: a preimage whose sha256 is the
 * payment hash completes the payment and sends the signed post-transaction callback; a final
 * refusal fails it with LIGHTNING_PAYMENT_FAILED (or REJECTED when the receiver's platform
 * rejected it) and refunds the payer. No answer, or one that proves nothing, is asked again: a
 * payment whose outcome is unknown is never refunded, since the receiver may have credited it.
 */
import { getPayRequest, getPostTransactionCallback, KycStatus, PayReqResponse, UmaError } from '@uma-sdk/core';
import { divCeil, rational, toDisplayNumber, type Rational } from '../../common/money.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { Job, JobQueue } from '../../db/jobs.js';
import type { PricedQuote } from '../../fx/pricing.js';
import { receiverErrors } from '../receiver/errors.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { fromUmaData, toUmaData } from './counterparty-data.js';
import { InvoiceError, NETWORK_OF, provesPayment, readInvoice, type ReadInvoice } from './invoices.js';
import type { LightningBackend, Payer } from './lightning.js';
import { parseMultiplier } from './multipliers.js';
import { TIMESTAMP_WINDOW_MS } from './nonces.js';
import { postTransactionUrl } from './pay-requests.js';
import { senderIdentity, type Sending, type SendingDeps } from './sending.js';
import { verifySignature } from './signatures.js';
import type { UmaPaymentsTable } from './tables.js';
import { WireError } from './wire-client.js';

export const UMA_SETTLE_JOB = 'uma.settle';
export const UMA_POST_TX_JOB = 'uma.post-tx';
export const UMA_JOB_KINDS = [UMA_SETTLE_JOB, UMA_POST_TX_JOB] as const;
const subjectOf = (transactionId: string) => `uma-payment:${transactionId}`;
/** A quote expires this long before its invoice, so an execution at the last moment still settles. */
export const SETTLEMENT_MARGIN_MS = 30_000;
/** A settlement or callback holds its job this long at most (two wire timeouts and the database). */
const LEASE_MS = 60_000;
/** Asking again about a pending settlement: quickly at first, then once a minute. */
const pendingDelayMs = (asked: number) => Math.min(60_000, 500 * 2 ** Math.min(asked, 7));
/** What this Corridor asks of every receiver: who it is, and its signed compliance section. */
const REQUESTED_PAYEE_DATA = { identifier: { mandatory: true }, compliance: { mandatory: true }, name: { mandatory: false } };

/** What sending lookups use (sending.ts), and what paying adds. */
export interface PayingDeps extends Omit<SendingDeps, 'policy'> {
  lightning: LightningBackend;
  jobs: JobQueue;
  sending: Sending;
  /** a getter: the payments are assembled after this module */
  lifecycle: () => Lifecycle;
  /** Runs on the scope's clock (a sandbox platform's time): the payment's status changes are the payer platform's. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}

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
  const { db, clock, wire, jobs } = deps;

  function refused(address: string, domain: string, reason: string) {
    return receiverErrors.PAY_REQUEST_FAILED({ umaAddress: address, domain, reason });
  }

  /** The platform's identity towards receivers, as the sandbox Lightning needs it. */
  async function payerOf(scope: Scope): Promise<Payer> {
    const me = await senderIdentity(deps, scope);
    return { domain: me.domain, signingKey: me.keys.signing.privateKey, signingPublicKey: me.keys.signing.publicKey };
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

    /**
     * Execution, in the caller's transaction: the funds reserved (PROCESSING), the settlement
     * queued to run after commit. Undefined when the payment was no longer PENDING.
     */
    async dispatch(trx: Executor, scope: Scope, tx: TransactionRow, cause: string): Promise<TransactionRow | undefined> {
      const started = await deps.lifecycle().startProcessing(tx, cause, null);
      if (!started) return undefined;
      const moved = await trx
        .updateTable('uma_payments')
        .set({ status: 'SETTLING' })
        .where('transaction_id', '=', tx.id)
        .where('status', '=', 'QUOTED')
        .executeTakeFirst();
      if (BigInt(moved.numUpdatedRows) !== 1n) throw new Error(`the UMA payment of ${tx.id} was not waiting to be settled`);
      await jobs.enqueue({ kind: UMA_SETTLE_JOB, subject: subjectOf(tx.id), payload: { transactionId: tx.id, ...scope, asked: 0 } });
      return started;
    },

    /** Runs one due settlement or post-transaction callback; false when none is due. */
    async processNext(): Promise<boolean> {
      const job = await jobs.claimNext(UMA_JOB_KINDS, LEASE_MS);
      if (!job) return false;
      try {
        if (job.kind === UMA_SETTLE_JOB) await settle(job);
        else await callBack(job);
      } catch (e) {
        const delayMs = Math.min(600_000, 1000 * 2 ** Math.min(job.attempts, 10));
        await jobs.retry(job, new Date(clock.now().getTime() + delayMs), e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
      return true;
    },
  };

  async function load(job: Job) {
    const p = job.payload as { transactionId: string; platformId: string; environment: Scope['environment']; asked?: number };
    const scope: Scope = { platformId: p.platformId, environment: p.environment };
    const row = await db
      .executor()
      .selectFrom('uma_payments')
      .selectAll()
      .where('transaction_id', '=', p.transactionId)
      .where('platform_id', '=', scope.platformId)
      .executeTakeFirst();
    return { p, scope, row };
  }

  /** One settlement attempt of a payment in PROCESSING; see the module comment. */
  async function settle(job: Job): Promise<void> {
    const { p, scope, row } = await load(job);
    if (!row || row.status !== 'SETTLING') return jobs.complete(job);
    const outcome = await deps.lightning.payInvoice(await payerOf(scope), { environment: scope.environment, payeeDomain: row.domain, bolt11: row.bolt11 });
    const onClock = <T>(fn: () => Promise<T>) => (deps.within ? deps.within(scope, fn) : fn());
    const finish = (update: Partial<UmaPaymentsTable>, move: (tx: TransactionRow, lifecycle: Lifecycle) => Promise<TransactionRow | undefined>) =>
      onClock(() =>
        db.tx(async (trx) => {
          const tx = await transactionRepository.find(trx, scope, row.transaction_id);
          const changed = await trx
            .updateTable('uma_payments')
            .set(update)
            .where('transaction_id', '=', row.transaction_id)
            .where('status', '=', 'SETTLING')
            .executeTakeFirst();
          if (tx?.status === 'PROCESSING' && BigInt(changed.numUpdatedRows) === 1n) await move(tx, deps.lifecycle());
          await jobs.complete(job);
        }),
      );
    const now = clock.now().toISOString();
    if (outcome.state === 'SUCCEEDED') {
      if (!provesPayment(outcome.preimage, row.payment_hash))
        throw new Error(`${row.domain} answered COMPLETED with a preimage that does not prove payment of ${row.payment_hash}: asked again later`);
      return finish(
        { status: 'SETTLED', preimage: String(outcome.preimage).toLowerCase(), settled_at: now, last_answer: 'COMPLETED' },
        async (tx, lifecycle) => {
          const done = await lifecycle.complete(tx, `settled over UMA with ${row.domain}: proof of payment verified`);
          if (done && row.post_tx_url)
            await jobs.enqueue({ kind: UMA_POST_TX_JOB, subject: subjectOf(row.transaction_id), payload: { transactionId: row.transaction_id, ...scope } });
          return done;
        },
      );
    }
    if (outcome.state === 'REJECTED')
      return finish({ status: 'FAILED', last_answer: outcome.answer }, (tx, lifecycle) =>
        lifecycle.reject(tx, `the receiver's platform at ${row.domain} rejected the payment`),
      );
    if (outcome.state === 'FAILED')
      return finish({ status: 'FAILED', last_answer: outcome.answer }, (tx, lifecycle) =>
        lifecycle.fail(tx, 'LIGHTNING_PAYMENT_FAILED', 'COMPLETED', `the invoice of ${row.domain} could not be paid: ${outcome.answer.slice(0, 300)}`),
      );
    // PENDING (the receiver's platform has not decided yet) or UNKNOWN: asked again.
    await db.tx(async (trx) => {
      await trx
        .updateTable('uma_payments')
        .set({ last_answer: outcome.answer.slice(0, 1000) })
        .where('transaction_id', '=', row.transaction_id)
        .execute();
      await jobs.complete(job);
      const asked = (p.asked ?? 0) + 1;
      await jobs.enqueue({
        kind: UMA_SETTLE_JOB,
        subject: subjectOf(row.transaction_id),
        payload: { ...p, asked },
        runAt: new Date(clock.now().getTime() + pendingDelayMs(asked)),
      });
    });
  }

  /** The signed post-transaction callback of a settled payment; retried, then dead-lettered for an operator. */
  async function callBack(job: Job): Promise<void> {
    const { scope, row } = await load(job);
    if (!row?.post_tx_url || row.post_tx_at) return jobs.complete(job);
    const payer = await payerOf(scope);
    const callback = await getPostTransactionCallback({ utxos: [], vaspDomain: payer.domain, signingPrivateKey: payer.signingKey });
    const res = await wire.request({ environment: scope.environment, method: 'POST', url: row.post_tx_url, body: JSON.stringify(callback) });
    if (res.status !== 200) throw new Error(`${row.domain} answered the post-transaction callback with ${res.status}: ${res.body.slice(0, 300)}`);
    await db.tx(async (trx) => {
      await trx.updateTable('uma_payments').set({ post_tx_at: clock.now().toISOString() }).where('transaction_id', '=', row.transaction_id).execute();
      await jobs.complete(job);
    });
  }
}

export type Paying = ReturnType<typeof createPaying>;

/**
 * What happens when a payment arrives for a customer: its INCOMING transaction, the approval the
 * receiving platform may ask for, and the outcomes. Every status change goes through the
 * transactions lifecycle (ARCHITECTURE rule 2) in the caller's database transaction; when the
 * sender is a platform hosted here, its OUTGOING transaction (PROCESSING, funds reserved) follows:
 * completed when the money lands, refunded when the receiver rejects it or it fails.
 *
 * Ledger, in the receiver's scope, when the payment lands (nothing is booked before):
 *   FUNDING(R) → receiver's internal account    received        (DEPOSIT)
 *   FUNDING(R) → FEES(R)                        counterparty fee (FEE), when the sender's quote had one
 * The sender's scope carried the same amount out through PAYOUTS_IN_FLIGHT(R), so each scope balances.
 */
import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { CustomersTable, PlatformConfigsTable } from '../../db/schema.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Outbox } from '../../events/index.js';
import { depositLegs, type Ledger } from '../../ledger/index.js';
import type { FailureReason } from '../../rails/types.js';
import { approvalNeeded, incomingApproval } from '../config/incoming.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import type { Fx } from '../quotes/pricing.js';
import type { PaymentEngine } from '../transactions/engine.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { newPaymentRow } from '../transactions/row.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { transactionView } from '../transactions/view.js';
import { incomingRepository as repo, type IncomingRow } from './repository.js';
import { forwardToDeposit } from './deposit.js';
import { sandboxArrival } from './sandbox.js';

export const APPROVAL_TIMEOUT_JOB = 'incoming.approval-timeout';
/** Jobs of one incoming payment, in their own namespace (payments use `payment:`, webhooks `webhook:`). */
export const incomingSubject = (transactionId: string) => `incoming:${transactionId}`;

export interface Arrival {
  /** LOCAL: paid by a platform hosted here; SANDBOX: POST /sandbox/uma/receive; REMOTE: a settled invoice of another provider's pay request (src/modules/uma/pay-requests.ts) */
  origin: 'LOCAL' | 'SANDBOX' | 'REMOTE';
  receiver: { scope: Scope; customer: CustomersTable; config: PlatformConfigsTable; address: string; internalAccountId: string };
  currency: string;
  receivedAmount: bigint;
  counterpartyFee: bigint;
  sender: {
    umaAddress: string | null;
    info: Record<string, unknown>;
    currency: string;
    sentAmount: bigint;
    convertedAmount: bigint;
    exchangeRate: string;
    /** the sender's platform and OUTGOING transaction, when hosted here */
    platformId?: string;
    transactionId?: string;
  };
  description: string | null;
}

export interface ArrivalDeps {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  ledger: Ledger;
  events: Outbox;
  fx: Fx;
  lifecycle: Lifecycle;
  engine: PaymentEngine;
  /** Runs fn on the scope's clock (a SANDBOX platform's time); directly when absent. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}

const scopeOf = (row: { platform_id: string; environment: string }): Scope => ({
  platformId: row.platform_id,
  environment: row.environment as Scope['environment'],
});
const asText = (info: Record<string, unknown>) => Object.fromEntries(Object.entries(info).map(([k, v]) => [k, String(v)]));

export function createArrivals(deps: ArrivalDeps) {
  const { clock, ledger, lifecycle } = deps;
  /**
   * Each platform's objects live on that platform's clock, whoever's request or job moves them:
   * the receiver's transaction, its approval window and deadline job on the receiver's clock, the
   * sender's transaction and its refund on the sender's. A payment between two sandboxes must not
   * let one platform's frozen or advanced clock date, or hold, the other's objects.
   */
  const within = deps.within ?? (<T>(_scope: Scope, fn: () => Promise<T>) => fn());
  const senderScopeOf = (inc: IncomingRow): Scope => ({ platformId: inc.sender_platform_id!, environment: inc.environment as Scope['environment'] });

  /**
   * The sender's OUTGOING transaction when it is hosted here and still in flight, locked until
   * commit, so nothing (an operator's `payout settle|fail`) can settle or refund it while the
   * receiver's side is decided. credit and refuse take this lock before they change the
   * receiver's transaction: one lock order (sender, then receiver) for every answer.
   */
  async function senderInFlight(trx: Executor, inc: IncomingRow): Promise<TransactionRow | undefined> {
    if (!inc.sender_transaction_id || !inc.sender_platform_id) return undefined;
    return repo.lockInFlight(trx, { platformId: inc.sender_platform_id, environment: inc.environment as Scope['environment'] }, inc.sender_transaction_id);
  }

  /** A sender locked in flight changes as told; anything else is a bug and rolls the whole answer back. */
  function expectMoved<T>(changed: T | undefined, senderId: string): T {
    if (changed === undefined) throw new Error(`sender transaction ${senderId} changed although it was locked`);
    return changed;
  }

  /** PENDING → COMPLETED: the money lands; the sender's payment completes; a default deposit account gets it. */
  async function credit(
    trx: Executor,
    row: TransactionRow,
    inc: IncomingRow,
    cause: string,
    receiverInfo?: Record<string, unknown>,
  ): Promise<TransactionRow | undefined> {
    return within(scopeOf(row), () => creditOnReceiverClock(trx, row, inc, cause, receiverInfo));
  }

  async function creditOnReceiverClock(
    trx: Executor,
    row: TransactionRow,
    inc: IncomingRow,
    cause: string,
    receiverInfo?: Record<string, unknown>,
  ): Promise<TransactionRow | undefined> {
    const sender = await senderInFlight(trx, inc);
    // A sender hosted here whose payment was settled or failed meanwhile (an operator's manual-rail
    // command) no longer funds this one: landing it would create money.
    if (inc.sender_transaction_id && !sender)
      return refuse(trx, row, inc, { to: 'FAILED', reason: 'PAY_REQUEST_FAILED' }, "the sender's payment is no longer in flight");
    const done = await lifecycle.land(row, cause);
    if (!done) return undefined;
    const scope = scopeOf(row);
    const currency = row.receiving_currency;
    const legs = await depositLegs(ledger, scope, {
      accountId: row.internal_account_id!,
      currency,
      amount: BigInt(row.received_amount),
      fee: BigInt(row.counterparty_fee),
    });
    await ledger.transfer(scope, { businessId: row.id, description: 'incoming UMA payment', transfers: legs });
    if (sender) {
      let current = sender;
      if (receiverInfo && Object.keys(receiverInfo).length) {
        const info = JSON.stringify({ ...JSON.parse(sender.counterparty_information), ...asText(receiverInfo) });
        await trx.updateTable('transactions').set({ counterparty_information: info }).where('id', '=', sender.id).execute();
        current = { ...sender, counterparty_information: info };
      }
      expectMoved(await within(senderScopeOf(inc), () => lifecycle.complete(current, 'the receiver accepted the UMA payment')), sender.id);
    }
    await forwardToDeposit(deps, trx, done);
    return done;
  }

  /** PENDING → FAILED or REJECTED: nothing lands; a sender hosted here is refunded. */
  async function refuse(
    trx: Executor,
    row: TransactionRow,
    inc: IncomingRow,
    outcome: { to: 'FAILED'; reason: FailureReason } | { to: 'REJECTED' },
    cause: string,
  ): Promise<TransactionRow | undefined> {
    const failed = outcome.to === 'FAILED';
    const sender = await senderInFlight(trx, inc);
    const done = await within(scopeOf(row), () => lifecycle.refuse(row, outcome, cause));
    if (!done) return undefined;
    if (!sender) return done;
    // The sender's refund, on the sender's clock.
    await within(senderScopeOf(inc), async () => {
      if (failed) {
        expectMoved(await lifecycle.fail(sender, outcome.reason, 'COMPLETED', `the receiver's side failed: ${cause}`), sender.id);
      } else {
        expectMoved(await lifecycle.reject(sender, `the receiver rejected the UMA payment: ${cause}`), sender.id);
      }
    });
    return done;
  }

  /**
   * Records an arriving payment and takes it as far as it goes now; returns the receiver's
   * transaction. Called in the sender's request (a payment between platforms hosted here): the
   * receiver's side is written on the receiver's clock.
   */
  async function arrive(trx: Executor, a: Arrival): Promise<TransactionRow> {
    return within(a.receiver.scope, () => arriveOnReceiverClock(trx, a));
  }

  async function arriveOnReceiverClock(trx: Executor, a: Arrival): Promise<TransactionRow> {
    const { scope, customer, config } = a.receiver;
    const now = clock.now();
    const row = newPaymentRow({
      scope,
      now: now.toISOString(),
      type: 'INCOMING',
      kind: 'UMA_RECEIVE',
      funding: 'UMA',
      customer: { id: customer.id, platformCustomerId: customer.platform_customer_id },
      internalAccountId: a.receiver.internalAccountId,
      // No external account takes part in a UMA payment ('' by convention, see db/schema.ts).
      externalAccountId: '',
      source: { sourceType: 'UMA_ADDRESS', ...(a.sender.umaAddress ? { umaAddress: a.sender.umaAddress } : {}), currency: a.sender.currency },
      destination: { destinationType: 'ACCOUNT', accountId: a.receiver.internalAccountId, currency: a.currency },
      sendingCurrency: a.sender.currency,
      receivingCurrency: a.currency,
      price: {
        totalSendingAmount: a.sender.sentAmount,
        totalReceivingAmount: a.receivedAmount,
        convertedAmount: a.sender.convertedAmount,
        feesIncluded: 0n,
        counterpartyFixedFee: a.counterpartyFee,
        exchangeRate: a.sender.exchangeRate,
        rateDetails: undefined,
      },
      description: a.description,
      counterpartyInformation: asText(a.sender.info),
    });
    const approval = incomingApproval(config);
    const pattern = sandboxArrival(scope.environment, a.receiver.address);
    const needsApproval = pattern.kind === 'APPROVAL' || approvalNeeded(approval);
    const inc: IncomingRow = {
      transaction_id: row.id,
      platform_id: scope.platformId,
      environment: scope.environment,
      origin: a.origin,
      receiver_uma_address: a.receiver.address,
      sender_uma_address: a.sender.umaAddress,
      sender_platform_id: a.sender.platformId ?? null,
      sender_transaction_id: a.sender.transactionId ?? null,
      approval_required: needsApproval ? 1 : 0,
      requested_fields: JSON.stringify(approval.requestedReceiverCustomerInfoFields),
      approval_deadline: null,
      approval_delivery_id: null,
      receiver_customer_info: null,
      rejection_reason: null,
      deposit_account_id: null,
      deposit_transaction_id: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await transactionRepository.insert(deps.db, row);
    await repo.insert(trx, inc);
    const from = a.sender.umaAddress ? ` from ${a.sender.umaAddress}` : '';
    let done: TransactionRow | undefined;
    if (pattern.kind === 'FAIL') {
      done = await refuse(trx, row, inc, { to: 'FAILED', reason: pattern.reason }, `sandbox test pattern: ${pattern.reason}`);
    } else if (!needsApproval) {
      done = await credit(trx, row, inc, `UMA payment received${from}`);
    } else {
      // The approval request: a PENDING webhook naming what the approval must supply.
      const emitted = await deps.events.emit(scope, {
        type: 'INCOMING_PAYMENT',
        subject: row.id,
        payload: { transaction: transactionView(row), requestedReceiverCustomerInfoFields: approval.requestedReceiverCustomerInfoFields },
      });
      if (emitted.status === 'NO_ENDPOINT') {
        done = await refuse(trx, row, inc, { to: 'FAILED', reason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' }, 'approval needed but no webhookEndpoint is configured');
      } else {
        const deadline = new Date(now.getTime() + approval.windowSeconds * 1000);
        await repo.update(trx, row.id, { approval_deadline: deadline.toISOString(), approval_delivery_id: emitted.deliveryId });
        const payload = { transactionId: row.id, platformId: scope.platformId, environment: scope.environment };
        await deps.jobs.enqueue({ kind: APPROVAL_TIMEOUT_JOB, subject: incomingSubject(row.id), payload, runAt: deadline });
      }
    }
    return done ?? row;
  }

  return { arrive, credit, refuse };
}

export type Arrivals = ReturnType<typeof createArrivals>;

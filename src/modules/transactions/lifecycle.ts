/**
 * Transaction statuses change only here (ARCHITECTURE rule 2). Each function is one transition
 * of TRANSITIONS: a guarded UPDATE … WHERE status = :from (zero rows means another request got
 * there first, reported as undefined), the ledger movement that goes with it, the history entry
 * (time and cause) and the webhook, all in the caller's database transaction.
 */
import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { Outbox } from '../../events/index.js';
import type { Ledger } from '../../ledger/index.js';
import type { FailureReason } from '../../rails/types.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import { paymentLegs } from './money.js';
import type { TransactionRow } from './repository.js';
import type { TransactionStatus, TransactionView } from './schemas.js';
import { transactionView } from './view.js';

/** The allowed transitions (spec, States and transitions; COMPLETED → FAILED is a returned payout). */
export const TRANSITIONS: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  CREATED: ['PENDING'],
  // PENDING → COMPLETED / REJECTED: an incoming payment approved or rejected by its receiver
  // (src/modules/incoming); PROCESSING → REJECTED: the sender's side of that rejection.
  PENDING: ['PROCESSING', 'EXPIRED', 'FAILED', 'COMPLETED', 'REJECTED'],
  PROCESSING: ['COMPLETED', 'FAILED', 'REJECTED'],
  COMPLETED: ['FAILED'],
  FAILED: [],
  REJECTED: [],
  REFUNDED: [],
  EXPIRED: [],
};

type Refund = NonNullable<TransactionView['refund']>;

export function createLifecycle(deps: { clock: Clock; ledger: Ledger; events: Outbox }) {
  const { clock, ledger, events } = deps;
  const scopeOf = (row: TransactionRow): Scope => ({ platformId: row.platform_id, environment: row.environment as Scope['environment'] });

  async function transition(trx: Executor, row: TransactionRow, to: TransactionStatus, cause: string, changes: Partial<TransactionRow> = {}): Promise<TransactionRow | undefined> {
    const from = row.status as TransactionStatus;
    if (!TRANSITIONS[from].includes(to)) throw new Error(`transaction ${row.id}: ${from} → ${to} is not an allowed transition`);
    const now = clock.now().toISOString();
    const updated = await trx
      .updateTable('transactions')
      // The reservation's ids ride along with the next change (see startProcessing).
      .set({ pending_transfer_ids: row.pending_transfer_ids, ...changes, status: to, updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', from)
      .returningAll()
      .executeTakeFirst();
    if (!updated) return undefined;
    const scope = scopeOf(row);
    await trx
      .insertInto('transaction_history')
      .values({ id: newId('TransactionEvent'), platform_id: scope.platformId, environment: scope.environment, transaction_id: row.id, from_status: from, to_status: to, cause, created_at: now })
      .execute();
    await events.emit(trx, scope, { type: row.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT', subject: row.id, payload: { transaction: transactionView(updated) } });
    return updated;
  }

  const pendingIds = (row: TransactionRow): string[] => JSON.parse(row.pending_transfer_ids ?? '[]');

  function refund(status: Refund['status'], reason: Refund['reason']): Refund {
    const now = clock.now().toISOString();
    return { reference: newFundingReference(), initiatedAt: now, status, settledAt: status === 'COMPLETED' ? now : null, reason };
  }

  return {
    transition,

    /** PENDING → PROCESSING: funds received or debited; the payment's transfers are reserved. */
    async startProcessing(trx: Executor, row: TransactionRow, cause: string, settledAt: string | null): Promise<TransactionRow | undefined> {
      const started = await transition(trx, row, 'PROCESSING', cause, { settled_at: settledAt });
      if (!started) return undefined;
      const scope = scopeOf(row);
      // INSUFFICIENT_FUNDS is raised here, inside the guarded ledger UPDATE: the caller's
      // transaction rolls back, the status change and its webhook with it.
      const journal = await ledger.createPending(scope, { businessId: row.id, description: `${row.kind} ${row.id}`, transfers: await paymentLegs(ledger, trx, scope, row) });
      // Not written yet: an outcome due at once writes it with its own change, and the engine
      // calls keepReservation when the payment stays PROCESSING. One statement less per payment.
      return { ...started, pending_transfer_ids: JSON.stringify(journal.transfers.map((t) => t.id)) };
    },

    /** Stores the reservation's ids of a payment that stays PROCESSING (resolved later). */
    async keepReservation(trx: Executor, row: TransactionRow) {
      await trx.updateTable('transactions').set({ pending_transfer_ids: row.pending_transfer_ids }).where('id', '=', row.id).execute();
    },

    /** PROCESSING → COMPLETED: the reserved transfers are posted. */
    async complete(trx: Executor, row: TransactionRow, cause: string) {
      const done = await transition(trx, row, 'COMPLETED', cause, { settled_at: clock.now().toISOString() });
      if (done) await ledger.post(scopeOf(row), { pendingTransferIds: pendingIds(row), businessId: row.id, description: 'payment completed' });
      return done;
    },

    /**
     * PROCESSING → FAILED. Outgoing: the reservation is voided and the payer refunded; with
     * refundStatus FAILED (sandbox 007) the transfers are posted instead, so the money is visibly
     * stuck in PAYOUTS_IN_FLIGHT for an operator. Incoming: the pull never arrived; voided, no refund.
     */
    async fail(trx: Executor, row: TransactionRow, reason: FailureReason, refundStatus: 'COMPLETED' | 'FAILED', cause: string) {
      const outgoing = row.type === 'OUTGOING';
      const changes: Partial<TransactionRow> = { failure_reason: reason, settled_at: null };
      if (outgoing) changes.refund = JSON.stringify(refund(refundStatus, 'TRANSACTION_FAILED'));
      const failed = await transition(trx, row, 'FAILED', cause, changes);
      if (!failed) return undefined;
      const input = { pendingTransferIds: pendingIds(row), businessId: row.id };
      if (outgoing && refundStatus === 'FAILED') await ledger.post(scopeOf(row), { ...input, description: 'payout failed and its refund failed: held in flight' });
      else await ledger.void(scopeOf(row), { ...input, description: outgoing ? 'payment failed: refund' : 'pull failed' });
      return failed;
    },

    /** COMPLETED → FAILED: the receiving bank returned the payout; reversing transfers refund the payer. */
    async returnPayment(trx: Executor, row: TransactionRow, reason: FailureReason, cause: string) {
      const returned = await transition(trx, row, 'FAILED', cause, { failure_reason: reason, refund: JSON.stringify(refund('COMPLETED', 'PAYMENT_RETURNED')) });
      if (!returned) return undefined;
      const scope = scopeOf(row);
      const { transfers } = await ledger.transfersOf(scope, row.id);
      const reversals = transfers
        .filter((t) => t.phase === 'PENDING')
        .map((t) => ({ debitAccountId: t.creditAccountId, creditAccountId: t.debitAccountId, amount: t.amount, code: 'REFUND' as const }));
      await ledger.transfer(scope, { businessId: row.id, description: 'payout returned: refund', transfers: reversals });
      return returned;
    },

    /** PENDING → EXPIRED: the quote was not executed (or funded) in time. */
    expire: (trx: Executor, row: TransactionRow, cause: string) => transition(trx, row, 'EXPIRED', cause, { failure_reason: 'QUOTE_EXPIRED' }),

    /** PENDING → FAILED: a JIT payment of the wrong amount arrived; it is sent back unbooked. */
    rejectFunding: (trx: Executor, row: TransactionRow, cause: string) =>
      transition(trx, row, 'FAILED', cause, { failure_reason: 'FUNDING_AMOUNT_MISMATCH', refund: JSON.stringify(refund('COMPLETED', 'FUNDING_AMOUNT_MISMATCH')) }),
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

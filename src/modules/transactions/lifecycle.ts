/**
 * Transaction statuses change only here (ARCHITECTURE rule 2). Each exported function is a named
 * transition of TRANSITIONS (or a short chain of them decided in one go): one guarded UPDATE …
 * WHERE status = :from (zero rows means another request got there first, reported as
 * undefined), or for a payment made in this request and not stored yet, its rows stored as it
 * leaves PENDING (`Store`); the ledger movement that goes with it, a history entry (time and cause) and a
 * webhook per status passed, all in the caller's database transaction, in one statement per table.
 */
import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { multiRowInsert, statement } from '../../db/statements.js';
import type { Outbox } from '../../events/index.js';
import { paymentLegs, returnLegs, type Ledger } from '../../ledger/index.js';
import type { FailureReason } from '../../rails/types.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import type { TransactionRow } from './repository.js';
import type { TransactionStatus } from './schemas.js';
import { transactionView, type StoredRefund } from './view.js';

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

/** The columns a transition may change, besides status and updated_at. */
type Changes = Partial<Pick<TransactionRow, 'settled_at' | 'failure_reason' | 'failure_detail' | 'refund' | 'pending_transfer_ids'>>;

/** A bank's own code behind a failureReason (bank rails): kept on the transaction, shown in its view and webhooks. */
export interface FailureDetail {
  code: string;
  description?: string;
  source: 'NACHA' | 'ISO20022';
}

/**
 * How a payment made in this request, not stored yet, is stored as it leaves PENDING: its row
 * (transactionRepository.insert) and any row that refers to it (its quote).
 */
export type Store = (row: TransactionRow) => Promise<void>;

/** One status passed: where to, why, and what changes with it. */
interface Step {
  to: TransactionStatus;
  cause: string;
  changes?: Changes;
}

type Refund = StoredRefund;

// Every mutable column is written from the row the caller read and guarded by its status, so no
// RETURNING is needed: the caller already holds the row.
const UPDATE_STATUS = statement(
  'update transactions set status = ?, updated_at = ?, settled_at = ?, failure_reason = ?, failure_detail = ?, refund = ?, pending_transfer_ids = ? where id = ? and status = ?',
);
const SAVE_RESERVATION = statement('update transactions set pending_transfer_ids = ? where id = ?');
const HISTORY_COLUMNS = ['id', 'platform_id', 'environment', 'transaction_id', 'from_status', 'to_status', 'cause', 'created_at'] as const;
const insertHistory = multiRowInsert('transaction_history', HISTORY_COLUMNS);

export function createLifecycle(deps: { db: Database; clock: Clock; ledger: Ledger; events: Outbox }) {
  const { db, clock, ledger, events } = deps;
  const scopeOf = (row: TransactionRow): Scope => ({ platformId: row.platform_id, environment: row.environment as Scope['environment'] });

  /**
   * Moves the row through the steps (each an allowed transition from the one before) with one
   * guarded UPDATE, or stored by `store` when it is not stored yet; a history row and a webhook
   * per step show every status it passed.
   */
  async function move(row: TransactionRow, steps: Step[], store?: Store): Promise<TransactionRow | undefined> {
    const now = clock.now().toISOString();
    const passed: TransactionRow[] = [];
    let current = row;
    for (const step of steps) {
      const from = current.status as TransactionStatus;
      if (!TRANSITIONS[from].includes(step.to)) throw new Error(`transaction ${row.id}: ${from} → ${step.to} is not an allowed transition`);
      current = { ...current, ...step.changes, status: step.to, updated_at: now };
      passed.push(current);
    }
    if (store) await store(current);
    else {
      const changed = await db.execute(UPDATE_STATUS, [
        current.status,
        now,
        current.settled_at,
        current.failure_reason,
        current.failure_detail,
        current.refund,
        current.pending_transfer_ids,
        row.id,
        row.status,
      ]);
      if (changed === 0) return undefined;
    }
    const scope = scopeOf(row);
    const history = steps.map((step, i) => [
      newId('TransactionEvent'),
      scope.platformId,
      scope.environment,
      row.id,
      i === 0 ? row.status : steps[i - 1].to,
      step.to,
      step.cause,
      now,
    ]);
    await db.append(insertHistory(history.length), history.flat());
    const type = row.type === 'INCOMING' ? 'INCOMING_PAYMENT' : 'OUTGOING_PAYMENT';
    await events.emitAll(
      scope,
      passed.map((r) => ({ type, subject: row.id, payload: { transaction: transactionView(r) } })),
    );
    return current;
  }

  const pendingIds = (row: TransactionRow): string[] => JSON.parse(row.pending_transfer_ids ?? '[]');

  function refund(status: Refund['status'], reason: Refund['reason']): Refund {
    const now = clock.now().toISOString();
    return { reference: newFundingReference(), initiatedAt: now, status, settledAt: status === 'COMPLETED' ? now : null, reason };
  }

  return {
    /**
     * PENDING → PROCESSING: funds received or debited; the payment's transfers are reserved (to
     * be posted or voided later) and their ids saved with the row. Undefined when the row was no
     * longer PENDING. `store`: for a row made in this request (move).
     */
    async startProcessing(row: TransactionRow, cause: string, settledAt: string | null, store?: Store): Promise<TransactionRow | undefined> {
      const scope = scopeOf(row);
      // INSUFFICIENT_FUNDS is raised inside the guarded ledger UPDATE: the caller's transaction
      // rolls back, the status change and its webhook with it.
      const reserve = async () => {
        const journal = await ledger.createPending(scope, {
          businessId: row.id,
          description: `${row.kind} ${row.id}`,
          transfers: await paymentLegs(ledger, scope, row),
        });
        return JSON.stringify(journal.transfers.map((t) => t.id));
      };
      const processing = (changes: Changes): Step[] => [{ to: 'PROCESSING', cause, changes: { settled_at: settledAt, ...changes } }];
      // A row nobody else knows yet is stored with its reservation's ids: one write.
      if (store) return move(row, processing({ pending_transfer_ids: await reserve() }), store);
      // A stored row: the guarded UPDATE first, so a concurrent request that won reserves nothing.
      const started = await move(row, processing({}));
      if (!started) return undefined;
      const pendingIds = await reserve();
      await db.execute(SAVE_RESERVATION, [pendingIds, row.id]);
      return { ...started, pending_transfer_ids: pendingIds };
    },

    /**
     * PENDING → PROCESSING → COMPLETED in one pass, for a rail that settles inside this
     * transaction: the transfers are posted at once (nothing to reserve first), and both statuses
     * are recorded and sent as webhooks, as a payment that settled later would show them.
     * `store`: for a row made in this request (move).
     */
    async startCompleted(row: TransactionRow, cause: string, completedCause: string, store?: Store): Promise<TransactionRow | undefined> {
      const scope = scopeOf(row);
      // The guarded UPDATE first: a concurrent request that won leaves nothing to post.
      const now = clock.now().toISOString();
      const done = await move(
        row,
        [
          { to: 'PROCESSING', cause, changes: { settled_at: now } },
          { to: 'COMPLETED', cause: completedCause, changes: { settled_at: now } },
        ],
        store,
      );
      if (!done) return undefined;
      await ledger.transfer(scope, { businessId: row.id, description: `${row.kind} ${row.id}`, transfers: await paymentLegs(ledger, scope, row) });
      return done;
    },

    /** PROCESSING → COMPLETED: the reserved transfers are posted. */
    async complete(row: TransactionRow, cause: string) {
      const done = await move(row, [{ to: 'COMPLETED', cause, changes: { settled_at: clock.now().toISOString() } }]);
      if (done) await ledger.post(scopeOf(row), { pendingTransferIds: pendingIds(row), businessId: row.id, description: 'payment completed' });
      return done;
    },

    /**
     * PROCESSING → FAILED. Outgoing: the reservation is voided and the payer refunded; with
     * refundStatus FAILED (sandbox 007) the transfers are posted instead, so the money is visibly
     * stuck in PAYOUTS_IN_FLIGHT for an operator. Incoming: the pull never arrived; voided, no refund.
     */
    async fail(row: TransactionRow, reason: FailureReason, refundStatus: 'COMPLETED' | 'FAILED', cause: string, detail?: FailureDetail) {
      const outgoing = row.type === 'OUTGOING';
      const changes: Changes = { failure_reason: reason, settled_at: null, ...(detail && { failure_detail: JSON.stringify(detail) }) };
      if (outgoing) changes.refund = JSON.stringify(refund(refundStatus, 'TRANSACTION_FAILED'));
      const failed = await move(row, [{ to: 'FAILED', cause, changes }]);
      if (!failed) return undefined;
      const input = { pendingTransferIds: pendingIds(row), businessId: row.id };
      if (outgoing && refundStatus === 'FAILED')
        await ledger.post(scopeOf(row), { ...input, description: 'payout failed and its refund failed: held in flight' });
      else await ledger.void(scopeOf(row), { ...input, description: outgoing ? 'payment failed: refund' : 'pull failed' });
      return failed;
    },

    /** PROCESSING → REJECTED: the receiver of a UMA payment hosted here refused it; the reservation is voided (the refund). */
    async reject(row: TransactionRow, cause: string) {
      const rejected = await move(row, [
        { to: 'REJECTED', cause, changes: { refund: JSON.stringify(refund('COMPLETED', 'TRANSACTION_FAILED')), settled_at: null } },
      ]);
      if (rejected)
        await ledger.void(scopeOf(row), {
          pendingTransferIds: pendingIds(row),
          businessId: row.id,
          description: 'UMA payment rejected by the receiver: refund',
        });
      return rejected;
    },

    /**
     * COMPLETED → FAILED: the receiving bank returned the payout; reversing transfers refund the
     * payer. The payment's own legs are reversed, whether they were reserved then posted or
     * posted at once.
     */
    async returnPayment(row: TransactionRow, reason: FailureReason, cause: string, detail?: FailureDetail) {
      const returned = await move(row, [
        {
          to: 'FAILED',
          cause,
          changes: {
            failure_reason: reason,
            refund: JSON.stringify(refund('COMPLETED', 'PAYMENT_RETURNED')),
            ...(detail && { failure_detail: JSON.stringify(detail) }),
          },
        },
      ]);
      if (!returned) return undefined;
      const scope = scopeOf(row);
      const { transfers } = await ledger.transfersOf(scope, row.id);
      await ledger.transfer(scope, { businessId: row.id, description: 'payout returned: refund', transfers: returnLegs(transfers) });
      return returned;
    },

    /** PENDING → EXPIRED: the quote was not executed (or funded) in time. */
    expire: (row: TransactionRow, cause: string) => move(row, [{ to: 'EXPIRED', cause, changes: { failure_reason: 'QUOTE_EXPIRED' } }]),

    /** PENDING → FAILED: a JIT payment of the wrong amount arrived; it is sent back unbooked. */
    rejectFunding: (row: TransactionRow, cause: string) =>
      move(row, [
        { to: 'FAILED', cause, changes: { failure_reason: 'FUNDING_AMOUNT_MISMATCH', refund: JSON.stringify(refund('COMPLETED', 'FUNDING_AMOUNT_MISMATCH')) } },
      ]),

    /** PENDING → COMPLETED: an incoming payment lands (the caller books its deposit). */
    land: (row: TransactionRow, cause: string) => move(row, [{ to: 'COMPLETED', cause, changes: { settled_at: clock.now().toISOString() } }]),

    /** PENDING → FAILED or REJECTED: an incoming payment that does not land; nothing was booked for it. */
    refuse: (row: TransactionRow, outcome: { to: 'FAILED'; reason: FailureReason } | { to: 'REJECTED' }, cause: string) =>
      move(row, [{ to: outcome.to, cause, changes: outcome.to === 'FAILED' ? { failure_reason: outcome.reason } : {} }]),
  };
}

export type Lifecycle = ReturnType<typeof createLifecycle>;

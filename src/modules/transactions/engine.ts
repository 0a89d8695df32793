/**
 * The payment engine: starts a payment (reserve the funds, ask the rail for its plan, apply what
 * is due at once, schedule the rest as durable jobs) and applies rail events later, from the
 * worker or from an operator. Everything runs in the caller's transaction; no I/O.
 */
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { Job, JobQueue } from '../../db/jobs.js';
import type { Rails, RailEvent, RailStep } from '../../rails/index.js';
import type { CarriedDirection } from '../../rails/types.js';
import type { ExternalAccountRow } from '../external-accounts/repository.js';
import { transactionErrors } from './errors.js';
import type { Lifecycle, Store } from './lifecycle.js';
import { transactionRepository as repo, type TransactionRow } from './repository.js';

export const PAYMENT_STEP_JOB = 'payment.step';
export const QUOTE_EXPIRE_JOB = 'quote.expire';
export const PAYMENT_JOB_KINDS = [PAYMENT_STEP_JOB, QUOTE_EXPIRE_JOB] as const;
// Handlers are quick database work, so a job held by a node that died is retried after 15 s.
const LEASE_MS = 15_000;

/** Jobs of one payment run in order, in their own namespace (webhook jobs use `webhook:`). */
export const paymentSubject = (transactionId: string) => `payment:${transactionId}`;

interface StepPayload {
  transactionId: string;
  platformId: string;
  environment: string;
  event: RailEvent;
}

interface ExpirePayload {
  quoteId: string;
  transactionId: string;
  platformId: string;
  environment: string;
}

export function createPaymentEngine(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  rails: Rails;
  lifecycle: Lifecycle;
  /** Runs a job's work on its scope's clock (a sandbox platform's time); directly when absent. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}) {
  const { db, clock, jobs, rails, lifecycle } = deps;

  /** Applies one rail event if the transaction is still where the event expects it; else nothing. */
  async function apply(trx: Executor, row: TransactionRow, event: RailEvent, cause: string): Promise<TransactionRow> {
    let next: TransactionRow | undefined;
    if (event.kind === 'COMPLETE' && row.status === 'PROCESSING') next = await lifecycle.complete(row, cause);
    else if (event.kind === 'FAIL' && row.status === 'PROCESSING') next = await lifecycle.fail(row, event.reason, event.refund, cause);
    else if (event.kind === 'RETURN' && row.status === 'COMPLETED') next = await lifecycle.returnPayment(row, event.reason, cause);
    return next ?? row;
  }

  /** When the plan says the payment settles: now for instant ones, later for timed ones. */
  function settlementOf(plan: RailStep[], now: number): string | null {
    const completion = plan.find((s) => s.event.kind === 'COMPLETE');
    return completion ? new Date(now + completion.afterMs).toISOString() : null;
  }

  /**
   * PENDING → PROCESSING and onwards: reserves the funds (INSUFFICIENT_FUNDS rolls everything
   * back), then follows the rail's plan for the external account. `store`: for a row not stored
   * yet, stored by its first status change.
   */
  async function start(trx: Executor, row: TransactionRow, external: ExternalAccountRow, cause: string, store?: Store) {
    const rail = rails[row.environment as Scope['environment']];
    const plan = row.type === 'INCOMING' ? rail.planPull(external) : rail.planPayout(external);
    const now = clock.now().getTime();
    const railCause = (e: RailEvent) => `${rail.name} rail: ${e.kind.toLowerCase()}`;
    // The rail settles at once (the instant sandbox and most payouts): one pass, posted at once.
    const [first, ...rest] = plan;
    const settlesNow = first?.afterMs === 0 && first.event.kind === 'COMPLETE';
    let current = settlesNow
      ? await lifecycle.startCompleted(row, cause, railCause(first.event), store)
      : await lifecycle.startProcessing(row, cause, settlementOf(plan, now), store);
    if (!current) return undefined;
    // A rail that carries the payment later (a bank file) takes it in this same transaction.
    if (!settlesNow && rail.started) await rail.started(current, external);
    let immediate = true;
    for (const step of settlesNow ? rest : plan) {
      immediate &&= step.afterMs === 0;
      if (immediate) {
        current = await apply(trx, current, step.event, railCause(step.event));
        continue;
      }
      const payload: StepPayload = { transactionId: row.id, platformId: row.platform_id, environment: row.environment, event: step.event };
      await jobs.enqueue({ kind: PAYMENT_STEP_JOB, subject: paymentSubject(row.id), payload, runAt: new Date(now + step.afterMs) });
    }
    return current;
  }

  return {
    /** Refuses (400 naming `field`) a payment the environment's rail cannot carry, before anything is reserved. */
    checkCarried(scope: Scope, account: Pick<ExternalAccountRow, 'currency' | 'account_type'>, field: string, direction: CarriedDirection) {
      rails[scope.environment].checkCarried?.(account, field, direction);
    },

    /** Runs one claimed payment job in the caller's transaction (the sandbox clock's advance). */
    runJob: (trx: Executor, job: Job) => handle(trx, job),

    /** Applies one rail event now (the sandbox's test helpers): the same transition the rail's own event makes, or nothing. */
    apply,

    /**
     * Starts a stored PENDING payment (see start). Undefined when the transaction was no longer
     * PENDING (a concurrent request won).
     */
    initiate: (trx: Executor, row: TransactionRow, external: ExternalAccountRow, cause: string) => start(trx, row, external, cause),

    /**
     * Starts a payment made in this request and not stored yet (see start): its row is written
     * once, as it leaves PENDING, not inserted and then updated (`store`: with the rows that refer
     * to it). Nobody else knows its id, so it cannot lose a race.
     */
    create: async (
      trx: Executor,
      row: TransactionRow,
      external: ExternalAccountRow,
      cause: string,
      store: Store = (r) => repo.insert(db, r),
    ): Promise<TransactionRow> => (await start(trx, row, external, cause, store))!,

    /** Schedules the expiry of a quote's transaction at expiresAt. */
    scheduleExpiry(p: ExpirePayload, expiresAt: Date) {
      // No subject: an expiry minutes away must not hold up the payment's own timed steps.
      return jobs.enqueue({ kind: QUOTE_EXPIRE_JOB, payload: p, runAt: expiresAt });
    },

    /** An operator settles (complete) or fails a PROCESSING payment of the manual rail. */
    async operate(transactionId: string, event: RailEvent, cause: string): Promise<TransactionRow> {
      return db.tx(async (trx) => {
        const row = await repo.findAnyScope(trx, transactionId);
        if (!row) throw transactionErrors.TRANSACTION_NOT_FOUND({ transactionId });
        if (row.status !== 'PROCESSING') throw transactionErrors.TRANSACTION_NOT_PROCESSING({ transactionId, status: row.status });
        const next = await apply(trx, row, event, cause);
        if (next.status === 'PROCESSING') throw transactionErrors.TRANSACTION_NOT_PROCESSING({ transactionId, status: row.status });
        return next;
      });
    },

    /** Runs one due payment job (timed rail step or quote expiry); false when none is due. */
    async processNext(): Promise<boolean> {
      const job = await jobs.claimNext(PAYMENT_JOB_KINDS, LEASE_MS);
      if (!job) return false;
      try {
        await db.tx(async (trx) => {
          await handle(trx, job);
          await jobs.complete(job);
        });
      } catch (e) {
        // A bug or an outage: try again later rather than lose the step (handlers are idempotent).
        const delayMs = Math.min(3_600_000, 1000 * 2 ** Math.min(job.attempts, 12));
        await jobs.retry(job, new Date(clock.now().getTime() + delayMs), e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
      return true;
    },
  };

  async function handle(trx: Executor, job: Job) {
    const p = job.payload as StepPayload | ExpirePayload;
    const scope: Scope = { platformId: p.platformId, environment: p.environment as Scope['environment'] };
    return deps.within ? deps.within(scope, () => handleOnClock(trx, job, scope, p)) : handleOnClock(trx, job, scope, p);
  }

  async function handleOnClock(trx: Executor, job: Job, scope: Scope, p: StepPayload | ExpirePayload) {
    const row = await repo.find(trx, scope, p.transactionId);
    if (!row) return;
    if (job.kind === QUOTE_EXPIRE_JOB) {
      if (row.status === 'PENDING') await lifecycle.expire(row, 'quote expired before it was executed or funded');
      return;
    }
    const { event } = p as StepPayload;
    await apply(trx, row, event, `${rails[scope.environment].name} rail: ${event.kind.toLowerCase()} (timed)`);
  }
}

export type PaymentEngine = ReturnType<typeof createPaymentEngine>;

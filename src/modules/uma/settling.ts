/**
 * Settling a payment to another UMA provider, once its quote is executed (the agreement: paying.ts).
 *
 * Execution (dispatch): the lifecycle reserves the funds (PROCESSING) and a job settles after
 * commit: the network is never used inside a database transaction. Settlement presents the
 * invoice to the Lightning backend until its answer is final: a preimage whose sha256 is the
 * payment hash completes the payment and sends the signed post-transaction callback; a final
 * refusal fails it with LIGHTNING_PAYMENT_FAILED (or REJECTED when the receiver's platform
 * rejected it) and refunds the payer. No answer, or one that proves nothing, is asked again: a
 * payment whose outcome is unknown is never refunded, since the receiver may have credited it.
 */
import { getPostTransactionCallback } from '@uma-sdk/core';
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { Job, JobQueue } from '../../db/jobs.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { provesPayment } from './invoices.js';
import type { UmaKeys } from './keys.js';
import type { LightningBackend, Payer } from './lightning.js';
import { senderIdentity } from './sending.js';
import type { UmaPaymentsTable } from './tables.js';
import type { WireClient } from './wire-client.js';

export const UMA_SETTLE_JOB = 'uma.settle';
export const UMA_POST_TX_JOB = 'uma.post-tx';
export const UMA_JOB_KINDS = [UMA_SETTLE_JOB, UMA_POST_TX_JOB] as const;
const subjectOf = (transactionId: string) => `uma-payment:${transactionId}`;
/** A settlement or callback holds its job this long at most (two wire timeouts and the database). */
const LEASE_MS = 60_000;
/** Asking again about a pending settlement: quickly at first, then once a minute. */
const pendingDelayMs = (asked: number) => Math.min(60_000, 500 * 2 ** Math.min(asked, 7));

export interface SettlingDeps {
  db: Database;
  clock: Clock;
  wire: WireClient;
  keys: UmaKeys;
  lightning: LightningBackend;
  jobs: JobQueue;
  /** a getter: the payments are assembled after this module */
  lifecycle: () => Lifecycle;
  /** Runs on the scope's clock (a sandbox platform's time): the payment's status changes are the payer platform's. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}

export function createSettling(deps: SettlingDeps) {
  const { db, clock, wire, jobs } = deps;

  /** The platform's identity towards receivers, as the sandbox Lightning needs it. */
  async function payerOf(scope: Scope): Promise<Payer> {
    const me = await senderIdentity(deps, scope);
    return { domain: me.domain, signingKey: me.keys.signing.privateKey, signingPublicKey: me.keys.signing.publicKey };
  }

  return {
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

export type Settling = ReturnType<typeof createSettling>;

/**
 * Incoming payments: the approval answers (POST /transactions/{id}/approve and /reject), the
 * approval window (a durable job per payment: PAYMENT_APPROVAL_TIMED_OUT, or
 * PAYMENT_APPROVAL_WEBHOOK_ERROR when the approval webhook never reached the platform), and the
 * sandbox's simulated arrival (POST /sandbox/uma/receive).
 */
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { Job, JobQueue } from '../../db/jobs.js';
import { fromDbBool } from '../../db/values.js';
import { requiredPayerDataFields } from '../config/incoming.js';
import { decodeCurrencies } from '../customers/repository.js';
import { receiverErrors, missingKeys, missingUserInfo } from '../receiver/errors.js';
import { findHosted } from '../receiver/resolver.js';
import { transactionErrors } from '../transactions/errors.js';
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { checkCurrencyLimits } from '../transactions/rules.js';
import type { ConfigCache } from '../platforms/config-cache.js';
import { transactionView } from '../transactions/view.js';
import { APPROVAL_TIMEOUT_JOB, type Arrivals } from './arrival.js';
import { incomingErrors } from './errors.js';
import { incomingRepository as repo, type IncomingRow } from './repository.js';

export const INCOMING_JOB_KINDS = [APPROVAL_TIMEOUT_JOB] as const;
// Handlers are quick database work, so a job held by a node that died is retried after 15 s.
const LEASE_MS = 15_000;

export interface SandboxReceive {
  receiverUmaAddress: string;
  currencyCode: string;
  currencyAmount: number;
  senderUmaAddress?: string;
  senderCustomerInfo?: Record<string, string | number | boolean>;
  description?: string;
}

export function createIncomingService(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  configs: ConfigCache;
  arrivals: Arrivals;
  /** Runs a job's work on its scope's clock (a sandbox platform's time); directly when absent. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}) {
  const { db, clock, jobs, arrivals } = deps;

  /** The transaction and its incoming record, if it is waiting for the platform's answer; else 404 / 409. */
  async function awaiting(trx: Executor, scope: Scope, id: string): Promise<{ row: TransactionRow; inc: IncomingRow }> {
    const row = await transactionRepository.find(trx, scope, id);
    if (!row) throw transactionErrors.TRANSACTION_NOT_FOUND({ transactionId: id });
    const inc = await repo.find(trx, scope, id);
    if (!inc || !fromDbBool(inc.approval_required) || row.status !== 'PENDING')
      throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id, status: row.status });
    // The window holds to the millisecond, even before its deadline job has run (which then fails the payment).
    if (inc.approval_deadline !== null && clock.now().toISOString() >= inc.approval_deadline) {
      throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL(
        { transactionId: id, status: row.status, approvalDeadline: inc.approval_deadline },
        `The approval window closed at ${inc.approval_deadline}; the payment fails (PAYMENT_APPROVAL_TIMED_OUT, or PAYMENT_APPROVAL_WEBHOOK_ERROR if the approval webhook never arrived)`,
      );
    }
    return { row, inc };
  }

  async function handle(trx: Executor, job: Job) {
    const p = job.payload as { transactionId: string; platformId: string; environment: Scope['environment'] };
    const scope: Scope = { platformId: p.platformId, environment: p.environment };
    const run = async () => {
      const row = await transactionRepository.find(trx, scope, p.transactionId);
      const inc = await repo.find(trx, scope, p.transactionId);
      if (!row || !inc || row.status !== 'PENDING') return; // answered in time
      await timeOut(trx, row, inc);
    };
    await (deps.within ? deps.within(scope, run) : run());
  }

  /** The approval window closed: FAILED, PAYMENT_APPROVAL_TIMED_OUT (or WEBHOOK_ERROR when the request never arrived). */
  async function timeOut(trx: Executor, row: TransactionRow, inc: IncomingRow) {
    const delivered = inc.approval_delivery_id !== null && (await repo.delivered(trx, inc.approval_delivery_id));
    return arrivals.refuse(
      trx,
      row,
      inc,
      { to: 'FAILED', reason: delivered ? 'PAYMENT_APPROVAL_TIMED_OUT' : 'PAYMENT_APPROVAL_WEBHOOK_ERROR' },
      delivered ? 'no approval within the approval window' : 'the approval webhook was not delivered within the approval window',
    );
  }

  return {
    async approve(scope: Scope, id: string, input: { receiverCustomerInfo?: Record<string, unknown> }) {
      return db.tx(async (trx) => {
        const { row, inc } = await awaiting(trx, scope, id);
        const missing = missingKeys(JSON.parse(inc.requested_fields) as string[], input.receiverCustomerInfo);
        if (missing.length) throw missingUserInfo('receiverCustomerInfo', missing);
        const now = clock.now().toISOString();
        await repo.update(trx, id, { receiver_customer_info: input.receiverCustomerInfo ? JSON.stringify(input.receiverCustomerInfo) : null, updated_at: now });
        const done = await arrivals.credit(trx, row, inc, 'approved by the receiving platform', input.receiverCustomerInfo);
        if (!done) throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id });
        return transactionView(done);
      });
    },

    async reject(scope: Scope, id: string, input: { reason?: string }) {
      return db.tx(async (trx) => {
        const { row, inc } = await awaiting(trx, scope, id);
        await repo.update(trx, id, { rejection_reason: input.reason ?? null, updated_at: clock.now().toISOString() });
        const done = await arrivals.refuse(trx, row, inc, { to: 'REJECTED' }, `rejected by the receiving platform${input.reason ? `: ${input.reason}` : ''}`);
        if (!done) throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id });
        return transactionView(done);
      });
    },

    /**
     * The platform answered the approval request (a GRID-profile webhook) with 422 and the payer
     * fields it requires: a payment cannot gain payer data once sent, so it fails as a receiver
     * that cannot take it does (PAY_REQUEST_FAILED, the sender refunded), the fields in its history.
     */
    async requireFields(scope: Scope, id: string, fields: string[]) {
      return db.tx(async (trx) => {
        const { row, inc } = await awaiting(trx, scope, id);
        const reason = `the receiving platform requires payer data the payment lacks${fields.length ? `: ${fields.join(', ')}` : ''}`;
        await repo.update(trx, id, { rejection_reason: reason.slice(0, 500), updated_at: clock.now().toISOString() });
        const done = await arrivals.refuse(trx, row, inc, { to: 'FAILED', reason: 'PAY_REQUEST_FAILED' }, reason);
        if (!done) throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id });
        return transactionView(done);
      });
    },

    /**
     * POST /sandbox/transactions/{id}/approval-timeout: closes the approval window now, as its
     * deadline job would; the job, when it runs later, finds the payment answered and does nothing.
     */
    async sandboxTimeOut(scope: Scope, id: string) {
      return db.tx(async (trx) => {
        const row = await transactionRepository.find(trx, scope, id);
        if (!row) throw transactionErrors.TRANSACTION_NOT_FOUND({ transactionId: id });
        const inc = await repo.find(trx, scope, id);
        if (!inc || !fromDbBool(inc.approval_required) || row.status !== 'PENDING')
          throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id, status: row.status });
        const done = await timeOut(trx, row, inc);
        if (!done) throw incomingErrors.TRANSACTION_NOT_AWAITING_APPROVAL({ transactionId: id });
        return transactionView(done);
      });
    },

    /** POST /sandbox/uma/receive: a UMA payment from outside arrives for one of the caller's customers. */
    async sandboxReceive(scope: Scope, input: SandboxReceive) {
      const address = input.receiverUmaAddress.toLowerCase();
      return db.tx(async (trx) => {
        const hosted = await findHosted(trx, scope.environment, address);
        // Only the caller's own customers: this is its sandbox, not a way into another platform's.
        if (!hosted || hosted.config.platform_id !== scope.platformId) throw receiverErrors.UMA_ADDRESS_NOT_FOUND({ umaAddress: address });
        const { config, customer } = hosted;
        if (!decodeCurrencies(customer.currencies).includes(input.currencyCode)) {
          throw invalidField('currencyCode', `is not enabled for this customer; it receives ${decodeCurrencies(customer.currencies).join(', ')}`);
        }
        const account = await repo.receivingAccount(trx, scope, customer.id, input.currencyCode);
        if (!account) throw invalidField('currencyCode', 'has no active internal account for this customer');
        const amount = BigInt(input.currencyAmount);
        await checkCurrencyLimits(deps.configs, scope, [{ currency: input.currencyCode, amount, field: 'currencyAmount' }]);
        const missing = missingKeys(requiredPayerDataFields(config), input.senderCustomerInfo);
        if (missing.length) throw missingUserInfo('senderCustomerInfo', missing);
        const row = await arrivals.arrive(trx, {
          origin: 'SANDBOX',
          receiver: { scope, customer, config, address, internalAccountId: account.id },
          currency: input.currencyCode,
          receivedAmount: amount,
          counterpartyFee: 0n,
          sender: {
            umaAddress: input.senderUmaAddress?.toLowerCase() ?? null,
            info: input.senderCustomerInfo ?? {},
            currency: input.currencyCode,
            sentAmount: amount,
            convertedAmount: amount,
            exchangeRate: '1',
          },
          description: input.description ?? null,
        });
        return transactionView(row);
      });
    },

    /** Runs one claimed approval deadline job in the caller's transaction (the sandbox clock's advance). */
    runJob: (trx: Executor, job: Job) => handle(trx, job),

    /** Runs one due approval deadline; false when none is due. */
    async processNext(): Promise<boolean> {
      const job = await jobs.claimNext(INCOMING_JOB_KINDS, LEASE_MS);
      if (!job) return false;
      try {
        await db.tx(async (trx) => {
          await handle(trx, job);
          await jobs.complete(job);
        });
      } catch (e) {
        const delayMs = Math.min(3_600_000, 1000 * 2 ** Math.min(job.attempts, 12));
        await jobs.retry(job, new Date(clock.now().getTime() + delayMs), e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
      return true;
    },
  };
}

export type IncomingService = ReturnType<typeof createIncomingService>;

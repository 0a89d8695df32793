/**
 * What an operator does to the bank rails, shared by the CLI (`npx corridor bank …`, cli.ts) and
 * the dashboard's Bank page (src/dashboard/bank-routes.ts), so each rule lives in one place:
 * - look: the state of each bank, its files (and their bytes), the payouts of a file, the
 *   exceptions queue with the age of each;
 * - cancel a payout still QUEUED before its cut-off: the payment FAILS and the payer is refunded;
 * - resolve an exception: with a written note; an unmatched credit applied to an internal account
 *   (a deposit, as if its reference had named the account) or sent back to its payer; a debit
 *   paired with the credit it sent back.
 * Every change names who made it (resolution JSON, the transaction's history); the CLI and the
 * dashboard record it in the audit log as they do for every operator command and dashboard write.
 */
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { BankExceptionsTable, BankFileStatus, BankFilesTable, BankPayoutsTable } from '../../db/tables/bank-rails.js';
import { bankLegs, type Ledger } from '../../ledger/index.js';
import type { PaymentEngine } from '../../modules/transactions/engine.js';
import type { Lifecycle } from '../../modules/transactions/lifecycle.js';
import { transactionRepository, type TransactionRow } from '../../modules/transactions/repository.js';
import type { ExternalAccountRow } from '../../modules/external-accounts/repository.js';
import { toNumber } from '../../db/values.js';
import { defineErrors } from '../../common/errors.js';
import { nextWindow } from './calendar.js';
import { createMoneyIn } from './money-in.js';
import type { BankProfile, PayoutFormat } from './profile.js';

/**
 * A payout is cancelled only while this much time is left before its cut-off: the file of a window
 * is built as soon as the window closes, and a cancellation committing after that build read its
 * payouts would leave a cancelled (and refunded) payout in the file sent to the bank. The margin
 * covers the cancelling transaction and clocks of different machines drifting apart.
 */
export const CANCEL_MARGIN_MS = 60_000;
/** Rows a listing answers at most (rule 7). */
export const MAX_LIST = 1000;

export const FILE_STATUSES: readonly BankFileStatus[] = ['BUILT', 'UPLOADED', 'ACCEPTED', 'REJECTED', 'CANCELLED'];
export const EXCEPTION_KINDS = [
  'UNMATCHED_CREDIT',
  'UNMATCHED_DEBIT',
  'AMOUNT_MISMATCH',
  'BALANCE_BREAK',
  'FILE_REFUSED',
  'UNKNOWN_PAYOUT',
  'UNREPORTED_PAYOUT',
] as const;

/** A refusal with the status and code the dashboard answers with; the CLI prints its message. */
export class BankOperationError extends Error {
  override readonly name = 'BankOperationError';
  constructor(
    readonly status: 400 | 404 | 409,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
/** The codes these refusals carry, declared for the error catalogue (docs/errors.md). */
const BANK_ERRORS = {
  BANK_FILE_NOT_FOUND: { status: 404, message: 'No bank file with this id' },
  BANK_PAYOUT_NOT_FOUND: { status: 404, message: 'No payout queued for a partner bank with this transaction id' },
  BANK_EXCEPTION_NOT_FOUND: { status: 404, message: 'No bank exception with this id' },
  BANK_EXCEPTION_RESOLVED: { status: 409, message: 'The bank exception is already resolved' },
  BANK_EXCEPTION_NOT_APPLICABLE: {
    status: 409,
    message: 'The bank exception cannot be resolved this way (no statement entry in suspense); resolve it with a note',
  },
  BANK_PAYOUT_NOT_CANCELLABLE: { status: 409, message: 'The payout can no longer be cancelled: it went into a file or left PROCESSING' },
} as const;
defineErrors(BANK_ERRORS);
type BankCode = keyof typeof BANK_ERRORS | 'INTERNAL_ACCOUNT_NOT_FOUND';
const notFound = (code: BankCode, message: string) => new BankOperationError(404, code, message);
const conflict = (code: BankCode, message: string) => new BankOperationError(409, code, message);
const invalid = (message: string) => new BankOperationError(400, 'INVALID_INPUT', message);

/** Who acted: an operator at the CLI (user@host) or a dashboard user (their email). */
export interface Actor {
  type: 'OPERATOR' | 'USER';
  name: string;
}

export interface FileSummary {
  id: string;
  bankId: string;
  format: string;
  name: string;
  status: string;
  currency: string;
  entryCount: number;
  totalAmount: bigint;
  sha256: string;
  reason: string | null;
  windowAt: string;
  effectiveDate: string;
  builtAt: string;
  uploadedAt: string | null;
  acknowledgedAt: string | null;
}

export interface PayoutSummary {
  transactionId: string;
  platformId: string;
  bankId: string;
  format: string;
  direction: string;
  currency: string;
  amount: bigint;
  reference: string;
  counterpartyName: string;
  status: string;
  traceNumber: string | null;
  reasonCode: string | null;
  queuedAt: string;
}

export interface ExceptionSummary {
  id: string;
  bankId: string;
  kind: string;
  status: string;
  currency: string | null;
  amount: bigint | null;
  reference: string | null;
  subjectId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
  /** Seconds it has been open (until now, or until it was resolved). */
  ageSeconds: number;
  resolvedAt: string | null;
  resolution: Resolution | null;
}

export type ResolveAction =
  { action: 'NOTE'; note: string } | { action: 'APPLY_TO'; accountId: string; note?: string } | { action: 'SEND_BACK'; note?: string };

/** The resolution JSON kept on the exception. */
export type Resolution = ResolveAction & { by: Actor; at: string; transactionId?: string; pairedEntryId?: string };

export interface BankStatus {
  bankId: string;
  name: string;
  configured: boolean;
  queuedPayouts: number;
  queuedAmounts: Record<string, bigint>;
  filesByStatus: Partial<Record<BankFileStatus, number>>;
  openExceptions: number;
  lastReportAt: string | null;
}

/** The most a note may say; it is kept in the resolution and shown in the dashboard. */
const MAX_NOTE = 1000;

function fileView(f: Omit<BankFilesTable, 'content'>): FileSummary {
  return {
    id: f.id,
    bankId: f.bank_id,
    format: f.format,
    name: f.name,
    status: f.status,
    currency: f.currency,
    entryCount: toNumber(f.entry_count),
    totalAmount: BigInt(f.total_amount),
    sha256: f.sha256,
    reason: f.reason,
    windowAt: f.window_at,
    effectiveDate: f.effective_date,
    builtAt: f.built_at,
    uploadedAt: f.uploaded_at,
    acknowledgedAt: f.acknowledged_at,
  };
}

function payoutView(p: BankPayoutsTable): PayoutSummary {
  let counterpartyName = '';
  try {
    counterpartyName = String((JSON.parse(p.counterparty) as { name?: unknown }).name ?? '');
  } catch {
    /* kept as written by the rail; a name that cannot be read shows empty */
  }
  return {
    transactionId: p.transaction_id,
    platformId: p.platform_id,
    bankId: p.bank_id,
    format: p.format,
    direction: p.direction,
    currency: p.currency,
    amount: BigInt(p.amount),
    reference: p.reference,
    counterpartyName,
    status: p.status,
    traceNumber: p.trace_number,
    reasonCode: p.reason_code,
    queuedAt: p.queued_at,
  };
}

const scopeOf = (row: { platform_id: string; environment: string }): Scope => ({
  platformId: row.platform_id,
  environment: row.environment as Scope['environment'],
});

export interface BankOperationsDeps {
  db: Database;
  /** Real time (never a sandbox clock): cut-offs and ages are facts of the operator's world. */
  clock: Clock;
  banks: readonly BankProfile[];
  ledger: Ledger;
  lifecycle: Lifecycle;
  engine: PaymentEngine;
  payableAccounts: (trx: Executor, scope: Scope, tx: TransactionRow) => Promise<ExternalAccountRow>;
}

/** Over a Container: `createBankOperations(bankOperationsDeps(container))`. */
export function bankOperationsDeps(c: {
  db: Database;
  ledger: Ledger;
  bankRails: { banks: readonly BankProfile[] };
  sandbox: { clocks: { realClock: Clock } };
  payments: {
    lifecycle: Lifecycle;
    engine: PaymentEngine;
    services: { quotes: { payableAccounts: BankOperationsDeps['payableAccounts'] } };
  };
}): BankOperationsDeps {
  return {
    db: c.db,
    clock: c.sandbox.clocks.realClock,
    banks: c.bankRails.banks,
    ledger: c.ledger,
    lifecycle: c.payments.lifecycle,
    engine: c.payments.engine,
    payableAccounts: c.payments.services.quotes.payableAccounts,
  };
}

export function createBankOperations(deps: BankOperationsDeps) {
  const { db, clock, ledger, lifecycle } = deps;
  const now = () => clock.now();
  // The same deposit a credit matched by its reference makes (money-in.ts): an INCOMING
  // transaction completed at once, and its webhook.
  const moneyIn = createMoneyIn({
    db,
    clock,
    lifecycle,
    engine: deps.engine,
    payableAccounts: deps.payableAccounts,
    log: (message, facts) => process.emitWarning(`${message}: ${JSON.stringify(facts)}`),
  });

  function limitOf(limit: number | undefined): number {
    if (limit === undefined) return 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIST) throw invalid(`limit must be an integer from 1 to ${MAX_LIST}`);
    return limit;
  }

  function exceptionView(e: BankExceptionsTable): ExceptionSummary {
    const until = e.resolved_at ? Date.parse(e.resolved_at) : now().getTime();
    return {
      id: e.id,
      bankId: e.bank_id,
      kind: e.kind,
      status: e.status,
      currency: e.currency,
      amount: e.amount == null ? null : BigInt(e.amount),
      reference: e.reference,
      subjectId: e.subject_id,
      details: JSON.parse(e.details) as Record<string, unknown>,
      createdAt: e.created_at,
      ageSeconds: Math.max(0, Math.floor((until - Date.parse(e.created_at)) / 1000)),
      resolvedAt: e.resolved_at,
      resolution: e.resolution ? (JSON.parse(e.resolution) as Resolution) : null,
    };
  }

  async function exceptionRow(trx: Executor, id: string): Promise<BankExceptionsTable> {
    const row = await trx.selectFrom('bank_exceptions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw notFound('BANK_EXCEPTION_NOT_FOUND', `no bank exception ${id}`);
    return row;
  }

  /** OPEN → RESOLVED, guarded: of two operators resolving at once, one wins and the other is told. */
  async function markResolved(trx: Executor, e: BankExceptionsTable, resolution: Resolution): Promise<void> {
    const changed = await trx
      .updateTable('bank_exceptions')
      .set({ status: 'RESOLVED', resolved_at: resolution.at, resolution: JSON.stringify(resolution) })
      .where('id', '=', e.id)
      .where('status', '=', 'OPEN')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict('BANK_EXCEPTION_RESOLVED', `bank exception ${e.id} was resolved meanwhile`);
  }

  /** The statement entry an unmatched credit or debit stands for (settlement.ts keeps it in suspense under the exception's id). */
  async function suspenseEntry(trx: Executor, e: BankExceptionsTable) {
    const entry = await trx
      .selectFrom('bank_statement_entries')
      .selectAll()
      .where('matched_kind', '=', 'SUSPENSE')
      .where('matched_id', '=', e.id)
      .executeTakeFirst();
    if (!entry) throw conflict('BANK_EXCEPTION_NOT_APPLICABLE', `bank exception ${e.id} has no statement entry in suspense: resolve it with a note`);
    return entry;
  }

  async function moveEntry(trx: Executor, entryId: string, set: { matched_kind: string; matched_id: string; platform_id?: string; environment?: string }) {
    const changed = await trx
      .updateTable('bank_statement_entries')
      .set(set)
      .where('id', '=', entryId)
      .where('matched_kind', '=', 'SUSPENSE')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw conflict('BANK_EXCEPTION_RESOLVED', `statement entry ${entryId} left suspense meanwhile`);
  }

  function checkNote(note: string | undefined, required: boolean): string | undefined {
    const text = note?.trim();
    if (required && !text) throw invalid('a note saying why is required');
    if (text && text.length > MAX_NOTE) throw invalid(`a note is at most ${MAX_NOTE} characters`);
    return text || undefined;
  }

  return {
    banks: deps.banks,

    /** Per bank (configured, or named by rows of one removed since): what waits, what was sent, what is open. */
    async status(): Promise<BankStatus[]> {
      const ex = db.executor();
      const byBank = new Map<string, BankStatus>();
      const of = (bankId: string) => {
        let s = byBank.get(bankId);
        if (!s) {
          const profile = deps.banks.find((b) => b.id === bankId);
          s = {
            bankId,
            name: profile?.name ?? bankId,
            configured: !!profile,
            queuedPayouts: 0,
            queuedAmounts: {},
            filesByStatus: {},
            openExceptions: 0,
            lastReportAt: null,
          };
          byBank.set(bankId, s);
        }
        return s;
      };
      for (const b of deps.banks) of(b.id);
      const queued = await ex
        .selectFrom('bank_payouts')
        .select((eb) => ['bank_id', 'currency', eb.fn.countAll<number | bigint>().as('n'), eb.fn.sum<string | number | bigint>('amount').as('total')])
        .where('status', '=', 'QUEUED')
        .groupBy(['bank_id', 'currency'])
        .execute();
      for (const q of queued) {
        const s = of(q.bank_id);
        s.queuedPayouts += toNumber(q.n);
        s.queuedAmounts[q.currency] = (s.queuedAmounts[q.currency] ?? 0n) + BigInt(q.total);
      }
      const files = await ex
        .selectFrom('bank_files')
        .select((eb) => ['bank_id', 'status', eb.fn.countAll<number | bigint>().as('n')])
        .groupBy(['bank_id', 'status'])
        .execute();
      for (const f of files) of(f.bank_id).filesByStatus[f.status as BankFileStatus] = toNumber(f.n);
      const open = await ex
        .selectFrom('bank_exceptions')
        .select((eb) => ['bank_id', eb.fn.countAll<number | bigint>().as('n')])
        .where('status', '=', 'OPEN')
        .groupBy('bank_id')
        .execute();
      for (const o of open) of(o.bank_id).openExceptions = toNumber(o.n);
      const reports = await ex
        .selectFrom('bank_inbound_files')
        .select((eb) => ['bank_id', eb.fn.max('received_at').as('last')])
        .groupBy('bank_id')
        .execute();
      for (const r of reports) of(r.bank_id).lastReportAt = (r.last as string | null) ?? null;
      return [...byBank.values()];
    },

    /** Files, newest first. */
    async listFiles(filter: { bankId?: string; status?: string; limit?: number } = {}): Promise<FileSummary[]> {
      if (filter.status !== undefined && !FILE_STATUSES.includes(filter.status as BankFileStatus))
        throw invalid(`status must be one of ${FILE_STATUSES.join(', ')}`);
      let q = db
        .executor()
        .selectFrom('bank_files')
        .select([
          'id',
          'bank_id',
          'format',
          'name',
          'sha256',
          'window_at',
          'effective_date',
          'currency',
          'entry_count',
          'total_amount',
          'status',
          'reason',
          'built_at',
          'uploaded_at',
          'acknowledged_at',
        ]);
      if (filter.bankId !== undefined) q = q.where('bank_id', '=', filter.bankId);
      if (filter.status !== undefined) q = q.where('status', '=', filter.status as BankFileStatus);
      const rows = await q.orderBy('id', 'desc').limit(limitOf(filter.limit)).execute();
      return rows.map(fileView);
    },

    /** A file's bytes exactly as archived before upload (what the bank received). */
    async fileContent(fileId: string): Promise<{ file: FileSummary; content: Buffer }> {
      const row = await db.executor().selectFrom('bank_files').selectAll().where('id', '=', fileId).executeTakeFirst();
      if (!row) throw notFound('BANK_FILE_NOT_FOUND', `no bank file ${fileId}`);
      return { file: fileView(row), content: Buffer.from(row.content) };
    },

    /** The payouts (and pulls) a file carries, in the file's order. */
    async filePayouts(fileId: string): Promise<PayoutSummary[]> {
      const file = await db.executor().selectFrom('bank_files').select('id').where('id', '=', fileId).executeTakeFirst();
      if (!file) throw notFound('BANK_FILE_NOT_FOUND', `no bank file ${fileId}`);
      const rows = await db.executor().selectFrom('bank_payouts').selectAll().where('file_id', '=', fileId).orderBy('transaction_id').execute();
      return rows.map(payoutView);
    },

    /**
     * A payout (or pull) not yet in a file, cancelled before its cut-off: the payment FAILS and
     * the payer is refunded (its reservation voided), in one transaction with the payout's status.
     */
    async cancelPayout(transactionId: string): Promise<PayoutSummary> {
      return db.tx(async (trx) => {
        const payout = await trx.selectFrom('bank_payouts').selectAll().where('transaction_id', '=', transactionId).executeTakeFirst();
        if (!payout) throw notFound('BANK_PAYOUT_NOT_FOUND', `no bank payout for ${transactionId}`);
        if (payout.status !== 'QUEUED')
          throw conflict(
            'BANK_PAYOUT_NOT_CANCELLABLE',
            `payout ${transactionId} is ${payout.status}${payout.file_id ? ` in file ${payout.file_id}` : ''}: only a QUEUED payout (not yet in a file) can be cancelled`,
          );
        const bank = deps.banks.find((b) => b.id === payout.bank_id);
        // A payout whose bank left the configuration has no cut-off: nothing would ever send it.
        if (bank) {
          const cutoff = nextWindow(bank.schedule, payout.format as PayoutFormat, new Date(payout.queued_at)).cutoffAt;
          if (now().getTime() >= cutoff.getTime() - CANCEL_MARGIN_MS)
            throw conflict(
              'BANK_PAYOUT_NOT_CANCELLABLE',
              `payout ${transactionId} is due in the file of the ${cutoff.toISOString()} cut-off at ${bank.id}; a payout can be cancelled until ${CANCEL_MARGIN_MS / 1000} s before its cut-off`,
            );
        }
        const at = now().toISOString();
        const changed = await trx
          .updateTable('bank_payouts')
          .set({ status: 'CANCELLED', updated_at: at })
          .where('transaction_id', '=', transactionId)
          .where('status', '=', 'QUEUED')
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) !== 1) throw conflict('BANK_PAYOUT_NOT_CANCELLABLE', `payout ${transactionId} went into a file meanwhile`);
        const tx = await transactionRepository.find(trx, scopeOf(payout), transactionId);
        if (!tx || tx.status !== 'PROCESSING')
          throw conflict('BANK_PAYOUT_NOT_CANCELLABLE', `transaction ${transactionId} is ${tx?.status ?? 'missing'}, not PROCESSING`);
        // A pull failing is the payment failing to fund itself, as settlement.ts names a refused pull.
        const reason = payout.direction === 'CREDIT' ? 'OFFRAMP_FAILED' : 'QUOTE_EXECUTION_FAILED';
        const failed = await lifecycle.fail(tx, reason, 'COMPLETED', 'operator cancelled the payout before its bank cut-off');
        if (!failed) throw conflict('BANK_PAYOUT_NOT_CANCELLABLE', `transaction ${transactionId} changed meanwhile`);
        return payoutView({ ...payout, status: 'CANCELLED', updated_at: at });
      });
    },

    /** Exceptions, oldest open first (the queue), or newest first when resolved ones are included. */
    async listExceptions(filter: { state?: 'OPEN' | 'RESOLVED' | 'ALL'; kind?: string; bankId?: string; limit?: number } = {}): Promise<ExceptionSummary[]> {
      const state = filter.state ?? 'OPEN';
      if (filter.kind !== undefined && !(EXCEPTION_KINDS as readonly string[]).includes(filter.kind))
        throw invalid(`kind must be one of ${EXCEPTION_KINDS.join(', ')}`);
      let q = db.executor().selectFrom('bank_exceptions').selectAll();
      if (state !== 'ALL') q = q.where('status', '=', state);
      if (filter.kind !== undefined) q = q.where('kind', '=', filter.kind);
      if (filter.bankId !== undefined) q = q.where('bank_id', '=', filter.bankId);
      const rows = await q
        .orderBy('id', state === 'OPEN' ? 'asc' : 'desc')
        .limit(limitOf(filter.limit))
        .execute();
      return rows.map(exceptionView);
    },

    async exception(id: string): Promise<ExceptionSummary> {
      return exceptionView(await exceptionRow(db.executor(), id));
    },

    /**
     * Resolves an open exception, in one transaction with what the resolution does:
     * - NOTE: closed with the operator's reason (not an unmatched credit: that money belongs to
     *   someone and is applied or sent back);
     * - APPLY_TO (an unmatched credit): a deposit to the internal account, exactly as a credit
     *   bearing its reference makes one (BANK_CASH legs, then the INCOMING transaction); the entry
     *   becomes DEPOSIT;
     * - SEND_BACK (an unmatched credit): the entry becomes RETURNED_TO_PAYER; the operator then
     *   pays it back by their own means. (An unmatched debit): that payment back, seen on a
     *   statement, paired with the credit it returns (the oldest credit sent back of the same bank,
     *   currency and amount not yet paired); the debit becomes RETURNED_TO_PAYER too.
     */
    async resolveException(id: string, action: ResolveAction, by: Actor): Promise<ExceptionSummary> {
      return db.tx(async (trx) => {
        const e = await exceptionRow(trx, id);
        if (e.status !== 'OPEN') throw conflict('BANK_EXCEPTION_RESOLVED', `bank exception ${id} is already resolved`);
        const at = now().toISOString();
        const note = checkNote(action.note, action.action === 'NOTE');
        let resolution: Resolution;
        switch (action.action) {
          case 'NOTE': {
            if (e.kind === 'UNMATCHED_CREDIT')
              throw invalid(`bank exception ${id} is money received from someone: apply it to an internal account (apply-to) or send it back (send-back)`);
            resolution = { action: 'NOTE', note: note!, by, at };
            break;
          }
          case 'APPLY_TO': {
            if (e.kind !== 'UNMATCHED_CREDIT') throw invalid(`only an UNMATCHED_CREDIT can be applied to an account; ${id} is ${e.kind}`);
            const account = await trx
              .selectFrom('internal_accounts')
              .select(['id', 'platform_id', 'environment', 'customer_id', 'currency'])
              .where('id', '=', action.accountId)
              .executeTakeFirst();
            if (!account) throw notFound('INTERNAL_ACCOUNT_NOT_FOUND', `no internal account ${action.accountId}`);
            // Money at a partner bank is PRODUCTION money: a sandbox balance must never receive it.
            if (account.environment !== 'PRODUCTION')
              throw invalid(`internal account ${account.id} is a ${account.environment} account; bank money goes to PRODUCTION accounts`);
            if (account.currency !== e.currency) throw invalid(`internal account ${account.id} holds ${account.currency}; the credit is ${e.currency}`);
            const entry = await suspenseEntry(trx, e);
            const scope = scopeOf(account);
            await moveEntry(trx, entry.id, { matched_kind: 'DEPOSIT', matched_id: account.id, platform_id: scope.platformId, environment: scope.environment });
            const amount = BigInt(entry.amount);
            // The bank side first, as settlement.ts posts a credit matched by reference, then the deposit.
            const transfers = await bankLegs(ledger, scope, { currency: entry.currency, amount, direction: 'IN', counterpart: 'FUNDING' });
            await ledger.transfer(scope, { businessId: account.id, description: `bank ${entry.bank_id}: ${entry.bank_reference}`, transfers });
            await moneyIn.deposit(trx, account, amount, `unmatched credit ${entry.bank_reference} applied by ${by.name} (${e.id})`);
            resolution = { action: 'APPLY_TO', accountId: account.id, ...(note && { note }), by, at };
            break;
          }
          case 'SEND_BACK': {
            if (e.kind === 'UNMATCHED_CREDIT') {
              const entry = await suspenseEntry(trx, e);
              await moveEntry(trx, entry.id, { matched_kind: 'RETURNED_TO_PAYER', matched_id: e.id });
              resolution = { action: 'SEND_BACK', ...(note && { note }), by, at };
            } else if (e.kind === 'UNMATCHED_DEBIT') {
              const debit = await suspenseEntry(trx, e);
              const pairedIds = await trx
                .selectFrom('bank_statement_entries')
                .select('matched_id')
                .where('bank_id', '=', debit.bank_id)
                .where('direction', '=', 'DEBIT')
                .where('matched_kind', '=', 'RETURNED_TO_PAYER')
                .execute();
              const paired = new Set(pairedIds.map((r) => r.matched_id));
              const credits = await trx
                .selectFrom('bank_statement_entries')
                .selectAll()
                .where('bank_id', '=', debit.bank_id)
                .where('currency', '=', debit.currency)
                .where('direction', '=', 'CREDIT')
                .where('amount', '=', BigInt(debit.amount))
                .where('matched_kind', '=', 'RETURNED_TO_PAYER')
                .orderBy('id')
                .execute();
              const credit = credits.find((c) => !paired.has(c.id));
              if (!credit)
                throw conflict(
                  'BANK_EXCEPTION_NOT_APPLICABLE',
                  `no credit sent back of ${debit.amount} ${debit.currency} at ${debit.bank_id} waits for its debit; resolve ${id} with a note`,
                );
              await moveEntry(trx, debit.id, { matched_kind: 'RETURNED_TO_PAYER', matched_id: credit.id });
              resolution = { action: 'SEND_BACK', pairedEntryId: credit.id, ...(note && { note }), by, at };
            } else throw invalid(`only an UNMATCHED_CREDIT (or the UNMATCHED_DEBIT that pays one back) can be sent back; ${id} is ${e.kind}`);
            break;
          }
        }
        await markResolved(trx, e, resolution);
        return exceptionView({ ...e, status: 'RESOLVED', resolved_at: at, resolution: JSON.stringify(resolution) });
      });
    },
  };
}

export type BankOperations = ReturnType<typeof createBankOperations>;

import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import { inScope, type Scope } from '../common/scope.js';
import type { Database, Executor } from '../db/database.js';
import type { LedgerTransfersTable } from '../db/schema.js';
import {
  addEffect,
  MAX_TRANSFERS,
  toTransfer,
  type Delta,
  type Journal,
  type JournalInput,
  type ResolveInput,
  type Transfer,
  type TransferInput,
} from './types.js';
import { isUniqueViolation } from '../db/values.js';
import { balanceOf, MAX_BALANCE, systemAccountId, type AccountBalance, type LedgerAccountRow, type SystemCode } from './accounts.js';
import {
  ACCOUNT_WITH_DELTAS,
  APPLY_DELTA,
  DELTA_COLUMNS,
  INSERT_JOURNAL,
  insertDeltas,
  insertTransfers,
  SELECT_ACCOUNT,
  TRANSFER_COLUMNS,
} from './statements.js';
import { uuidv7 } from '../common/uuid7.js';
import { ledgerErrors } from './errors.js';

/**
 * The double-entry ledger (ARCHITECTURE rules 1 and 3): the only code that changes a balance.
 *
 * A transfer moves one amount from a debit account to a credit account of the same currency. A
 * journal is a group of transfers committed together (one database transaction: all or none).
 * Two phases: a PENDING transfer reserves the amount (debits_pending / credits_pending); later one
 * POST_PENDING or VOID_PENDING transfer resolves it, once. Transfers are never changed or deleted.
 *
 * Each account's running totals change in the same UPDATE that checks them, so concurrent writers
 * (several PostgreSQL connections, or nodes) can never take a non-negative account below zero or
 * beyond MAX_BALANCE (system accounts are not capped): the WHERE clause is evaluated on the locked, current row.
 */
export { TRANSFER_CODES, type Journal, type JournalInput, type ResolveInput, type Transfer, type TransferCode, type TransferInput } from './types.js';

export function createLedger(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  /** System account ids by scope, code and currency: they never change once created, so each is read once per process. */
  const systemIds = new Map<string, string>();

  /** Ids of system accounts this process has seen committed, with the scope and currency each belongs to. */
  const systemAccounts = new Map<string, { platformId: string; environment: string; currency: string }>();

  /**
   * Applies the deltas: the movements of system accounts go aside as delta rows for the fold
   * (docs/ledger.md), so no payment waits on another's system-account row; then one guarded
   * UPDATE per floored account, in id order, so two journals touching the same accounts lock them
   * in the same order (no deadlock on PostgreSQL). The delta rows are appended first: on
   * PostgreSQL they travel with the first UPDATE (Statement.touches).
   */
  async function apply(scope: Scope, deltas: Map<string, Delta>, currencyOf: Map<string, string>, now: string) {
    const amounts = (d: Delta) => [d.debitsPending, d.debitsPosted, d.creditsPending, d.creditsPosted].map(String);
    // Sorted into the two kinds at once, before any await: another transaction's commit may make
    // a system account known meanwhile, and each account must be moved exactly one way.
    const floored: string[] = [];
    const aside: unknown[] = [];
    for (const id of [...deltas.keys()].sort()) {
      const system = systemAccounts.get(id);
      if (!system) {
        floored.push(id);
        continue;
      }
      // What APPLY_DELTA's WHERE clause checks for the others (programming errors).
      if (system.platformId !== scope.platformId || system.environment !== scope.environment) throw new Error(`no ledger account ${id} in this scope`);
      if (system.currency !== currencyOf.get(id)) throw new Error(`transfer in ${currencyOf.get(id)} on the ${system.currency} account ${id}`);
      aside.push(uuidv7(), id, ...amounts(deltas.get(id)!));
    }
    if (aside.length > 0) await db.append(insertDeltas(aside.length / DELTA_COLUMNS.length), aside);
    for (const id of floored) {
      const d = deltas.get(id)!;
      const currency = currencyOf.get(id)!;
      const [dpend, dpost, cpend, cpost] = amounts(d);
      // Not waited for on PostgreSQL: a refusal fails the transaction when it is heard of, with the
      // error explainRefusal gives (Database.appendGuarded).
      await db.appendGuarded(
        APPLY_DELTA,
        [dpend, dpost, cpend, cpost, now, id, scope.platformId, scope.environment, currency, cpost, dpost, dpend, cpost, cpend, dpost, cpost, dpost, dpend],
        () => explainRefusal(scope, id, d, currency),
      );
    }
  }

  /** Says why an account refused its update (we are still inside the transaction). */
  async function explainRefusal(scope: Scope, id: string, d: Delta, currency: string): Promise<never> {
    const [acc] = await db.query<LedgerAccountRow>(SELECT_ACCOUNT, [id]);
    // Programming errors: services check the ids they are given before moving money.
    if (!acc || !inScope(acc, scope)) throw new Error(`no ledger account ${id} in this scope`);
    if (acc.currency !== currency)
      throw new Error(`transfer in ${currency} on the ${acc.currency} account ${id}; convert through FX_LIQUIDITY accounts instead`);
    const b = balanceOf(acc);
    const after = b.available + d.creditsPosted - d.debitsPosted - d.debitsPending;
    // On PostgreSQL this read may already see a funding that committed after the UPDATE was
    // refused, so the floor is judged by elimination: below the ceiling, a non-negative account
    // was refused for want of funds at the moment the debit was tried.
    const ceilingAfter =
      BigInt(acc.credits_posted) + d.creditsPosted + BigInt(acc.credits_pending) + d.creditsPending - BigInt(acc.debits_posted) - d.debitsPosted;
    if (Number(acc.non_negative) === 1 && (after < 0n || ceilingAfter <= MAX_BALANCE)) {
      throw ledgerErrors.INSUFFICIENT_FUNDS({
        accountId: id,
        currency: acc.currency,
        available: Number(b.available),
        requested: Number(d.debitsPosted + d.debitsPending - d.creditsPosted),
      });
    }
    throw ledgerErrors.BALANCE_LIMIT_EXCEEDED({ accountId: id, currency: acc.currency, limit: Number(MAX_BALANCE) });
  }

  /**
   * Checks the transfers' shape and returns each one's currency: given by the caller (checked by
   * the accounts' update), or read from the accounts (scope and currency checked here).
   */
  async function currencies(trx: Executor, scope: Scope, transfers: TransferInput[]): Promise<string[]> {
    if (transfers.length === 0 || transfers.length > MAX_TRANSFERS) throw new Error(`a journal holds 1 to ${MAX_TRANSFERS} transfers`);
    for (const t of transfers) {
      // These are programming errors: services check the ids they are given before moving money.
      if (typeof t.amount !== 'bigint' || t.amount <= 0n || t.amount > MAX_BALANCE)
        throw new Error(`transfer amount must be a bigint from 1 to ${MAX_BALANCE}`);
      if (t.debitAccountId === t.creditAccountId) throw new Error('a transfer needs two different accounts');
    }
    if (transfers.every((t) => t.currency !== undefined)) return transfers.map((t) => t.currency!);
    const ids = [...new Set(transfers.flatMap((t) => [t.debitAccountId, t.creditAccountId]))];
    // By primary key only, scope checked on the rows (inScope says why).
    const rows = (await trx.selectFrom('ledger_accounts').select(['id', 'currency', 'platform_id', 'environment']).where('id', 'in', ids).execute()).filter(
      (r) => inScope(r, scope),
    );
    const currencyOf = new Map(rows.map((r) => [r.id, r.currency]));
    return transfers.map((t) => {
      const dc = currencyOf.get(t.debitAccountId);
      const cc = currencyOf.get(t.creditAccountId);
      if (!dc || !cc) throw new Error(`no ledger account ${dc ? t.creditAccountId : t.debitAccountId} in this scope`);
      if (dc !== cc) throw new Error(`transfer between ${dc} and ${cc} accounts; convert through FX_LIQUIDITY accounts instead`);
      if (t.currency !== undefined && t.currency !== dc) throw new Error(`transfer in ${t.currency} on ${dc} accounts`);
      return dc;
    });
  }

  /** Each account of the transfers with its one currency. */
  function accountCurrencies(rows: Array<Pick<LedgerTransfersTable, 'debit_account_id' | 'credit_account_id' | 'currency'>>): Map<string, string> {
    const currencyOf = new Map<string, string>();
    for (const r of rows) {
      for (const id of [r.debit_account_id, r.credit_account_id]) {
        const known = currencyOf.get(id);
        if (known !== undefined && known !== r.currency) throw new Error(`account ${id} named in both ${known} and ${r.currency} transfers`);
        currencyOf.set(id, r.currency);
      }
    }
    return currencyOf;
  }

  async function insertJournal(scope: Scope, businessId: string, description: string | undefined, now: string) {
    const id = newId('Journal');
    await db.append(INSERT_JOURNAL, [id, scope.platformId, scope.environment, businessId, description ?? null, now]);
    return id;
  }

  /** `execute` where a caller answers the insert's conflict (a second resolution of a pending transfer). */
  function insertTransferRows(rows: LedgerTransfersTable[], how: 'append' | 'execute') {
    return db[how](
      insertTransfers(rows.length),
      rows.flatMap((r) => TRANSFER_COLUMNS.map((c) => (c === 'amount' ? r.amount.toString() : r[c]))),
    );
  }

  async function record(scope: Scope, input: JournalInput, phase: 'POSTED' | 'PENDING'): Promise<Journal> {
    return db.tx(async (trx) => {
      const now = clock.now().toISOString();
      const curr = await currencies(trx, scope, input.transfers);
      const journalId = await insertJournal(scope, input.businessId, input.description, now);
      const rows: LedgerTransfersTable[] = input.transfers.map((t, i) => ({
        id: newId('LedgerTransfer'),
        platform_id: scope.platformId,
        environment: scope.environment,
        journal_id: journalId,
        phase,
        pending_id: null,
        code: t.code,
        business_id: input.businessId,
        debit_account_id: t.debitAccountId,
        credit_account_id: t.creditAccountId,
        currency: curr[i],
        amount: t.amount,
        created_at: now,
      }));
      const deltas = new Map<string, Delta>();
      for (const r of rows) addEffect(deltas, { phase, debitAccountId: r.debit_account_id, creditAccountId: r.credit_account_id, amount: r.amount });
      // The rows first, appended: on PostgreSQL they travel with the accounts' first UPDATE.
      await insertTransferRows(rows, 'append');
      await apply(scope, deltas, accountCurrencies(rows), now);
      return { id: journalId, businessId: input.businessId, transfers: rows.map(toTransfer) };
    });
  }

  async function resolve(scope: Scope, input: ResolveInput, phase: 'POST_PENDING' | 'VOID_PENDING'): Promise<Journal> {
    if (input.pendingTransferIds.length === 0 || input.pendingTransferIds.length > MAX_TRANSFERS)
      throw new Error(`resolve 1 to ${MAX_TRANSFERS} pending transfers`);
    return db.tx(async (trx) => {
      const now = clock.now().toISOString();
      // By primary key only, scope checked on the rows (inScope says why).
      const pending = (await trx.selectFrom('ledger_transfers').selectAll().where('id', 'in', input.pendingTransferIds).execute()).filter((p) =>
        inScope(p, scope),
      );
      const byId = new Map(pending.map((p) => [p.id, p]));
      for (const id of input.pendingTransferIds) {
        const p = byId.get(id);
        if (!p || p.phase !== 'PENDING') throw new Error(`${id} is not a pending transfer in this scope`);
      }
      const businessId = input.businessId ?? pending[0].business_id;
      const journalId = await insertJournal(scope, businessId, input.description, now);
      const rows: LedgerTransfersTable[] = input.pendingTransferIds.map((id) => {
        const p = byId.get(id)!;
        return {
          ...p,
          id: newId('LedgerTransfer'),
          journal_id: journalId,
          phase,
          pending_id: p.id,
          business_id: businessId,
          amount: BigInt(p.amount),
          created_at: now,
        };
      });
      // Insert first: the unique index on pending_id refuses a second resolution before any
      // balance moves, even when two nodes resolve the same transfer at once.
      try {
        await insertTransferRows(rows, 'execute');
      } catch (e) {
        if (isUniqueViolation(e)) throw ledgerErrors.PENDING_TRANSFER_RESOLVED({ pendingTransferIds: input.pendingTransferIds });
        throw e;
      }
      const deltas = new Map<string, Delta>();
      for (const r of rows) addEffect(deltas, { phase, debitAccountId: r.debit_account_id, creditAccountId: r.credit_account_id, amount: r.amount });
      await apply(scope, deltas, accountCurrencies(rows), now);
      return { id: journalId, businessId, transfers: rows.map(toTransfer) };
    });
  }

  return {
    /** Posts the transfers at once (funding, fees, completed internal moves). */
    transfer: (scope: Scope, input: JournalInput) => record(scope, input, 'POSTED'),
    /** Reserves the amounts: the debit accounts' available balance drops now; post or void later. */
    createPending: (scope: Scope, input: JournalInput) => record(scope, input, 'PENDING'),
    /** Completes pending transfers: the reserved amounts move for good. */
    post: (scope: Scope, input: ResolveInput) => resolve(scope, input, 'POST_PENDING'),
    /** Cancels pending transfers: the reserved amounts return to the debit accounts (the refund). */
    void: (scope: Scope, input: ResolveInput) => resolve(scope, input, 'VOID_PENDING'),

    /**
     * The id of a system account (created on first use), inside the open transaction if any.
     * Remembered once its row is committed: an id from a transaction that rolls back is not.
     */
    async systemAccount(scope: Scope, code: SystemCode, currency: string): Promise<string> {
      const key = `${scope.platformId}|${scope.environment}|${code}|${currency}`;
      const known = systemIds.get(key);
      if (known) return known;
      const id = await db.tx((trx) => systemAccountId(trx, scope, code, currency, clock.now().toISOString()));
      db.afterCommit(() => {
        systemIds.set(key, id);
        systemAccounts.set(id, { platformId: scope.platformId, environment: scope.environment, currency });
      });
      return id;
    },

    /** An account's balances (with a system account's movements not yet folded), or undefined when it is not in this scope. */
    async balance(scope: Scope, accountId: string): Promise<AccountBalance | undefined> {
      const [r] = await db.query<LedgerAccountRow>(ACCOUNT_WITH_DELTAS, [accountId, accountId]);
      return r && inScope(r, scope) ? balanceOf(r) : undefined;
    },

    /** Every transfer of a business object, oldest first, with the pending ones still unresolved. */
    async transfersOf(scope: Scope, businessId: string): Promise<{ transfers: Transfer[]; unresolvedPendingIds: string[] }> {
      const rows = await db
        .executor()
        .selectFrom('ledger_transfers')
        .selectAll()
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .where('business_id', '=', businessId)
        .orderBy('id')
        .execute();
      const transfers = rows.map(toTransfer);
      const pendingIds = transfers.filter((t) => t.phase === 'PENDING').map((t) => t.id);
      // A resolution may name another business object (a refund), so look them up by pending_id.
      const resolved = pendingIds.length
        ? new Set(
            (await db.executor().selectFrom('ledger_transfers').select('pending_id').where('pending_id', 'in', pendingIds).execute()).map((r) => r.pending_id),
          )
        : new Set<string | null>();
      return { transfers, unresolvedPendingIds: pendingIds.filter((id) => !resolved.has(id)) };
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;

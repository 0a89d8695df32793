import { sql } from 'kysely';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { Scope } from '../common/scope.js';
import type { Database, Executor } from '../db/database.js';
import type { LedgerTransfersTable } from '../db/schema.js';
import { addEffect, MAX_TRANSFERS, toTransfer, type Delta, type Journal, type JournalInput, type ResolveInput, type Transfer, type TransferInput } from './types.js';
import { isUniqueViolation } from '../db/values.js';
import { balanceOf, big, MAX_BALANCE, systemAccountId, type AccountBalance, type SystemCode } from './accounts.js';
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
 * any balance beyond ±MAX_BALANCE: the WHERE clause is evaluated on the locked, current row.
 */
export { TRANSFER_CODES, type Journal, type JournalInput, type ResolveInput, type Transfer, type TransferCode, type TransferInput } from './types.js';

export function createLedger(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;

  /**
   * Applies the deltas, one guarded UPDATE per account, in id order so two journals touching the
   * same accounts lock them in the same order (no deadlock on PostgreSQL).
   */
  async function apply(trx: Executor, deltas: Map<string, Delta>, now: string) {
    for (const id of [...deltas.keys()].sort()) {
      const d = deltas.get(id)!;
      const available = sql`credits_posted + ${big(d.creditsPosted)} - debits_posted - ${big(d.debitsPosted)} - debits_pending - ${big(d.debitsPending)}`;
      const ceiling = sql`credits_posted + ${big(d.creditsPosted)} + credits_pending + ${big(d.creditsPending)} - debits_posted - ${big(d.debitsPosted)}`;
      const updated = await sql<{ id: string }>`
        update ledger_accounts set
          debits_pending = debits_pending + ${big(d.debitsPending)},
          debits_posted = debits_posted + ${big(d.debitsPosted)},
          credits_pending = credits_pending + ${big(d.creditsPending)},
          credits_posted = credits_posted + ${big(d.creditsPosted)},
          updated_at = ${now}
        where id = ${id}
          and (non_negative = 0 or ${available} >= 0)
          and ${ceiling} <= ${big(MAX_BALANCE)}
          and ${available} >= ${big(-MAX_BALANCE)}
        returning id`.execute(trx);
      if (updated.rows.length === 1) continue;
      // Refused: read the account to say why (we are still inside the transaction).
      const acc = await trx.selectFrom('ledger_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const b = balanceOf(acc);
      const after = b.available + d.creditsPosted - d.debitsPosted - d.debitsPending;
      // On PostgreSQL this read may already see a funding that committed after the UPDATE was
      // refused, so the floor is judged by elimination: below the ceiling, a non-negative account
      // was refused for want of funds at the moment the debit was tried.
      const ceilingAfter = BigInt(acc.credits_posted) + d.creditsPosted + BigInt(acc.credits_pending) + d.creditsPending - BigInt(acc.debits_posted) - d.debitsPosted;
      if (Number(acc.non_negative) === 1 && (after < 0n || ceilingAfter <= MAX_BALANCE)) {
        throw ledgerErrors.INSUFFICIENT_FUNDS({ accountId: id, currency: acc.currency, available: Number(b.available), requested: Number(d.debitsPosted + d.debitsPending - d.creditsPosted) });
      }
      throw ledgerErrors.BALANCE_LIMIT_EXCEEDED({ accountId: id, currency: acc.currency, limit: Number(MAX_BALANCE) });
    }
  }

  /** Checks the transfers against their accounts (scope, currency) and returns each one's currency. */
  async function currencies(trx: Executor, scope: Scope, transfers: TransferInput[]): Promise<string[]> {
    if (transfers.length === 0 || transfers.length > MAX_TRANSFERS) throw new Error(`a journal holds 1 to ${MAX_TRANSFERS} transfers`);
    const ids = [...new Set(transfers.flatMap((t) => [t.debitAccountId, t.creditAccountId]))];
    // By primary key only, scope checked here: with the scope in the WHERE clause SQLite's
    // planner prefers the (platform_id, environment, …) index for 3+ ids and scans the scope.
    const rows = (await trx.selectFrom('ledger_accounts').select(['id', 'currency', 'platform_id', 'environment']).where('id', 'in', ids).execute())
      .filter((r) => r.platform_id === scope.platformId && r.environment === scope.environment);
    const currencyOf = new Map(rows.map((r) => [r.id, r.currency]));
    return transfers.map((t) => {
      // These are programming errors: services check the ids they are given before moving money.
      if (typeof t.amount !== 'bigint' || t.amount <= 0n || t.amount > MAX_BALANCE) throw new Error(`transfer amount must be a bigint from 1 to ${MAX_BALANCE}`);
      if (t.debitAccountId === t.creditAccountId) throw new Error('a transfer needs two different accounts');
      const dc = currencyOf.get(t.debitAccountId);
      const cc = currencyOf.get(t.creditAccountId);
      if (!dc || !cc) throw new Error(`no ledger account ${dc ? t.creditAccountId : t.debitAccountId} in this scope`);
      if (dc !== cc) throw new Error(`transfer between ${dc} and ${cc} accounts; convert through FX_LIQUIDITY accounts instead`);
      return dc;
    });
  }

  async function insertJournal(trx: Executor, scope: Scope, businessId: string, description: string | undefined, now: string) {
    const id = newId('Journal');
    await trx
      .insertInto('ledger_journals')
      .values({ id, platform_id: scope.platformId, environment: scope.environment, business_id: businessId, description: description ?? null, created_at: now })
      .execute();
    return id;
  }

  async function record(scope: Scope, input: JournalInput, phase: 'POSTED' | 'PENDING'): Promise<Journal> {
    return db.tx(async (trx) => {
      const now = clock.now().toISOString();
      const curr = await currencies(trx, scope, input.transfers);
      const journalId = await insertJournal(trx, scope, input.businessId, input.description, now);
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
      await apply(trx, deltas, now);
      await trx.insertInto('ledger_transfers').values(rows).execute();
      return { id: journalId, businessId: input.businessId, transfers: rows.map(toTransfer) };
    });
  }

  async function resolve(scope: Scope, input: ResolveInput, phase: 'POST_PENDING' | 'VOID_PENDING'): Promise<Journal> {
    if (input.pendingTransferIds.length === 0 || input.pendingTransferIds.length > MAX_TRANSFERS) throw new Error(`resolve 1 to ${MAX_TRANSFERS} pending transfers`);
    return db.tx(async (trx) => {
      const now = clock.now().toISOString();
      // By primary key only (see currencies()): otherwise SQLite scans every transfer of the scope.
      const pending = (await trx.selectFrom('ledger_transfers').selectAll().where('id', 'in', input.pendingTransferIds).execute())
        .filter((p) => p.platform_id === scope.platformId && p.environment === scope.environment);
      const byId = new Map(pending.map((p) => [p.id, p]));
      for (const id of input.pendingTransferIds) {
        const p = byId.get(id);
        if (!p || p.phase !== 'PENDING') throw new Error(`${id} is not a pending transfer in this scope`);
      }
      const businessId = input.businessId ?? pending[0].business_id;
      const journalId = await insertJournal(trx, scope, businessId, input.description, now);
      const rows: LedgerTransfersTable[] = input.pendingTransferIds.map((id) => {
        const p = byId.get(id)!;
        return { ...p, id: newId('LedgerTransfer'), journal_id: journalId, phase, pending_id: p.id, business_id: businessId, amount: BigInt(p.amount), created_at: now };
      });
      // Insert first: the unique index on pending_id refuses a second resolution before any
      // balance moves, even when two nodes resolve the same transfer at once.
      try {
        await trx.insertInto('ledger_transfers').values(rows).execute();
      } catch (e) {
        if (isUniqueViolation(e)) throw ledgerErrors.PENDING_TRANSFER_RESOLVED({ pendingTransferIds: input.pendingTransferIds });
        throw e;
      }
      const deltas = new Map<string, Delta>();
      for (const r of rows) addEffect(deltas, { phase, debitAccountId: r.debit_account_id, creditAccountId: r.credit_account_id, amount: r.amount });
      await apply(trx, deltas, now);
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

    /** The id of a system account (created on first use), inside the open transaction if any. */
    systemAccount: (scope: Scope, code: SystemCode, currency: string) =>
      db.tx((trx) => systemAccountId(trx, scope, code, currency, clock.now().toISOString())),

    /** An account's balances, or undefined when it is not in this scope. */
    async balance(scope: Scope, accountId: string): Promise<AccountBalance | undefined> {
      const r = await db
        .executor()
        .selectFrom('ledger_accounts')
        .selectAll()
        .where('id', '=', accountId)
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .executeTakeFirst();
      return r ? balanceOf(r) : undefined;
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
        ? new Set((await db.executor().selectFrom('ledger_transfers').select('pending_id').where('pending_id', 'in', pendingIds).execute()).map((r) => r.pending_id))
        : new Set<string | null>();
      return { transfers, unresolvedPendingIds: pendingIds.filter((id) => !resolved.has(id)) };
    },
  };
}

export type Ledger = ReturnType<typeof createLedger>;

import { sql } from 'kysely';
import { newId } from '../common/ids.js';
import type { Scope } from '../common/scope.js';
import type { Database, Executor } from '../db/database.js';
import type { LedgerAccountsTable } from '../db/schema.js';
import { columnsOf, rowInsert } from '../db/statements.js';
import { toDbBool } from '../db/values.js';

/** The largest balance (and amount) the ledger accepts: JSON numbers are exact up to here. */
export const MAX_BALANCE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * System accounts, one per code, currency and scope. They stand for the world outside the
 * customers' and platform's balances, so they may go negative, and have no ±MAX_BALANCE cap
 * (their balances never leave as JSON numbers; a cap would stop payments once lifetime totals pass 2^53):
 * - FUNDING: money that arrived from outside (bank pay-ins, deposits) is debited here;
 * - SANDBOX_FUNDING: the sandbox's money printer (POST /sandbox/internal-accounts/{id}/fund);
 * - PAYOUTS_IN_FLIGHT: money sent to external accounts is credited here;
 * - FX_LIQUIDITY: the counterparty side of each leg of a currency conversion;
 * - FEES: fees earned by the service;
 * - BANK_CASH: the platform's money at the partner bank that carries the currency (PRODUCTION bank
 *   rails): debited when the bank reports money in, credited when it reports money out, so its
 *   balance (debits − credits) is what the bank's statements must show (src/rails/bank/reconcile.ts).
 */
export const SYSTEM_CODES = ['FUNDING', 'SANDBOX_FUNDING', 'PAYOUTS_IN_FLIGHT', 'FX_LIQUIDITY', 'FEES', 'BANK_CASH'] as const;
export type SystemCode = (typeof SYSTEM_CODES)[number];

export type LedgerAccountRow = LedgerAccountsTable;

function row(scope: Scope, id: string, kind: 'INTERNAL' | 'SYSTEM', systemCode: SystemCode | null, currency: string, now: string): LedgerAccountRow {
  return {
    id,
    platform_id: scope.platformId,
    environment: scope.environment,
    kind,
    system_code: systemCode,
    currency,
    non_negative: toDbBool(kind === 'INTERNAL'),
    debits_pending: 0n,
    debits_posted: 0n,
    credits_pending: 0n,
    credits_posted: 0n,
    created_at: now,
    updated_at: now,
  };
}

const insertAccount = rowInsert<LedgerAccountRow, 'append'>(
  'ledger_accounts',
  columnsOf<LedgerAccountRow>({
    id: true,
    platform_id: true,
    environment: true,
    kind: true,
    system_code: true,
    currency: true,
    non_negative: true,
    debits_pending: true,
    debits_posted: true,
    credits_pending: true,
    credits_posted: true,
    created_at: true,
    updated_at: true,
  }),
  'append',
);

/** Opens the ledger account of an internal (customer or platform) account, under the caller's id, in the open transaction. */
export async function openInternalLedgerAccount(db: Pick<Database, 'append'>, scope: Scope, id: string, currency: string, now: string): Promise<void> {
  await insertAccount(db, row(scope, id, 'INTERNAL', null, currency, now));
}

/**
 * The id of a system account, created on first use. Concurrent first uses insert once (ON
 * CONFLICT DO NOTHING waits for the other insert on PostgreSQL), then everyone reads the row.
 */
export async function systemAccountId(ex: Executor, scope: Scope, code: SystemCode, currency: string, now: string): Promise<string> {
  const find = () =>
    ex
      .selectFrom('ledger_accounts')
      .select('id')
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('system_code', '=', code)
      .where('currency', '=', currency)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await ex
    .insertInto('ledger_accounts')
    .values(row(scope, newId('LedgerAccount'), 'SYSTEM', code, currency, now))
    .onConflict((oc) => oc.columns(['platform_id', 'environment', 'system_code', 'currency']).doNothing())
    .execute();
  const created = await find();
  if (!created) throw new Error(`system account ${code} ${currency} could not be created`);
  return created.id;
}

/** Balances of one account, from its running totals. */
export interface AccountBalance {
  id: string;
  currency: string;
  /** credits_posted − debits_posted − debits_pending: what can be spent now (the API's `balance`) */
  available: bigint;
  /** credits_posted − debits_posted */
  posted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

export function balanceOf(
  r: Pick<LedgerAccountRow, 'id' | 'currency' | 'debits_pending' | 'debits_posted' | 'credits_pending' | 'credits_posted'>,
): AccountBalance {
  const dp = BigInt(r.debits_posted);
  const cp = BigInt(r.credits_posted);
  const dpend = BigInt(r.debits_pending);
  return { id: r.id, currency: r.currency, available: cp - dp - dpend, posted: cp - dp, debitsPending: dpend, creditsPending: BigInt(r.credits_pending) };
}

/**
 * Locks an account's row until the transaction ends (PostgreSQL; SQLite transactions are already
 * serial), so a decision taken on its balance cannot be overtaken by a concurrent transfer.
 */
export async function lockAccount(db: Database, id: string): Promise<AccountBalance | undefined> {
  const r = await db.lockRow<LedgerAccountRow>('ledger_accounts', { id });
  return r ? balanceOf(r) : undefined;
}

/** `cast(value as bigint)`: keeps PostgreSQL from guessing a parameter's type. */
export const big = (v: bigint) => sql`cast(${v.toString()} as bigint)`;

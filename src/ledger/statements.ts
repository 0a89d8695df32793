/** The ledger's compiled statements (db/statements.ts): the SQL of every money movement. */
import { multiRowInsert, statement } from '../db/statements.js';
import { MAX_BALANCE } from './accounts.js';

const MAX = MAX_BALANCE.toString();
// Amounts travel as decimal text cast to bigint: exact on both databases, no driver guessing.
const AVAILABLE = 'credits_posted + cast(? as bigint) - debits_posted - cast(? as bigint) - debits_pending - cast(? as bigint)';
const CEILING = 'credits_posted + cast(? as bigint) + credits_pending + cast(? as bigint) - debits_posted - cast(? as bigint)';

/**
 * One account's running totals, changed only if the account is in the scope and currency the
 * transfers say, and a floored (customer or platform) account stays within 0..MAX_BALANCE; the
 * WHERE clause is judged on the locked, current row. System accounts (non_negative = 0) have no
 * ±MAX_BALANCE guard: their balances never leave as JSON numbers, and a cap would stop every
 * payment in a currency once its lifetime totals passed 2^53. Parameters: applyParams().
 */
export const APPLY_DELTA = statement(`update ledger_accounts set
    debits_pending = debits_pending + cast(? as bigint),
    debits_posted = debits_posted + cast(? as bigint),
    credits_pending = credits_pending + cast(? as bigint),
    credits_posted = credits_posted + cast(? as bigint),
    updated_at = ?
  where id = ? and platform_id = ? and environment = ? and currency = ?
    and (non_negative = 0 or (${AVAILABLE} >= 0 and ${CEILING} <= ${MAX} and ${AVAILABLE} >= -${MAX}))`);

export const INSERT_JOURNAL = statement(
  'insert into ledger_journals (id, platform_id, environment, business_id, description, created_at) values (?, ?, ?, ?, ?, ?)',
);

export const TRANSFER_COLUMNS = [
  'id',
  'platform_id',
  'environment',
  'journal_id',
  'phase',
  'pending_id',
  'code',
  'business_id',
  'debit_account_id',
  'credit_account_id',
  'currency',
  'amount',
  'created_at',
] as const;
export const insertTransfers = multiRowInsert('ledger_transfers', TRANSFER_COLUMNS);

export const SELECT_ACCOUNT = statement('select * from ledger_accounts where id = ?');

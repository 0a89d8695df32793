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
 * payment in a currency once its lifetime totals passed 2^53. The scope and currency are compared
 * with IS NOT DISTINCT FROM (the columns are never null), which no index serves: the row is found
 * by its primary key whatever the planner's statistics say; with `=`, PostgreSQL without
 * statistics walked the (platform_id, environment, system_code, currency) index with the id as a
 * filter, through every account of the platform.
 */
export const APPLY_DELTA = statement(
  `update ledger_accounts set
    debits_pending = debits_pending + cast(? as bigint),
    debits_posted = debits_posted + cast(? as bigint),
    credits_pending = credits_pending + cast(? as bigint),
    credits_posted = credits_posted + cast(? as bigint),
    updated_at = ?
  where id = ? and platform_id is not distinct from ? and environment is not distinct from ? and currency is not distinct from ?
    and (non_negative = 0 or (${AVAILABLE} >= 0 and ${CEILING} <= ${MAX} and ${AVAILABLE} >= -${MAX}))`,
  // The journal's rows, queued before it (Database.append), travel with it: one round trip.
  { touches: ['ledger_accounts'] },
);

/**
 * A system account's movement, kept aside until the fold adds it to the account's totals
 * (src/ledger/fold.ts, docs/ledger.md): an insert waits on no other payment, where an update of
 * the account row would wait on every payment of the platform in flight.
 */
export const DELTA_COLUMNS = ['id', 'account_id', 'debits_pending', 'debits_posted', 'credits_pending', 'credits_posted'] as const;
export const insertDeltas = multiRowInsert('ledger_deltas', DELTA_COLUMNS);

/** Folded deltas, added to one system account's totals (no guard: system accounts have no floor or cap). */
export const ADD_TO_TOTALS = statement(`update ledger_accounts set
    debits_pending = debits_pending + cast(? as bigint),
    debits_posted = debits_posted + cast(? as bigint),
    credits_pending = credits_pending + cast(? as bigint),
    credits_posted = credits_posted + cast(? as bigint),
    updated_at = ?
  where id = ?`);

/**
 * Takes the oldest deltas out, for the fold to add up in the same transaction; on PostgreSQL the
 * rows another node's fold is taking are left to it.
 */
export const TAKE_DELTAS = statement({
  sqlite: `delete from ledger_deltas where id in (select id from ledger_deltas order by id limit ?)
  returning account_id, debits_pending, debits_posted, credits_pending, credits_posted`,
  postgres: `delete from ledger_deltas where id in (select id from ledger_deltas order by id limit ? for update skip locked)
  returning account_id, debits_pending, debits_posted, credits_pending, credits_posted`,
});

/**
 * Accounts with their totals as of now: each row plus its deltas not yet folded, read in one
 * statement so a fold committing meanwhile is seen entirely or not at all. `one`: the account
 * whose id is the two parameters; `all`: every account (ledger verify).
 */
export function accountsWithDeltasSql(which: 'one' | 'all'): string {
  return `select a.id, a.platform_id, a.environment, a.currency, a.non_negative,
    a.debits_pending + coalesce(d.debits_pending, 0) as debits_pending, a.debits_posted + coalesce(d.debits_posted, 0) as debits_posted,
    a.credits_pending + coalesce(d.credits_pending, 0) as credits_pending, a.credits_posted + coalesce(d.credits_posted, 0) as credits_posted
  from ledger_accounts a left join (
    select account_id, sum(debits_pending) as debits_pending, sum(debits_posted) as debits_posted,
      sum(credits_pending) as credits_pending, sum(credits_posted) as credits_posted
    from ledger_deltas${which === 'one' ? ' where account_id = ?' : ''} group by account_id) d on d.account_id = a.id${which === 'one' ? ' where a.id = ?' : ''}`;
}
export const ACCOUNT_WITH_DELTAS = statement(accountsWithDeltasSql('one'));

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

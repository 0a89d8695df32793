import { sql } from 'kysely';
import type { Scope } from '../common/scope.js';
import type { Database } from './database.js';
import { statement } from './statements.js';
import { toNumber } from './values.js';

/**
 * Maintained row counts for lists (docs/decisions.md, "Scale"): `totalCount` of a list without
 * filters, or with one counted low-cardinality filter (a customer type), reads a handful of counter rows
 * instead of counting every matching row, so it costs the same at 10,000 rows and at 1,000,000.
 *
 * Each count is spread over SLOTS rows picked at random per change, so concurrent writers of one
 * platform (several nodes on PostgreSQL) rarely wait on the same row; the count is their sum.
 * Changes run in the caller's transaction, so the count moves exactly when the rows it counts do.
 */
const SLOTS = 8;

/** A list joins by a migration that counts its existing rows and bumps in every insert/hide/change. */
export type CountedList = 'customers' | 'transactions';

/**
 * The filters counted on their own, per list: every write of the column bumps its counts.
 * Transaction statuses are not counted: a status changes inside a payment's transaction while it
 * holds the paying account's ledger row, and counter rows taken there made concurrent payments
 * on PostgreSQL wait on (and deadlock over) each other's counters.
 */
const COUNTED_FILTERS: Record<CountedList, readonly string[]> = {
  customers: ['customerType'],
  transactions: [],
};

/** A whole list (`customers`) or the rows of one counted filter value (`customers|customerType=BUSINESS`). */
export type CountKey = CountedList | `${CountedList}|${string}=${string}`;

export function countKey(list: CountedList, filter?: string, value?: string): CountKey {
  return filter === undefined ? list : `${list}|${filter}=${value}`;
}

/**
 * The maintained count that answers a list request, if one does: no filter at all, or exactly one
 * counted filter. `neutral` names filter values that mean "no filter" (`includeDeleted: false`:
 * the live rows, which is what is counted). Otherwise undefined: count the matches.
 */
export function countKeyFor(list: CountedList, filters: object, neutral: Record<string, unknown> = {}): CountKey | undefined {
  const given = Object.entries(filters).filter(([k, v]) => v !== undefined && !(k in neutral && neutral[k] === v));
  if (given.length === 0) return list;
  const [[name, value]] = given;
  return given.length === 1 && COUNTED_FILTERS[list].includes(name) ? countKey(list, name, String(value)) : undefined;
}

const BUMP = statement(
  'insert into list_counts (platform_id, environment, list, slot, n) values (?, ?, ?, ?, ?) on conflict (platform_id, environment, list, slot) do update set n = list_counts.n + excluded.n',
);

const READ = statement('select sum(n) as n from list_counts where platform_id = ? and environment = ? and list = ?');

/** Adds delta to a count, inside the transaction that inserts, hides or changes the rows. */
export async function bumpCount(db: Pick<Database, 'execute'>, scope: Scope, key: CountKey, delta: number): Promise<void> {
  if (delta === 0) return;
  await db.execute(BUMP, [scope.platformId, scope.environment, key, Math.floor(Math.random() * SLOTS), BigInt(delta)]);
}

/** A maintained count. */
export async function readCount(db: Pick<Database, 'query'>, scope: Scope, key: CountKey): Promise<number> {
  const [row] = await db.query<{ n: bigint | number | string | null }>(READ, [scope.platformId, scope.environment, key]);
  return row?.n === null || row?.n === undefined ? 0 : toNumber(BigInt(row.n));
}

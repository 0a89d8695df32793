import { sql } from 'kysely';
import type { Scope } from '../common/scope.js';
import type { Database } from './database.js';
import { multiRowInsert, statement } from './statements.js';
import { toNumber } from './values.js';

/**
 * Maintained row counts for lists (docs/decisions.md, "Scale"): `totalCount` of a list without
 * filters, or with one counted low-cardinality filter (a customer type), reads a handful of counter rows
 * instead of counting every matching row, so it costs the same at 10,000 rows and at 1,000,000.
 *
 * A change inserts a row of its own (a random slot), so no two writers of one platform ever wait
 * on the same row; the count is the sum of the key's rows. Changes run in the caller's
 * transaction, so the count moves exactly when the rows it counts do. foldCounts() later adds
 * the change rows into slot 0 in batches, so a count stays a handful of rows (docs/ledger.md).
 */
const SLOTS = 2 ** 31 - 1; // PostgreSQL integer; slot 0 holds the folded total

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

const bump = multiRowInsert(
  'list_counts',
  ['platform_id', 'environment', 'list', 'slot', 'n'],
  'on conflict (platform_id, environment, list, slot) do update set n = list_counts.n + excluded.n',
);

const READ = statement('select sum(n) as n from list_counts where platform_id = ? and environment = ? and list = ?');

/** Adds delta to counts (a list and its counted filters), inside the transaction that inserts, hides or changes the rows: one statement. */
export async function bumpCounts(db: Pick<Database, 'append'>, scope: Scope, keys: readonly CountKey[], delta: number): Promise<void> {
  if (delta === 0 || keys.length === 0) return;
  await db.append(
    bump(keys.length),
    keys.flatMap((key) => [scope.platformId, scope.environment, key, 1 + Math.floor(Math.random() * (SLOTS - 1)), BigInt(delta)]),
  );
}

/** A maintained count. */
export async function readCount(db: Pick<Database, 'query'>, scope: Scope, key: CountKey): Promise<number> {
  const [row] = await db.query<{ n: bigint | number | string | null }>(READ, [scope.platformId, scope.environment, key]);
  return row?.n === null || row?.n === undefined ? 0 : toNumber(BigInt(row.n));
}

/**
 * Takes change rows out, for foldCounts to add into slot 0 in the same transaction; on PostgreSQL
 * the rows another node's fold is taking are left to it.
 */
const TAKE_CHANGES = statement({
  sqlite: `delete from list_counts where (platform_id, environment, list, slot) in
    (select platform_id, environment, list, slot from list_counts where slot <> 0 limit ?)
  returning platform_id, environment, list, n`,
  postgres: `delete from list_counts where (platform_id, environment, list, slot) in
    (select platform_id, environment, list, slot from list_counts where slot <> 0 limit ? for update skip locked)
  returning platform_id, environment, list, n`,
});

/**
 * Adds up to `limit` change rows into their counts' slot 0; answers how many it folded. One
 * transaction takes them out and adds them, so each counts once even with several nodes folding.
 */
export async function foldCounts(db: Pick<Database, 'tx' | 'query' | 'execute'>, limit = 2000): Promise<number> {
  return db.tx(async () => {
    const taken = await db.query<{ platform_id: string; environment: string; list: string; n: bigint | number | string }>(TAKE_CHANGES, [limit]);
    const sums = new Map<string, bigint>();
    for (const r of taken) {
      const key = JSON.stringify([r.platform_id, r.environment, r.list]);
      sums.set(key, (sums.get(key) ?? 0n) + BigInt(r.n));
    }
    // In key order: two folds on two nodes take slot 0 rows in the same order.
    for (const key of [...sums.keys()].sort()) {
      const [platformId, environment, list] = JSON.parse(key) as string[];
      await db.execute(bump(1), [platformId, environment, list, 0, sums.get(key)!]);
    }
    return taken.length;
  });
}

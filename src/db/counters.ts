import { sql } from 'kysely';
import type { Scope } from '../common/scope.js';
import type { Executor } from './database.js';
import { toNumber } from './values.js';

/**
 * Maintained row counts for the unfiltered lists (docs/decisions.md, "Scale"): `totalCount` of a
 * list without filters reads a handful of counter rows instead of counting every row, so it costs
 * the same at 10,000 rows and at 1,000,000.
 *
 * Each count is spread over SLOTS rows picked at random per change, so concurrent writers of one
 * platform (several nodes on PostgreSQL) rarely wait on the same row; the count is their sum.
 * Changes run in the caller's transaction, so the count moves exactly when the rows it counts do.
 */
const SLOTS = 8;

/** A list joins by a migration that counts its existing rows and bumps in every insert/hide. */
export type CountedList = 'customers' | 'transactions';

/**
 * Whether a list request has no filter (the counted list): every filter absent, or at the value
 * that means "no filter" (`includeDeleted: false` shows the live rows, which is what is counted).
 */
export function isUnfiltered(filters: object, neutral: Record<string, unknown> = {}): boolean {
  return Object.entries(filters).every(([k, v]) => v === undefined || (k in neutral && neutral[k] === v));
}

/** Adds delta to a list's count, inside the transaction that inserts (or hides) the rows. */
export async function bumpCount(trx: Executor, scope: Scope, list: CountedList, delta: number): Promise<void> {
  if (delta === 0) return;
  await trx
    .insertInto('list_counts')
    .values({ platform_id: scope.platformId, environment: scope.environment, list, slot: Math.floor(Math.random() * SLOTS), n: BigInt(delta) })
    .onConflict((oc) => oc.columns(['platform_id', 'environment', 'list', 'slot']).doUpdateSet({ n: sql<bigint>`list_counts.n + excluded.n` }))
    .execute();
}

/** The maintained count of a list. */
export async function readCount(ex: Executor, scope: Scope, list: CountedList): Promise<number> {
  const row = await ex
    .selectFrom('list_counts')
    .select((eb) => eb.fn.sum<bigint | number | string | null>('n').as('n'))
    .where('platform_id', '=', scope.platformId)
    .where('environment', '=', scope.environment)
    .where('list', '=', list)
    .executeTakeFirst();
  return row?.n === null || row?.n === undefined ? 0 : toNumber(BigInt(row.n));
}

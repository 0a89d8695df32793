import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** Transactions join the maintained counts (db/counters.ts): existing rows are counted once, into slot 0. */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`insert into list_counts (platform_id, environment, list, slot, n)
    select platform_id, environment, 'transactions', 0, count(*) from transactions group by platform_id, environment`.execute(db);
}

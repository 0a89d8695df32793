import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Maintained counts of unfiltered lists (db/counters.ts): totalCount without filters stops
 * counting every row. Existing rows are counted once here, into slot 0.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('list_counts')
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('list', 'text', (c) => c.notNull())
    .addColumn('slot', 'integer', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('list_counts_pk', ['platform_id', 'environment', 'list', 'slot'])
    .execute();
  await sql`insert into list_counts (platform_id, environment, list, slot, n)
    select platform_id, environment, 'customers', 0, count(*) from customers where is_deleted = 0 group by platform_id, environment`.execute(db);
}

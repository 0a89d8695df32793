import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Each platform's sandbox clock (src/modules/sandbox/clock.ts): an offset from real time in
 * milliseconds, and the sandbox time at which it stopped when frozen. A platform without a row
 * runs on real time.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('sandbox_clocks')
    .addColumn('platform_id', 'text', (c) => c.primaryKey().references('platforms.id'))
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('frozen_at_ms', 'bigint')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

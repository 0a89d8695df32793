import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Dead-letter jobs (src/db/jobs.ts): a job that failed JOB_MAX_ATTEMPTS times gets dead_at and is
 * no longer claimed until an operator retries it (`npx corridor jobs retry <id>`).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('dead_at', 'text').execute();
  await db.schema.createIndex('jobs_dead').on('jobs').columns(['dead_at', 'id']).execute();
}

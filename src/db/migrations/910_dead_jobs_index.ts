import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The dead-letter index holds dead jobs only. Over every job, `(dead_at, id)` also answered "the
 * live jobs before this one", and PostgreSQL chose it for a claim's check that a job is the first
 * live one of its subject whenever its statistics still described the jobs table as nearly empty
 * (a healthy queue is, until a burst or a receiver's outage fills it): for each due job it then read
 * every live job before it. A claim from a backlog of 30,000 deliveries took 71 s instead of 1 ms,
 * and held a batch lane, with the row locks of the payments beside it, for as long. Without live
 * jobs in it the index cannot be chosen for that check, which then uses `jobs_subject`.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('jobs_dead').execute();
  await db.schema.createIndex('jobs_dead').on('jobs').columns(['dead_at', 'id']).where(sql.ref('dead_at'), 'is not', null).execute();
}

// A claim from a backlog on PostgreSQL (src/db/jobs.ts, migration 910): a healthy queue is nearly
// empty, so its statistics say so when a burst or a receiver's outage fills it. A claim must then
// still read in proportion to the backlog, not to its square. The work is counted in pages the
// database reads (EXPLAIN ANALYZE's buffers), never timed.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import type { Database } from '../src/db/database.js';
import { createJobQueue, dueJobs } from '../src/db/jobs.js';
import { migrate } from '../src/db/migrate.js';
import { freshDatabase } from './helpers/context.js';

const BACKLOG = 5_000;
const NOW = '2026-11-28T00:10:00.000Z';

describe('job claims from a backlog (PostgreSQL)', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await migrate(db);
    // Statistics of an empty queue, then a backlog: two deliveries per payment (one subject), due in
    // the order enqueued, the oldest 300 leased by attempts under way.
    await sql`analyze jobs`.execute(db.admin);
    await sql`insert into jobs (id, kind, subject, payload, run_at, attempts, created_at)
      select 'Job:' || lpad(g::text, 6, '0'), 'webhook.deliver', 'Transaction:' || lpad((g / 2)::text, 6, '0'),
        '{"platformId":"Platform:p","environment":"SANDBOX"}',
        to_char(timestamp '2026-11-28 00:00:00' + g * interval '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 0, '2026-11-28T00:00:00.000Z'
      from generate_series(1, ${BACKLOG}) g`.execute(db.admin);
    await sql`update jobs set locked_until = '2026-11-28T00:20:00.000Z', locked_by = 'node-a', attempts = 1 where id <= 'Job:000300'`.execute(db.admin);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('reads a few pages per waiting job, not every job before each of them', async () => {
    const claim = dueJobs(db.admin, 'postgres', ['webhook.deliver'], NOW, 256).compile();
    const explained = await db.admin.executeQuery<{
      'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number; 'Actual Rows': number } }];
    }>(CompiledQuery.raw(`explain (analyze, buffers, format json) ${claim.sql}`, [...claim.parameters]));
    const plan = explained.rows[0]['QUERY PLAN'][0].Plan;
    expect(plan['Actual Rows']).toBe(256);
    // A few pages per waiting job (about 12,000). With the dead-letter index over live jobs too, it
    // read every live job before each waiting one: 413,000 pages here, growing with the square of
    // the backlog (a claim from 30,000 took 71 s).
    expect(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']).toBeLessThan(3 * BACKLOG);
  });

  it('claims the oldest due jobs, the first live one of each subject only', async () => {
    const jobs = createJobQueue({ db, clock: manualClock(new Date(NOW)), nodeId: 'node-b' });
    const claimed = await jobs.claimBatch(['webhook.deliver'], 60_000, 256);
    expect(claimed).toHaveLength(256);
    // Job:000300 is leased, so Job:000301 (the second of its subject) waits; from Job:000302 on, the
    // first of each pair comes in the order due, the second waits for it.
    const expected = Array.from({ length: 256 }, (_, i) => `Job:${String(302 + 2 * i).padStart(6, '0')}`);
    expect(claimed.map((j) => j.id)).toEqual(expected);
    expect(new Set(claimed.map((j) => j.subject)).size).toBe(256);
  });
});

import { sql } from 'kysely';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { Database, Dialect, Executor } from './database.js';
import type { JobsTable } from './schema.js';
import { byRowCount, statement, valuesList } from './statements.js';
import { toNumber } from './values.js';

export interface Job {
  id: string;
  kind: string;
  subject: string | null;
  payload: unknown;
  attempts: number;
  runAt: string;
}

/** A job that failed its last allowed attempt, waiting for an operator (`npx corridor jobs dead`). */
export interface DeadJob extends Job {
  lastError: string | null;
  deadAt: string;
  createdAt: string;
}

/** Attempts a failing job gets before it is dead-lettered, unless JOB_MAX_ATTEMPTS says otherwise. */
export const DEFAULT_JOB_MAX_ATTEMPTS = 25;

export interface ClaimOptions {
  /** Lanes (`platformId|environment` of the payload) not to claim from now: they are busy. */
  skipLanes?: readonly string[];
  /** PRODUCTION jobs first (payload environment), then the oldest. */
  productionFirst?: boolean;
}

/** The lane of a job as claimBatch's skipLanes names it. */
export function laneOfPayload(payload: unknown): string {
  const p = (payload ?? {}) as { platformId?: unknown; environment?: unknown };
  return `${typeof p.platformId === 'string' ? p.platformId : ''}|${typeof p.environment === 'string' ? p.environment : ''}`;
}

export interface NewJob {
  kind: string;
  /** Jobs of one subject run one at a time, in the order they were enqueued. */
  subject?: string;
  payload?: unknown;
  runAt?: Date;
}

const MARK_DEAD = statement('update jobs set dead_at = ?, locked_until = null, locked_by = null, last_error = ? where id = ?');
const LIST_DEAD = statement('select * from jobs where dead_at is not null order by dead_at, id limit ?');
const COUNT_DEAD = statement('select count(*) as n from jobs where dead_at is not null');
// A retried job starts afresh: attempts from zero, due now, first again among its subject's live jobs (it has the smaller id).
const KIND_OF = statement('select kind from jobs where id = ?');
const REVIVE = statement(
  'update jobs set dead_at = null, attempts = 0, run_at = ?, locked_until = null, locked_by = null where id = ? and dead_at is not null',
);
/**
 * New jobs, none due before the last live job of its subject (see retry): each row takes the later
 * of its own run_at and theirs, read by the insert itself, so a caller's transaction waits for no
 * read of its own (on PostgreSQL the insert travels with its other appends).
 */
const insertJobs = (() => {
  const text = (later: 'greatest' | 'max', rows: number) =>
    `insert into jobs (id, kind, subject, payload, run_at, attempts, created_at)
    select v.column1, v.column2, v.column3, v.column4,
      ${later}(v.column5, coalesce((select max(j.run_at) from jobs j where j.subject = v.column3 and j.dead_at is null), v.column5)), 0, v.column6
    from (values ${valuesList(rows, 6)}) as v`;
  return byRowCount((rows) => statement({ sqlite: text('max', rows), postgres: text('greatest', rows) }));
})();

function toJob(row: JobsTable): Job {
  return { id: row.id, kind: row.kind, subject: row.subject, payload: JSON.parse(row.payload), attempts: toNumber(row.attempts), runAt: row.run_at };
}

function toDeadJob(row: JobsTable): DeadJob {
  return { ...toJob(row), lastError: row.last_error, deadAt: row.dead_at!, createdAt: row.created_at };
}

/**
 * The select of a claim: up to `limit` due, live, unleased jobs of these kinds, the first live job
 * of each subject only, oldest first (FOR UPDATE SKIP LOCKED on PostgreSQL). Jobs whose payload
 * names a lane in `skipLanes` are left out; with `productionFirst` PRODUCTION jobs come first.
 */
export function dueJobs(executor: Executor, dialect: Dialect, kinds: readonly string[], nowIso: string, limit: number, opts: ClaimOptions = {}) {
  // The lane of a job, from its payload: `platformId|environment` ('|' when the payload names neither).
  const payloadField = (field: string) =>
    dialect === 'postgres'
      ? sql<string>`coalesce(j.payload::jsonb ->> ${sql.lit(field)}, '')`
      : sql<string>`coalesce(json_extract(j.payload, ${sql.lit(`$.${field}`)}), '')`;
  const laneOf = sql<string>`${payloadField('platformId')} || '|' || ${payloadField('environment')}`;
  let pick = executor
    .selectFrom('jobs as j')
    .select('j.id')
    .where('j.kind', 'in', kinds as string[])
    .where('j.run_at', '<=', nowIso)
    .where('j.dead_at', 'is', null)
    .where((eb) => eb.or([eb('j.locked_until', 'is', null), eb('j.locked_until', '<', nowIso)]))
    .where((eb) =>
      eb.or([
        eb('j.subject', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('jobs as earlier')
              .select(sql`1`.as('x'))
              .whereRef('earlier.subject', '=', 'j.subject')
              .whereRef('earlier.id', '<', 'j.id')
              .where('earlier.dead_at', 'is', null),
          ),
        ),
      ]),
    );
  if (opts.skipLanes && opts.skipLanes.length > 0) pick = pick.where(laneOf, 'not in', [...opts.skipLanes]);
  if (opts.productionFirst) pick = pick.orderBy(sql`case when ${payloadField('environment')} = 'PRODUCTION' then 0 else 1 end`);
  pick = pick.orderBy('j.run_at').limit(limit);
  return dialect === 'postgres' ? pick.forUpdate().skipLocked() : pick;
}

/**
 * Durable jobs (rule 5): timed and retried work lives in the jobs table, written in the same
 * transaction as the change that needs it, so a restart loses nothing. Claiming takes a lease:
 * on PostgreSQL with FOR UPDATE SKIP LOCKED so each job runs on one node; on SQLite the write
 * transaction (BEGIN IMMEDIATE) serialises claims. A node that dies mid-job loses its lease and
 * another node picks the job up again — handlers are written to be safe to run twice.
 *
 * Dead letters: a job retried after its maxAttempts-th attempt is marked dead (dead_at) instead,
 * and is not claimed again until an operator retries it (retryDead, `npx corridor jobs retry`).
 * A dead job no longer holds back the later jobs of its subject: they run in their order, as if
 * the dead one were not there. Holding them would stop a transaction's (or a platform's) later
 * work forever behind one poisoned job, and every claim would walk past them; handlers check the
 * state they act on, so a later step finds its object as it is. Kinds in ownSchedule (webhook
 * deliveries, which end FAILED on their own 3-day schedule) are never dead-lettered.
 */
export function createJobQueue(deps: {
  db: Database;
  clock: Clock;
  nodeId: string;
  onEnqueue?: (job: { kind: string; runAt: Date }) => void;
  /** The real run_at of a job enqueued now (a sandbox platform's clock: src/modules/sandbox/clock.ts); runAt or now otherwise. */
  runAtOf?: (kind: string, runAt: Date | undefined) => Date;
  /** Attempts before a failing job is dead-lettered (JOB_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Kinds that end on a schedule of their own and are never dead-lettered. */
  ownSchedule?: readonly string[];
}) {
  const { db, clock } = deps;
  const maxAttempts = deps.maxAttempts ?? DEFAULT_JOB_MAX_ATTEMPTS;
  const ownSchedule = new Set(deps.ownSchedule ?? []);

  async function claim(kinds: readonly string[], leaseMs: number, limit: number, opts: ClaimOptions = {}): Promise<Job[]> {
    if (kinds.length === 0 || limit < 1) return [];
    const now = clock.now();
    const nowIso = now.toISOString();
    const leaseUntil = new Date(now.getTime() + leaseMs).toISOString();
    return db.tx(async (trx) => {
      const picked = await dueJobs(trx, db.dialect, kinds, nowIso, limit, opts).execute();
      if (picked.length === 0) return [];
      const rows = await trx
        .updateTable('jobs')
        .set((eb) => ({ locked_until: leaseUntil, locked_by: deps.nodeId, attempts: eb('attempts', '+', 1) }))
        .where(
          'id',
          'in',
          picked.map((p) => p.id),
        )
        .returningAll()
        .execute();
      // In the order the select chose them.
      const byId = new Map(rows.map((r) => [r.id, r]));
      return picked.flatMap((p) => {
        const row = byId.get(p.id);
        return row ? [toJob(row)] : [];
      });
    });
  }

  return {
    /**
     * Adds jobs inside the caller's transaction (or a transaction of their own), one statement
     * for all of them, which no one waits for (Database.append). A job of a subject waits for the
     * earlier jobs of its subject anyway, so it is never due before the last of them (see retry);
     * nor before an earlier job of this call.
     */
    async enqueue(...batch: NewJob[]): Promise<string[]> {
      if (batch.length === 0) return [];
      const now = clock.now();
      const nowIso = now.toISOString();
      const latest = new Map<string, string>();
      const rows = batch.map((job) => {
        let runAt = (deps.runAtOf ? deps.runAtOf(job.kind, job.runAt) : (job.runAt ?? now)).toISOString();
        if (job.subject !== undefined) {
          const last = latest.get(job.subject);
          if (last && last > runAt) runAt = last;
          latest.set(job.subject, runAt);
        }
        return [newId('Job'), job.kind, job.subject ?? null, JSON.stringify(job.payload ?? {}), runAt, nowIso];
      });
      await db.append(insertJobs(rows.length), rows.flat());
      // Wakes go by the run_at asked for; a job the insert moved later, behind its subject's last one, is found by the loops' poll.
      for (const r of rows) deps.onEnqueue?.({ kind: r[1] as string, runAt: new Date(r[4] as string) });
      return rows.map((r) => r[0] as string);
    },

    /** Leases the next due job of these kinds, or undefined when none is due. */
    async claimNext(kinds: readonly string[], leaseMs: number): Promise<Job | undefined> {
      return (await claim(kinds, leaseMs, 1))[0];
    },

    /**
     * Leases up to `limit` due jobs of these kinds in one transaction: one select (FOR UPDATE SKIP
     * LOCKED on PostgreSQL, so concurrent claims of several nodes get disjoint jobs; SQLite's
     * write lock serialises them) and one update. Only the first live job of a subject is due, so
     * a batch never holds two jobs of one subject. Jobs whose payload names a lane (platformId and
     * environment) in `skipLanes` are left for later; with `productionFirst` PRODUCTION jobs come
     * before the others, then the oldest first.
     */
    async claimBatch(kinds: readonly string[], leaseMs: number, limit: number, opts: ClaimOptions = {}): Promise<Job[]> {
      return claim(kinds, leaseMs, limit, opts);
    },

    /**
     * Hands back claimed jobs that were not run (a node stopping): unleased, their claim not
     * counted as an attempt, due as they were. Only while this node still holds their lease.
     */
    async release(claimed: readonly Job[]): Promise<void> {
      if (claimed.length === 0) return;
      await db.tx((trx) =>
        trx
          .updateTable('jobs')
          .set((eb) => ({ locked_until: null, locked_by: null, attempts: eb('attempts', '-', 1) }))
          .where(
            'id',
            'in',
            claimed.map((j) => j.id),
          )
          .where('locked_by', '=', deps.nodeId)
          .execute(),
      );
    },

    /** Finishes a job (it is removed). Runs in the caller's transaction when there is one. */
    async complete(job: Job): Promise<void> {
      await db.tx((trx) => trx.deleteFrom('jobs').where('id', '=', job.id).execute());
    },

    /**
     * Puts a job back to run at runAt, releasing the lease. The later jobs of its subject move to
     * runAt too (they cannot run before it): a job that is due but waits behind an earlier one is
     * walked past by every claim, so without this an integrator's webhook outage would leave
     * thousands of such rows that slow every claim of every node.
     *
     * After its maxAttempts-th attempt the job is dead-lettered instead (see above).
     */
    async retry(job: Job, runAt: Date, error: string): Promise<void> {
      if (job.attempts >= maxAttempts && !ownSchedule.has(job.kind)) {
        await db.execute(MARK_DEAD, [clock.now().toISOString(), error.slice(0, 1000), job.id]);
        return;
      }
      const iso = runAt.toISOString();
      await db.tx(async (trx) => {
        await trx
          .updateTable('jobs')
          .set({ run_at: iso, locked_until: null, locked_by: null, last_error: error.slice(0, 1000) })
          .where('id', '=', job.id)
          .execute();
        if (job.subject !== null)
          await trx.updateTable('jobs').set({ run_at: iso }).where('subject', '=', job.subject).where('id', '>', job.id).where('run_at', '<', iso).execute();
      });
    },

    /** Dead-lettered jobs, oldest death first. */
    async dead(limit = 100): Promise<DeadJob[]> {
      return (await db.query<JobsTable>(LIST_DEAD, [limit])).map(toDeadJob);
    },

    async deadCount(): Promise<number> {
      const [r] = await db.query<{ n: number | bigint }>(COUNT_DEAD, []);
      return toNumber(r?.n);
    },

    /** Gives a dead job another maxAttempts attempts, due now; false when no dead job has this id. */
    async retryDead(id: string): Promise<boolean> {
      const now = clock.now();
      const changed = await db.execute(REVIVE, [now.toISOString(), id]);
      if (changed !== 1) return false;
      const [row] = await db.query<{ kind: string }>(KIND_OF, [id]);
      if (row) deps.onEnqueue?.({ kind: row.kind, runAt: now });
      return true;
    },

    /** The earliest run_at among pending jobs of these kinds (for sleeping until then). */
    async nextDue(kinds: readonly string[]): Promise<Date | undefined> {
      const r = await db
        .executor()
        .selectFrom('jobs')
        .select((eb) => eb.fn.min('run_at').as('t'))
        .where('kind', 'in', kinds as string[])
        .where('dead_at', 'is', null)
        .executeTakeFirst();
      return r?.t ? new Date(r.t as string) : undefined;
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;

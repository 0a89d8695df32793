/**
 * GET /sandbox/clock, POST /sandbox/clock (freeze, unfreeze) and POST /sandbox/clock/advance:
 * the caller's sandbox clock (src/modules/sandbox/clock.ts). Changes of one platform's clock are
 * serialised by a lock on its row (FOR UPDATE on PostgreSQL; SQLite writes one at a time), in the
 * same transaction that moves the platform's timed jobs. An advance then runs the jobs that fell
 * due, in run_at order, each leased like a worker's claim, so a job runs once whether a worker, this
 * advance or a concurrent one reaches it first; an advance waits for those others hold.
 */
import { Type } from 'typebox';
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Container } from '../../container.js';
import type { Database, Executor } from '../../db/database.js';
import type { Job, JobQueue } from '../../db/jobs.js';
import type { App } from '../../http/types.js';
import { platformMs, toReal, toSandbox, type ClockState, type SandboxClocks } from './clock.js';

export const MAX_ADVANCE_SECONDS = 30 * 24 * 3600;
const LEASE_MS = 15_000;
const NODE = 'sandbox-clock';

export const SandboxClockSchema = Type.Object(
  {
    now: Type.String({ format: 'date-time', description: "This platform's sandbox time", examples: ['2026-01-01T00:06:00.000Z'] }),
    frozen: Type.Boolean({ description: 'Whether sandbox time is stopped', examples: [false] }),
  },
  { additionalProperties: false },
);
export const SandboxAdvanceSchema = Type.Object(
  {
    now: Type.String({ format: 'date-time', description: "This platform's sandbox time after the jump", examples: ['2026-01-01T00:06:00.000Z'] }),
    frozen: Type.Boolean({ examples: [false] }),
    stepsRun: Type.Integer({
      minimum: 0,
      description:
        'Timed steps (payment steps, quote expiries, approval deadlines) that fell due in the jump and ran. Webhook retries that fell due are not counted: they are made due at once and the delivery worker sends them just after the answer',
      examples: [1],
    }),
  },
  { additionalProperties: false },
);
export const SandboxAdvanceBody = Type.Object(
  {
    seconds: Type.Integer({
      minimum: 1,
      maximum: MAX_ADVANCE_SECONDS,
      description: `How far to move sandbox time forward, 1 to ${MAX_ADVANCE_SECONDS} (30 days)`,
      examples: [360],
    }),
  },
  { additionalProperties: false },
);
export const SandboxFreezeBody = Type.Object(
  {
    frozen: Type.Boolean({
      description: 'true stops sandbox time (quotes never expire on their own); false lets it run again from where it stopped',
      examples: [true],
    }),
  },
  { additionalProperties: false },
);

type Handler = (trx: Executor, job: Job) => Promise<void>;

export function createSandboxClockService(deps: {
  db: Database;
  base: Clock;
  clocks: SandboxClocks;
  jobs: JobQueue;
  handlers: Record<string, Handler>;
  /**
   * Kinds whose waiting jobs move with the clock but are run by their own workers, never by an
   * advance: webhook deliveries (a network call, not to be made in a transaction). Only those not
   * yet due move (a retry, or a delivery waiting behind one): a first attempt, due at once in real
   * time, is never held by a freeze.
   */
  followers?: readonly string[];
  /** Wakes the workers of these kinds (after an advance made some of their jobs due). */
  wake?: (kinds: readonly string[]) => void;
}) {
  const { db, base, clocks } = deps;
  const kinds = Object.keys(deps.handlers);
  const followers = [...(deps.followers ?? [])];
  const ofPlatform = (platformId: string) => `%"platformId":"${platformId}"%`;

  /** The platform's sandbox jobs of these kinds (their payload names the platform and environment). */
  const jobsOf = (ex: Executor, platformId: string, ofKinds: string[]) =>
    ex.selectFrom('jobs').where('kind', 'in', ofKinds).where('payload', 'like', ofPlatform(platformId)).where('payload', 'like', '%"environment":"SANDBOX"%');
  /** The platform's timed sandbox jobs, run by an advance. */
  const timedJobs = (ex: Executor, platformId: string) => jobsOf(ex, platformId, kinds);

  /** Changes the clock under its row lock and moves the platform's timed jobs with it, in one transaction. */
  async function change(platformId: string, next: (old: ClockState, realMs: number) => ClockState): Promise<ClockState> {
    const { updated: state, followersDue } = await db.tx(async (trx) => {
      const nowIso = base.now().toISOString();
      const old = await clocks.hold(platformId, 'update');
      const realMs = base.now().getTime();
      const updated = next(old, realMs);
      await trx
        .updateTable('sandbox_clocks')
        .set({ offset_ms: updated.offsetMs, frozen_at_ms: updated.frozenAtMs, updated_at: nowIso })
        .where('platform_id', '=', platformId)
        .execute();
      const waiting = followers.length ? await jobsOf(trx, platformId, followers).select(['id', 'run_at']).where('run_at', '>', nowIso).execute() : [];
      const move = (id: string, from: string, to: string) =>
        to === from ? undefined : trx.updateTable('jobs').set({ run_at: to }).where('id', '=', id).execute();
      for (const job of await timedJobs(trx, platformId).select(['id', 'run_at']).execute())
        await move(job.id, job.run_at, new Date(toReal(updated, toSandbox(old, Date.parse(job.run_at)))).toISOString());
      // A follower whose due time the clock has reached is due now in real time, frozen or not: its worker runs it.
      let followersDue = false;
      for (const job of waiting) {
        const dueMs = toSandbox(old, Date.parse(job.run_at));
        const reached = dueMs <= platformMs(updated, realMs);
        followersDue ||= reached;
        await move(job.id, job.run_at, reached ? nowIso : new Date(toReal(updated, dueMs)).toISOString());
      }
      return { updated, followersDue };
    });
    clocks.remember(platformId, state);
    if (followersDue) deps.wake?.(followers);
    return state;
  }

  const view = (s: ClockState) => ({ now: new Date(platformMs(s, base.now().getTime())).toISOString(), frozen: s.frozenAtMs !== null });

  /** Runs the platform's due timed jobs in run_at order, each at its own due time; returns how many ran. */
  async function runDue(platformId: string): Promise<number> {
    let ran = 0;
    const failed = new Set<string>();
    let waitingSince: number | undefined;
    for (;;) {
      const state = await clocks.read(db.executor(), platformId);
      const realNow = base.now();
      const dueBefore = new Date(toReal(state, platformMs(state, realNow.getTime()))).toISOString();
      let q = timedJobs(db.executor(), platformId).selectAll().where('run_at', '<=', dueBefore);
      if (failed.size) q = q.where('id', 'not in', [...failed]);
      const row = await q.orderBy('run_at').orderBy('id').limit(1).executeTakeFirst();
      if (!row) return ran;
      const nowIso = realNow.toISOString();
      const claimed = await db.tx(async (trx) => {
        const r = await trx
          .updateTable('jobs')
          .set((eb) => ({ locked_until: new Date(realNow.getTime() + LEASE_MS).toISOString(), locked_by: NODE, attempts: eb('attempts', '+', 1) }))
          .where('id', '=', row.id)
          .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', nowIso)]))
          .executeTakeFirst();
        return Number(r.numUpdatedRows) === 1;
      });
      if (!claimed) {
        // A worker (or another advance) holds it: wait until it finishes, at most one lease.
        waitingSince ??= Date.now();
        if (Date.now() - waitingSince > LEASE_MS + 1000) failed.add(row.id);
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      waitingSince = undefined;
      const job: Job = {
        id: row.id,
        kind: row.kind,
        subject: row.subject,
        payload: JSON.parse(row.payload),
        attempts: Number(row.attempts) + 1,
        runAt: row.run_at,
      };
      try {
        await clocks.at(platformId, state, toSandbox(state, Date.parse(row.run_at)), () =>
          db.tx(async (trx) => {
            await deps.handlers[job.kind](trx, job);
            await deps.jobs.complete(job);
          }),
        );
        ran++;
      } catch (e) {
        failed.add(job.id);
        await deps.jobs.retry(job, new Date(base.now().getTime() + 1000), e instanceof Error ? (e.stack ?? e.message) : String(e));
      }
    }
  }

  return {
    async get(scope: Scope) {
      return view(await clocks.read(db.executor(), scope.platformId));
    },

    /** Sandbox time jumps forward by `seconds`; the timed steps that fall due run before the answer. */
    async advance(scope: Scope, seconds: number) {
      const jumpMs = seconds * 1000;
      await change(scope.platformId, (old) => ({ offsetMs: old.offsetMs + jumpMs, frozenAtMs: old.frozenAtMs === null ? null : old.frozenAtMs + jumpMs }));
      const stepsRun = await runDue(scope.platformId);
      return { ...view(await clocks.read(db.executor(), scope.platformId)), stepsRun };
    },

    /** Stops sandbox time where it is, or lets it run again from there. */
    async freeze(scope: Scope, frozen: boolean) {
      const state = await change(scope.platformId, (old, realMs) => {
        if (frozen) return old.frozenAtMs !== null ? old : { offsetMs: old.offsetMs, frozenAtMs: realMs + old.offsetMs };
        return old.frozenAtMs === null ? old : { offsetMs: old.frozenAtMs - realMs, frozenAtMs: null };
      });
      return view(state);
    },
  };
}

export type SandboxClockService = ReturnType<typeof createSandboxClockService>;

export function sandboxClockRoutes(app: App, { sandbox }: Container) {
  const tags = ['Sandbox'];
  app.get(
    '/sandbox/clock',
    {
      config: { permission: 'VIEW', sandboxOnly: true },
      schema: { tags, summary: "This platform's sandbox time and whether it is frozen (sandbox only)", response: { 200: SandboxClockSchema } },
    },
    async (req) => sandbox.clock.get(req.auth),
  );
  app.post(
    '/sandbox/clock',
    {
      config: { permission: 'TRANSACT', sandboxOnly: true },
      schema: {
        tags,
        summary: "Freeze or unfreeze this platform's sandbox time (sandbox only)",
        body: SandboxFreezeBody,
        response: { 200: SandboxClockSchema },
      },
    },
    async (req) => sandbox.clock.freeze(req.auth, req.body.frozen),
  );
  app.post(
    '/sandbox/clock/advance',
    {
      config: { permission: 'TRANSACT', sandboxOnly: true },
      schema: {
        tags,
        summary: "Move this platform's sandbox time forward and run the timed steps that fall due (sandbox only)",
        description:
          "Payment steps, quote expiries and approval deadlines that fall due run before the answer, each at its own due time. Webhook retries that fall due become due at once and are sent by the delivery worker right after (an attempt is a network call); their body's timestamp and signature time stay real.",
        body: SandboxAdvanceBody,
        response: { 200: SandboxAdvanceSchema },
      },
    },
    async (req) => sandbox.clock.advance(req.auth, req.body.seconds),
  );
}

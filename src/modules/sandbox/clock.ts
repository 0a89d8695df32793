/**
 * Each platform's sandbox clock (D9). Sandbox time = frozen_at_ms when frozen, else real time +
 * offset_ms (table sandbox_clocks, migration 300; no row: real time). It reaches the code through
 * the container's clock: inside a SANDBOX request, or a job of a sandbox platform, `clock.now()`
 * answers that platform's time (an AsyncLocalStorage context); anywhere else real time.
 *
 * Timed jobs keep run_at in REAL time: the real instant at which the platform's clock reaches the
 * job's due time (toReal). An advance moves the platform's timed jobs earlier by the jump and runs
 * the due ones before answering; a freeze pushes them HOLD_MS into the future (no real instant
 * reaches a stopped clock), an unfreeze brings them back. So the workers' claim needs no change,
 * and a job is due exactly when its platform's clock reaches its due time.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { SandboxClocksTable } from '../../db/schema.js';
import type { RowLock } from '../../db/transaction-context.js';
import { toNumber } from '../../db/values.js';

/** How far a frozen platform's timed jobs are pushed: beyond any real instant the server will see. */
export const HOLD_MS = 100 * 365 * 24 * 3_600_000;

export interface ClockState {
  offsetMs: number;
  /** the sandbox time at which the clock stopped; null while it runs */
  frozenAtMs: number | null;
}

export const REAL_TIME: ClockState = { offsetMs: 0, frozenAtMs: null };

export const platformMs = (s: ClockState, realMs: number) => s.frozenAtMs ?? realMs + s.offsetMs;
/** The real run_at of a timed job due at this sandbox time. */
export const toReal = (s: ClockState, sandboxMs: number) => sandboxMs - s.offsetMs + (s.frozenAtMs !== null ? HOLD_MS : 0);
/** The sandbox due time of a timed job with this real run_at. */
export const toSandbox = (s: ClockState, realMs: number) => realMs + s.offsetMs - (s.frozenAtMs !== null ? HOLD_MS : 0);

interface Context {
  platformId: string;
  state: ClockState;
  /** a job run by an advance sees the clock at its own due time */
  fixedMs?: number;
}

export function createSandboxClocks(deps: { db: Database; base: Clock; cacheMs: number; timedKinds: readonly string[] }) {
  const { db, base } = deps;
  const als = new AsyncLocalStorage<Context>();
  const cache = new Map<string, { state: ClockState; untilMs: number }>();
  const timed = new Set(deps.timedKinds);

  type Row = Pick<SandboxClocksTable, 'offset_ms' | 'frozen_at_ms'>;
  const stateOfRow = (row: Row | undefined): ClockState =>
    row ? { offsetMs: toNumber(row.offset_ms), frozenAtMs: row.frozen_at_ms === null ? null : toNumber(row.frozen_at_ms) } : REAL_TIME;

  async function read(ex: Executor, platformId: string): Promise<ClockState> {
    return stateOfRow(await ex.selectFrom('sandbox_clocks').select(['offset_ms', 'frozen_at_ms']).where('platform_id', '=', platformId).executeTakeFirst());
  }

  /**
   * The platform's clock, held until the open transaction ends (db.lockRow): `share` beside other
   * holders of the same kind (a retry reading its due time), `update` alone (a change of the clock).
   * The row is made first, at real time, if the platform never touched its clock, so there is one to hold.
   */
  async function hold(platformId: string, lock: RowLock): Promise<ClockState> {
    await db
      .executor()
      .insertInto('sandbox_clocks')
      .values({ platform_id: platformId, offset_ms: 0, frozen_at_ms: null, updated_at: base.now().toISOString() })
      .onConflict((oc) => oc.column('platform_id').doNothing())
      .execute();
    return stateOfRow(await db.lockRow<Row>('sandbox_clocks', { platform_id: platformId }, lock));
  }

  /** A platform's clock as this node last read it, while that is under cacheMs old. */
  function cached(platformId: string): ClockState | undefined {
    const hit = cache.get(platformId);
    return hit && hit.untilMs > Date.now() ? hit.state : undefined;
  }

  /** A platform's clock, read from the database at most every cacheMs on this node. */
  async function stateOf(platformId: string): Promise<ClockState> {
    const hit = cached(platformId);
    if (hit) return hit;
    const nowMs = Date.now();
    const state = await read(db.executor(), platformId);
    // Inside a transaction the read may see a clock change that still rolls back: kept once committed.
    db.afterCommit(() => {
      if (cache.size > 10_000) cache.clear();
      cache.set(platformId, { state, untilMs: nowMs + deps.cacheMs });
    });
    return state;
  }

  /** The container's clock: the current sandbox platform's time inside its context, real time elsewhere. */
  const clock: Clock = {
    now() {
      const c = als.getStore();
      if (!c) return base.now();
      return new Date(c.fixedMs ?? platformMs(c.state, base.now().getTime()));
    },
  };

  return {
    clock,
    /** Real time, whatever context the caller runs in: for what must never follow a sandbox clock (the audit log). */
    realClock: base,
    read,
    hold,
    /** Forgets the cached clock of a platform (after this node changed it). */
    forget: (platformId: string) => cache.delete(platformId),
    remember(platformId: string, state: ClockState) {
      cache.set(platformId, { state, untilMs: Date.now() + deps.cacheMs });
    },

    /** Runs fn on the scope's clock (a SANDBOX scope's platform time); an enclosing context of the same platform is kept. */
    async within<T>(scope: Scope, fn: () => Promise<T>): Promise<T> {
      if (scope.environment !== 'SANDBOX') return fn();
      if (als.getStore()?.platformId === scope.platformId) return fn();
      const state = await stateOf(scope.platformId);
      return als.run({ platformId: scope.platformId, state }, fn);
    },

    /** Runs fn with the clock at this sandbox instant (a job run by an advance). */
    at<T>(platformId: string, state: ClockState, sandboxMs: number, fn: () => T): T {
      return als.run({ platformId, state, fixedMs: sandboxMs }, fn);
    },

    /** A Fastify hook (callback style, so the request's handler runs inside the context). */
    hook(req: { auth?: Scope }, _reply: unknown, done: (err?: Error) => void) {
      const auth = req.auth;
      if (!auth || auth.environment !== 'SANDBOX') return done();
      // A cached clock without a promise: the common case of every sandbox request.
      const state = cached(auth.platformId);
      if (state) return als.run({ platformId: auth.platformId, state }, () => done());
      stateOf(auth.platformId).then(
        (state) => als.run({ platformId: auth.platformId, state }, () => done()),
        (err: Error) => done(err),
      );
    },

    /**
     * When a failed webhook attempt's retry `delayMs` away is due (events/worker.ts): a SANDBOX
     * platform's retry when its clock reaches now + delayMs (dueAt, the delivery log's
     * nextAttemptAt; runAt, the job's real run_at, held while the clock is frozen); real time
     * otherwise. Read in the worker's transaction with the clock's row held in share (hold), so an
     * advance or freeze waits for the retry and then moves it.
     */
    async retryAt(scope: Scope, delayMs: number): Promise<{ runAt: Date; dueAt: Date }> {
      const realMs = base.now().getTime();
      if (scope.environment !== 'SANDBOX') return { runAt: new Date(realMs + delayMs), dueAt: new Date(realMs + delayMs) };
      const state = await hold(scope.platformId, 'share');
      const dueMs = platformMs(state, realMs) + delayMs;
      return { runAt: new Date(toReal(state, dueMs)), dueAt: new Date(dueMs) };
    },

    /**
     * The real run_at of a job enqueued now (db/jobs.ts): a timed job of a sandbox platform's
     * context runs when that clock reaches its due time; anything else at its instant in real time.
     */
    runAtOf(kind: string, runAt: Date | undefined): Date {
      const c = als.getStore();
      if (!c) return runAt ?? base.now();
      if (timed.has(kind)) return new Date(toReal(c.state, (runAt ?? clock.now()).getTime()));
      return runAt ? new Date(runAt.getTime() - c.state.offsetMs) : base.now();
    },
  };
}

export type SandboxClocks = ReturnType<typeof createSandboxClocks>;

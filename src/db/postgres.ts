import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import type pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import type { DB } from './schema.js';
import type { Statement } from './statements.js';
import type { Database, DatabaseOptions, DbStats, Executor } from './database.js';
import {
  counting,
  noted,
  outcomeOf,
  refusal,
  rowLocker,
  runCommitted,
  watchedRunner,
  type RowLock,
  type Runner,
  type TxContext,
} from './transaction-context.js';
import { appendQueue, firstProblem, type AppendQueue, type Problem, type Tail } from './pg-appends.js';
import { leadingClient, type LeadingClient } from './pg-leading.js';
import { connectionLost, readGatherer } from './pg-reads.js';
import { reachability } from './faults.js';

/**
 * PostgreSQL named prepared statements: each connection parses a statement once and keeps its plan.
 * Sent in a transaction after the appends waiting on its client, or with them when the statement
 * may go with them (pg-appends.ts); outside one, with the reads asked for in the same turn (pg-reads.ts).
 */
function pgRunner(run: (s: Statement, params: readonly unknown[]) => Promise<pg.QueryResult>): Runner {
  return {
    async query<T>(s: Statement, params: readonly unknown[]) {
      return (await run(s, params)).rows as T[];
    },
    async execute(s: Statement, params: readonly unknown[]) {
      return (await run(s, params)).rowCount ?? 0;
    },
  };
}

/** The PostgreSQL driver, loaded on first use: a SQLite server never loads it. */
async function loadPg(): Promise<typeof pg> {
  const driver = (await import('pg')).default;
  // PostgreSQL int8 → bigint, so money never passes through a float.
  driver.types.setTypeParser(20, (v) => BigInt(v));
  return driver;
}

const RETRYABLE_PG = new Set(['40001', '40P01']); // serialization failure, deadlock
/** Transactions in one PostgreSQL batch at most: bounds how long the first of them waits for its commit. */
const MAX_BATCH = 32;
/** How long a batch member after the first waits for another batch's row lock before it moves to a later batch (ms). */
const BATCH_LOCK_WAIT_MS = 20;
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * A lane opens beside a busy one only for LANE_FILL waiting transactions, or once the oldest has
 * waited LANE_WAIT_MS; the first lane opens at once. A batch started for one or two transactions
 * spends the database's CPU on too little work: with the database on the same host, three nodes
 * that opened a lane per arrival often carried fewer payments than one (docs/decisions.md, "Batch
 * lanes"). With the database far away, transactions wait long enough to fill a batch anyway, so
 * lanes open as before; and a lane held up (a row lock, a slow statement) delays the others only
 * for the wait.
 */
const LANE_FILL = 3;
const LANE_WAIT_MS = 2;

export async function openPostgres(opts: DatabaseOptions): Promise<Database> {
  const pg = await loadPg();
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString: opts.url, connectionTimeoutMillis: opts.connectTimeoutMs || undefined });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists ${schema}`);
    } finally {
      await setup.end();
    }
  }
  // Every wait is bounded (docs/reliability.md, "Bounds"): a network cut that drops packets rather
  // than resetting would otherwise hold a lane, and PostgreSQL the row locks, for as long as TCP
  // takes to give up (many minutes).
  const connection = {
    connectionString: opts.url,
    options: schema ? `-c search_path=${schema}` : undefined,
    // Opening a connection, or waiting for a pooled one.
    connectionTimeoutMillis: opts.connectTimeoutMs || undefined,
    // Probes an idle connection, so a peer gone without a word is found.
    keepAlive: (opts.keepAliveInitialDelayMs ?? 0) > 0,
    keepAliveInitialDelayMillis: opts.keepAliveInitialDelayMs || undefined,
  };
  const pool = new pg.Pool({
    ...connection,
    max: opts.poolSize ?? 10,
    // Startup parameters of their own (not `options`), so a DATABASE_URL carrying ?options=… keeps both.
    statement_timeout: opts.statementTimeoutMs || undefined,
    idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs || undefined,
    lock_timeout: opts.lockTimeoutMs || undefined,
    // An answer awaited longer ends the connection (pipelined, pg destroys it): the server has
    // statement_timeout for a slow statement, this is for a silent network.
    query_timeout: opts.queryTimeoutMs || undefined,
    // A statement may be written before the answer to the one ahead of it (pg-leading.ts).
    pipeline: true,
  });
  // Migrations (Database.admin) run on connections of their own without the statement limits: a
  // schema change may take longer than any request should, and waits its turn on an advisory lock.
  const adminPool = new pg.Pool({ ...connection, max: 2 });
  adminPool.on('error', () => undefined);
  adminPool.on('connect', (client) => client.on('error', () => undefined));
  // A connection the server ends (a restart, a failover, pg_terminate_backend) is reported as an
  // 'error' event, which ends the process when nobody listens. What ran on it fails, or runs again
  // where that cannot do anything twice (runBatch, pg-reads.ts); the pool drops an idle one itself,
  // and a batch or a gathered read releases its client as broken. The next statement opens a new connection.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const stats: DbStats = { statements: 0 };
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counting(stats) });
  const admin = new Kysely<DB>({ dialect: new PostgresDialect({ pool: adminPool }), log: counting(stats) });
  // Once the database did not answer in time, new work fails at once for a moment instead of
  // waiting as long again (faults.ts): a request meets at most one such wait.
  const reach = reachability();
  const poolRunner = pgRunner(readGatherer(pool, stats, reach).send);
  const pgLocker = rowLocker(true);
  type PgTxContext = TxContext & { appends: AppendQueue; leading: LeadingClient };
  const als = new AsyncLocalStorage<PgTxContext>();
  // A transaction runs on one pooled client: the builder and the compiled statements both use it.
  const contexts = new WeakMap<pg.PoolClient, Omit<PgTxContext, 'committed'>>();
  const contextOf = (client: pg.PoolClient): PgTxContext => {
    let ctx = contexts.get(client);
    if (!ctx) {
      const leading = leadingClient(client, stats);
      const appends = appendQueue(leading);
      // Kysely over this one client; it must not hand the client back to the pool itself, and its
      // queries, like the compiled statements, go after the appends waiting.
      // Its errors fail the transaction whatever the caller catches (TxContext.failed).
      const query = (...args: unknown[]) => {
        appends.flush();
        const result = (leading.query as (...a: unknown[]) => unknown)(...args);
        return result instanceof Promise ? noted(als.getStore(), result) : result;
      };
      const held = new Proxy(client, {
        get: (target, prop) => (prop === 'release' ? () => undefined : prop === 'query' ? query : Reflect.get(target, prop, target)),
      });
      const single = { connect: async () => held, end: async () => undefined } as unknown as pg.Pool;
      ctx = {
        // Not counted here: the leading client counts what it writes.
        trx: new Kysely<DB>({ dialect: new PostgresDialect({ pool: single }) }),
        runner: watchedRunner(pgRunner(appends.run), () => als.getStore()),
        appends,
        leading,
      };
      contexts.set(client, ctx);
    }
    return { ...ctx, committed: [] };
  };
  // Half the pool writes in batches; the rest serves reads outside transactions.
  const lanes = Math.max(1, Math.floor((opts.poolSize ?? 10) / 2));

  /** A transaction waiting for its turn in a batch. */
  interface Member {
    fn: (trx: Executor) => Promise<unknown>;
    /**
     * The caller's async context (its sandbox clock, its trace), in which the member runs rather than
     * in that of whoever started the batch. What AsyncLocalStorage.snapshot() captures, without the
     * bound function it wraps around it (two deprecation wrappers and a property definition per call).
     */
    caller: AsyncResource;
    /** When it began to wait (performance.now()). */
    since: number;
    resolve: (value: unknown) => void;
    reject: (e: unknown) => void;
  }
  const waiting: Member[] = [];
  /** Errors of batches whose connection ended before their COMMIT was sent: nothing of them committed, so tx() runs them again. */
  const uncommitted = new WeakSet<object>();
  let lanesBusy = 0;
  let laneTimer: NodeJS.Timeout | undefined;
  let gathering = false;

  /** One run of a member's work in a batch: what it wrote without waiting, and how its code ended. */
  interface Attempt {
    member: Member;
    ctx: PgTxContext;
    /** The control written ahead of it (begin, a savepoint). */
    control: Promise<unknown>;
    tails: Tail[];
    outcome: { value: unknown } | { error: unknown };
    /** The savepoint before its work, to roll it back alone. */
    savepoint: string;
    /** Whether a short lock_timeout was in force when it began (it may then wait for a later batch). */
    mayDefer: boolean;
  }

  /**
   * Runs the members as one database transaction on one client, a savepoint each (a batch of one
   * needs none), and commits once; then answers each member whose work committed.
   *
   * The members' writes that need no answer (appends, guarded updates: pg-appends.ts) are not
   * waited for: the next member starts at once, its savepoint and its writes held with them, and
   * the whole run goes out in one write (pg-leading.ts) when a member awaits a statement or the
   * batch ends. Then the batch hears how each did, in order. The first member whose write failed,
   * whose guarded update was refused or whose code threw is rolled back to its savepoint and
   * answered with its error (a refusal explained inside the transaction: Database.appendGuarded);
   * the members after it, whose work ran on top of it, are rolled back with it and run again. A
   * member that only had to wait for another batch's lock is not answered: it runs first in a
   * later batch (below).
   * When BEGIN, a savepoint or COMMIT itself fails, or the connection ends, every member not yet
   * answered gets that error; tx() runs it again in a later batch after a deadlock, a serialization
   * failure, or a connection that ended before the COMMIT was sent (then nothing of it committed;
   * after, it may have: the caller gets the error).
   */
  async function runBatch(members: Member[]): Promise<void> {
    const alone = members.length === 1;
    const done: Attempt[] = [];
    const answered = new Set<Member>();
    const deferred: Member[] = [];
    const refused: Array<{ member: Member; error: unknown }> = [];
    let client: pg.PoolClient | undefined;
    let leading: LeadingClient | undefined;
    let broken: Error | undefined;
    let committing = false;
    try {
      try {
        reach.check();
        client = await pool.connect();
      } catch (e) {
        reach.saw(e);
        // No connection within the connect timeout (the database is down or the network silent):
        // the transactions waiting behind this batch would only wait as long again, one batch at a
        // time. They are answered now, with this error (503 DATABASE_UNAVAILABLE).
        for (const member of waiting.splice(0)) member.reject(e);
        throw e;
      }
      leading = contextOf(client).leading;
      let queue = members;
      let savepoints = 0;
      // A savepoint kept after a rollback to it, for the next member; whether lock_timeout is short.
      let kept: string | undefined;
      let shortLockWait = false;
      // After a failure, the rest of the batch runs a member at a time: a run of refused payments
      // would otherwise run every member behind each of them again, n²/2 times in all.
      let pipelined = true;
      while (queue.length > 0) {
        const run: Attempt[] = [];
        for (const member of queue) {
          let control: Promise<unknown> = Promise.resolve();
          let savepoint: string;
          if (kept) {
            savepoint = kept;
            kept = undefined;
          } else {
            savepoint = `member_${savepoints++}`;
            // From the second member on, the batch holds the earlier members' row locks: a member
            // that would wait for another batch's lock gives up quickly and runs in a later batch,
            // so two batches never wait on each other in a cycle (a deadlock PostgreSQL would take
            // a second to find, once per member). The first member holds nothing yet, so it may wait.
            // Set before the savepoint, the shorter wait outlasts a rollback to it.
            const first = savepoint === 'member_0';
            const lockWait = !first && !shortLockWait ? `set local lock_timeout = ${BATCH_LOCK_WAIT_MS}; ` : '';
            if (lockWait) shortLockWait = true;
            control = leading.lead(alone ? 'begin' : `${first ? 'begin; ' : ''}${lockWait}savepoint ${savepoint}`);
          }
          const mayDefer = shortLockWait;
          const ctx = contextOf(client);
          let outcome: Attempt['outcome'];
          try {
            // A statement error its code caught is its error: it aborted the transaction.
            outcome = outcomeOf(ctx, { value: await member.caller.runInAsyncScope(() => als.run(ctx, () => member.fn(ctx.trx))) });
          } catch (error) {
            outcome = { error };
          }
          if ('error' in outcome) ctx.appends.discard();
          else ctx.appends.flush();
          run.push({ member, ctx, control, tails: ctx.appends.takeTails(), outcome, savepoint, mayDefer });
          // Its code failed: nothing after it is worth writing until it is rolled back.
          if ('error' in outcome || !pipelined) break;
        }
        leading.letGo();
        let failed: { at: number; problem: Problem } | undefined;
        for (const [at, attempt] of run.entries()) {
          const problem = await firstProblem(attempt.control, attempt.tails, attempt.outcome);
          if (problem) {
            failed = { at, problem };
            break;
          }
          done.push(attempt);
        }
        queue = queue.slice(run.length);
        if (!failed) continue;
        pipelined = false;
        const attempt = run[failed.at];
        const { problem } = failed;
        // The connection ended: the batch's error, not this member's own (below).
        if ('error' in problem && connectionLost(client, problem.error)) throw problem.error;
        // A refusal is explained inside the transaction, before its rollback (alone) or after it.
        const errorOf = async () =>
          'error' in problem ? problem.error : attempt.member.caller.runInAsyncScope(() => als.run(contextOf(client!), () => refusal(problem.refused)));
        if (alone) throw await errorOf();
        await leading.query(`rollback to savepoint ${attempt.savepoint}`);
        const error = await errorOf();
        if (connectionLost(client, error)) throw error;
        kept = attempt.savepoint;
        shortLockWait = attempt.mayDefer;
        if (attempt.mayDefer && (error as { code?: string }).code === LOCK_NOT_AVAILABLE) deferred.push(attempt.member);
        // Answered once the batch commits: its refusal (INSUFFICIENT_FUNDS, a unique key taken) may
        // rest on an earlier member's work, and an answer recorded for an Idempotency-Key must not
        // outlive a batch that rolled back. Should the batch fail, it gets the batch's error (and
        // runs again with the others when nothing committed).
        else refused.push({ member: attempt.member, error });
        // The members after it ran on top of its work: they run again.
        queue = [...run.slice(failed.at + 1).map((a) => a.member), ...queue];
      }
      // A client whose connection already ended does not send the COMMIT: nothing committed, so the
      // members may run again (below); once it is written, the outcome is in doubt.
      committing = queryable(client);
      const committed = await leading.query('commit');
      // PostgreSQL answers COMMIT of an aborted transaction with ROLLBACK, and no error.
      if (committed.command !== 'COMMIT') throw new RolledBackAtCommit(committed.command);
      for (const { member, outcome, ctx } of done) {
        answered.add(member);
        runCommitted(ctx);
        member.resolve((outcome as { value: unknown }).value);
      }
      for (const { member, error } of refused) {
        answered.add(member);
        member.reject(error);
      }
      // First in line for the next batch, where the first of them may wait for the lock.
      for (const member of deferred) answered.add(member);
      waiting.unshift(...deferred);
    } catch (e) {
      reach.saw(e);
      if ((e instanceof RolledBackAtCommit || (!committing && client && connectionLost(client, e))) && typeof e === 'object' && e !== null) uncommitted.add(e);
      if (leading) await leading.query('rollback').catch((rollbackError: Error) => (broken = rollbackError));
      for (const member of members) if (!answered.has(member)) member.reject(e);
    } finally {
      // A client whose rollback failed is in an unknown state: the pool drops it.
      client?.release(broken);
    }
  }

  /**
   * Group commit on PostgreSQL (docs/decisions.md, "Scale"): up to `lanes` batches run at once,
   * each on its own client, and each commits once (at most MAX_BATCH members). With every lane free
   * a transaction starts at once, alone. Beside a busy lane, the transactions that arrive in one turn
   * of the event loop are looked at together at its end: they open a lane if they are LANE_FILL or
   * the oldest has waited LANE_WAIT_MS, else they wait for more, for a lane to free, or for the wait.
   */
  function pump() {
    gathering = false;
    while (lanesBusy < lanes && waiting.length > 0) {
      const waited = performance.now() - waiting[0].since;
      if (lanesBusy > 0 && waiting.length < LANE_FILL && waited < LANE_WAIT_MS) {
        laneTimer ??= setTimeout(() => {
          laneTimer = undefined;
          pump();
        }, LANE_WAIT_MS - waited);
        return;
      }
      lanesBusy++;
      void runBatch(waiting.splice(0, MAX_BATCH)).finally(() => {
        lanesBusy--;
        pump();
      });
    }
  }

  function inBatch<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({ fn, caller: new AsyncResource('corridor.transaction'), since: performance.now(), resolve: resolve as (value: unknown) => void, reject });
      if (lanesBusy === 0) pump();
      else if (!gathering) {
        gathering = true;
        setImmediate(pump);
      }
    });
  }

  const db: Database = {
    dialect: 'postgres',
    admin,
    stats,
    executor: () => als.getStore()?.trx ?? kysely,
    inTransaction: () => als.getStore() !== undefined,
    afterCommit(fn) {
      const open = als.getStore();
      if (open) open.committed.push(fn);
      else fn();
    },
    async tx(fn) {
      const open = als.getStore();
      if (open) return fn(open.trx);
      for (let n = 1; ; n++) {
        try {
          return await inBatch(fn);
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (n < 5 && ((code && RETRYABLE_PG.has(code)) || uncommitted.has(e as object))) continue;
          throw e;
        }
      }
    },
    query<T>(s: Statement, params: readonly unknown[]) {
      return (als.getStore()?.runner ?? poolRunner).query<T>(s, params);
    },
    execute(s, params) {
      const open = als.getStore();
      return open ? open.runner.execute(s, params) : db.tx(() => db.execute(s, params));
    },
    async append(s, params) {
      const open = als.getStore();
      if (open) return open.appends.add(s, params);
      await db.execute(s, params);
    },
    async appendGuarded(s, params, refused) {
      const open = als.getStore();
      if (open) return open.appends.addGuarded(s, params, refused);
      if ((await db.execute(s, params)) !== 1) throw await refusal(refused);
    },
    async lockRow<T>(table: string, key: Record<string, string>, lock: RowLock = 'update') {
      if (!als.getStore()) throw new Error('lockRow needs an open transaction');
      return (await db.query<T>(pgLocker(table, Object.keys(key), lock), Object.values(key)))[0];
    },
    async close() {
      await Promise.all([kysely.destroy(), admin.destroy()]);
      // Kysely ends a pool only once it used it; most statements go to the pool directly, and an
      // idle client left in it keeps a process alive for the pool's idle timeout.
      await Promise.all([pool, adminPool].filter((p) => !p.ending).map((p) => p.end()));
    },
  };
  return db;
}

/** Whether a client may still send a statement (pg refuses one on a client whose connection ended, without sending it). */
function queryable(client: pg.PoolClient): boolean {
  return (client as unknown as { _queryable?: boolean })._queryable !== false;
}

/**
 * A COMMIT that PostgreSQL answered with ROLLBACK: the transaction had been aborted by an error
 * nobody reported. Nothing of the batch is stored, so its members run again (tx()); should it
 * repeat, they fail with this error rather than be answered as if stored.
 */
export class RolledBackAtCommit extends Error {
  constructor(tag: string | null) {
    super(`the database answered COMMIT with ${tag ?? 'no command tag'}: the transaction was rolled back, nothing of it was stored`);
    this.name = 'RolledBackAtCommit';
  }
}

/** A short random name for a throwaway PostgreSQL schema. */
export function randomSchemaName(prefix = 't'): string {
  return `${prefix}_${Math.random().toString(36).slice(2, 12)}`;
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const pg = await loadPg();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type Driver, type SqliteDialectConfig } from 'kysely';
import type { DB } from './schema.js';
import { statement, type Statement } from './statements.js';

export type Dialect = 'sqlite' | 'postgres';
/** Something queries run on: the pool, or an open transaction (both are Kysely<DB>). */
export type Executor = Kysely<DB>;

export interface DatabaseOptions {
  /** postgres://… or, for SQLite, a file path or ':memory:' */
  url: string;
  sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** PostgreSQL schema to work in (tests use one per run); created if missing. */
  pgSchema?: string;
  poolSize?: number;
  /** PostgreSQL statement_timeout and idle_in_transaction_session_timeout in ms (0 or unset: the server's setting). */
  statementTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** How the SQLite write-ahead log is flushed to disk after a commit (tests hold it to watch the order). */
  syncWal?: (fd: number) => Promise<void>;
}

export interface Database {
  readonly dialect: Dialect;
  /** SQLite: FULL (a commit is acknowledged once on disk) or NORMAL (the operator's trade-off). */
  readonly sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** Runs fn in a write transaction, or joins the transaction already open in this async context. */
  tx<T>(fn: (trx: Executor) => Promise<T>): Promise<T>;
  /** The open transaction of this async context, else the pool: use it for reads. */
  executor(): Executor;
  /** Whether this async context is inside a transaction. */
  inTransaction(): boolean;
  /**
   * Runs fn once the open transaction of this async context has committed (and, on SQLite, is on
   * disk); never when it rolls back. Outside a transaction it runs at once. For caches of what
   * the transaction wrote: they must not learn of a write that may still be undone.
   */
  afterCommit(fn: () => void): void;
  /**
   * Runs a compiled statement (db/statements.ts) and answers its rows: in the open transaction of
   * this async context, else as a read of committed data.
   */
  query<T>(statement: Statement, params: readonly unknown[]): Promise<T[]>;
  /** Runs a compiled write statement in the open transaction (or a transaction of its own) and answers the number of rows it changed. */
  execute(statement: Statement, params: readonly unknown[]): Promise<number>;
  /**
   * Reads a row and holds it until the open transaction ends, so a decision taken on it cannot be
   * overtaken: `SELECT … FOR UPDATE` on PostgreSQL; on SQLite the write transaction is already
   * serial. `key`: column → value, e.g. `{ id }` or `{ platform_id, environment }`.
   */
  lockRow<T>(table: string, key: Record<string, string>): Promise<T | undefined>;
  /** The raw write connection, for migrations at start-up only (they manage their own transactions). */
  readonly admin: Executor;
  /** Statements sent to the database since start (transaction control included): /metrics shows it, the benchmark divides it per request. */
  readonly stats: DbStats;
  close(): Promise<void>;
}

export interface DbStats {
  statements: number;
}

/** Runs compiled statements on one connection (or the pool): rows, or the number of rows changed. */
interface Runner {
  query<T>(statement: Statement, params: readonly unknown[]): Promise<T[]>;
  execute(statement: Statement, params: readonly unknown[]): Promise<number>;
}

/** What an async context inside a transaction holds: the builder over its connection, and the runner of compiled statements on it. */
interface TxContext {
  trx: Executor;
  runner: Runner;
  /** afterCommit callbacks of this transaction */
  committed: Array<() => void>;
}

/** `select * from table where a = ? and b = ?` (+ for update), compiled once per table and key. */
function rowLocker(forUpdate: boolean) {
  const compiled = new Map<string, Statement>();
  return (table: string, columns: string[]): Statement => {
    const name = `${table}|${columns.join(',')}`;
    let s = compiled.get(name);
    if (!s) {
      if (![table, ...columns].every((c) => /^[a-z_]+$/.test(c))) throw new Error(`lockRow: bad name in ${name}`);
      s = statement(`select * from ${table} where ${columns.map((c) => `${c} = ?`).join(' and ')}${forUpdate ? ' for update' : ''}`);
      compiled.set(name, s);
    }
    return s;
  };
}

function runCommitted(ctx: TxContext) {
  for (const fn of ctx.committed) fn();
}

/** better-sqlite3 statements of one connection, prepared on first use. */
function sqliteRunner(native: SQLite.Database, stats: DbStats): Runner {
  const prepared = new Map<string, SQLite.Statement>();
  const prepare = (s: Statement) => {
    let stmt = prepared.get(s.name);
    if (!stmt) {
      stmt = native.prepare(s.sqlite);
      prepared.set(s.name, stmt);
    }
    return stmt;
  };
  return {
    async query<T>(s: Statement, params: readonly unknown[]) {
      stats.statements++;
      const stmt = prepare(s);
      if (stmt.reader) return stmt.all(...params) as T[];
      stmt.run(...params);
      return [];
    },
    async execute(s: Statement, params: readonly unknown[]) {
      stats.statements++;
      const stmt = prepare(s);
      return stmt.reader ? stmt.all(...params).length : stmt.run(...params).changes;
    },
  };
}

/** PostgreSQL named prepared statements: each connection parses a statement once and keeps its plan. */
function pgRunner(client: pg.Pool | pg.PoolClient, stats: DbStats): Runner {
  const run = (s: Statement, params: readonly unknown[]) => {
    stats.statements++;
    return client.query({ name: s.name, text: s.postgres, values: params as unknown[] });
  };
  return {
    async query<T>(s: Statement, params: readonly unknown[]) {
      return (await run(s, params)).rows as T[];
    },
    async execute(s: Statement, params: readonly unknown[]) {
      return (await run(s, params)).rowCount ?? 0;
    },
  };
}

/** Kysely's log hook, used only to count: one call per statement it sends. */
const counting = (stats: DbStats) => () => {
  stats.statements++;
};

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

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return isPostgresUrl(opts.url) ? openPostgres(opts) : openSqlite(opts);
}

function openNative(file: string, synchronous: 'FULL' | 'NORMAL', readonly: boolean): SQLite.Database {
  const native = new SQLite(file, { readonly });
  if (!readonly) native.pragma('journal_mode = WAL');
  native.pragma(`synchronous = ${synchronous}`);
  native.pragma('foreign_keys = ON');
  // Other processes (the CLI, a second node) may hold the write lock for a moment.
  native.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): the indexes a payment writes stay in memory as the tables grow.
  native.pragma('cache_size = -65536');
  native.defaultSafeIntegers(true);
  return native;
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small statement.
 * Statements are cached by their SQL text (bounded). Safe because better-sqlite3 runs each
 * statement to completion synchronously and Kysely never streams here.
 */
function withStatementCache(native: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (text: string) => {
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = native.prepare(text);
      if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
      cache.set(text, stmt);
    }
    return stmt;
  };
  return new Proxy(native, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

interface Batch {
  committed: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  committed.catch(() => undefined); // observed by the waiters; never an unhandled rejection
  return { committed, resolve, reject };
}

const fdatasync = (fd: number) => new Promise<void>((resolve, reject) => fs.fdatasync(fd, (e) => (e ? reject(e) : resolve())));

/**
 * Flushes the write-ahead log to disk off the event loop: what synchronous=FULL does inside every
 * COMMIT, where it would stop the whole process for the length of an fsync. The log exists once the
 * first write committed; its directory entry is flushed once too, as a new file needs.
 */
function createWalSyncer(dbFile: string, sync: (fd: number) => Promise<void>) {
  let fd: number | undefined;
  return {
    async sync(): Promise<void> {
      if (fd === undefined) {
        fd = fs.openSync(`${dbFile}-wal`, 'r');
        const dir = fs.openSync(path.dirname(path.resolve(dbFile)), 'r');
        try {
          await fdatasync(dir);
        } finally {
          fs.closeSync(dir);
        }
      }
      await sync(fd);
    },
    close() {
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}

/** A read connection whose every query first waits for `ready()` (see openSqlite: reads see only what is on disk). */
class GatedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly ready: () => Promise<void> | undefined,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      await this.ready();
      return acquire();
    };
    return driver;
  }
}

/**
 * SQLite: one write connection and, for a file database, one read connection.
 *
 * Group commit: writes are serial on the one write connection anyway, so the first transaction
 * of a turn of the event loop opens a database transaction and every transaction of that turn
 * runs as a savepoint inside it; one COMMIT (one fsync) on the next turn makes them all durable,
 * and only then do their callers get their results, so a 2xx still means durable. A failing
 * member rolls back to its savepoint alone.
 *
 * With synchronous=FULL the fsync runs off the event loop: the connection commits with
 * synchronous=NORMAL (consistent, not yet durable) and the log is then flushed with fdatasync on
 * libuv's thread pool, while the next group already runs. One group at a time waits for its flush:
 * the next group commits only after it. Reads outside a transaction use the read connection,
 * which sees committed data only (WAL), and wait for a flush in progress, so no one observes a
 * write before it is on disk.
 */
function openSqlite(opts: DatabaseOptions): Database {
  const memory = opts.url === ':memory:';
  if (!memory) fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const synchronous = opts.sqliteSynchronous ?? 'FULL';
  // FULL durability comes from flushing the log ourselves (above), so the connection need not.
  const wal = !memory && synchronous === 'FULL' ? createWalSyncer(opts.url, opts.syncWal ?? fdatasync) : undefined;
  const stats: DbStats = { statements: 0 };
  const writerNative = openNative(opts.url, wal ? 'NORMAL' : synchronous, false);
  const writer = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(writerNative) }), log: counting(stats) });
  const writerRunner = sqliteRunner(writerNative, stats);
  // Transaction control of the group commit, prepared once like every hot statement.
  const control = Object.fromEntries(
    (['begin immediate', 'savepoint tx', 'release tx', 'rollback to tx', 'commit', 'rollback'] as const).map((text) => [text, writerNative.prepare(text)]),
  ) as Record<'begin immediate' | 'savepoint tx' | 'release tx' | 'rollback to tx' | 'commit' | 'rollback', SQLite.Statement>;
  const run = (text: keyof typeof control) => {
    stats.statements++;
    control[text].run();
  };
  let flushing: Promise<void> | undefined;
  // An in-memory database exists once per connection, so it has no separate reader.
  const readerNative = memory ? writerNative : openNative(opts.url, synchronous, true);
  const reader = memory
    ? writer
    : new Kysely<DB>({ dialect: new GatedSqliteDialect({ database: withStatementCache(readerNative) }, () => flushing), log: counting(stats) });
  const readerRunner = memory ? writerRunner : sqliteRunner(readerNative, stats);
  const als = new AsyncLocalStorage<TxContext>();
  const sqliteLocker = rowLocker(false);
  let batch: Batch | undefined;
  let closed = false;
  // A failed flush leaves the disk's state unknown: every later write refuses, as PostgreSQL does.
  let broken: unknown;

  /** Commits the open group, then makes it durable: scheduled one event-loop turn after the group opened. */
  async function commitBatch(): Promise<void> {
    const group = await writer.connection().execute(async () => {
      const open = batch;
      if (!open) return undefined;
      batch = undefined;
      try {
        run('commit');
        return open;
      } catch (e) {
        try {
          run('rollback');
        } catch {
          /* already rolled back */
        }
        open.reject(e);
        return undefined;
      }
    });
    if (!group) return;
    if (!wal) return group.resolve();
    const flushed = wal.sync().then(group.resolve, (e) => {
      broken ??= e;
      group.reject(e);
    });
    flushing = flushed;
    await flushed;
    if (flushing === flushed) flushing = undefined;
  }

  /** Commits the open group once the previous group's flush is done, so one group at a time is committed but not yet durable. */
  function scheduleCommit() {
    setImmediate(() => {
      if (closed) return;
      if (flushing) void flushing.then(scheduleCommit);
      else void commitBatch();
    });
  }

  async function runInBatch<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    if (broken) throw broken;
    const outcome = await writer.connection().execute(async (conn) => {
      if (!batch) {
        run('begin immediate');
        batch = newBatch();
        // better-sqlite3 answers synchronously, so requests queue only across event-loop turns:
        // committing on a later turn lets every request that arrived meanwhile join this group.
        // close() commits the open group itself; a commit scheduled before it must not touch the closed connection.
        scheduleCommit();
      }
      const mine = batch;
      const ctx: TxContext = { trx: conn, runner: writerRunner, committed: [] };
      run('savepoint tx');
      try {
        const value = await als.run(ctx, () => fn(conn));
        run('release tx');
        return { ok: true as const, value, mine, ctx };
      } catch (error) {
        run('rollback to tx');
        run('release tx');
        return { ok: false as const, error, mine };
      }
    });
    if (!outcome.ok) throw outcome.error;
    await outcome.mine.committed;
    runCommitted(outcome.ctx);
    return outcome.value;
  }

  const db: Database = {
    dialect: 'sqlite',
    sqliteSynchronous: synchronous,
    admin: writer,
    stats,
    executor: () => als.getStore()?.trx ?? reader,
    inTransaction: () => als.getStore() !== undefined,
    afterCommit(fn) {
      const open = als.getStore();
      if (open) open.committed.push(fn);
      else fn();
    },
    tx(fn) {
      const open = als.getStore();
      return open ? fn(open.trx) : runInBatch(fn);
    },
    async query<T>(s: Statement, params: readonly unknown[]) {
      const open = als.getStore();
      if (open) return open.runner.query<T>(s, params);
      // Reads see only what is on disk (see above).
      if (flushing) await flushing;
      return readerRunner.query<T>(s, params);
    },
    execute(s, params) {
      const open = als.getStore();
      return open ? open.runner.execute(s, params) : runInBatch(() => writerRunner.execute(s, params));
    },
    async lockRow<T>(table: string, key: Record<string, string>) {
      return (await db.query<T>(sqliteLocker(table, Object.keys(key)), Object.values(key)))[0];
    },
    async close() {
      await flushing;
      await commitBatch();
      closed = true;
      wal?.close();
      await writer.destroy();
      if (reader !== writer) await reader.destroy();
    },
  };
  return db;
}

async function openPostgres(opts: DatabaseOptions): Promise<Database> {
  const pg = await loadPg();
  const schema = opts.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const setup = new pg.Client({ connectionString: opts.url });
    await setup.connect();
    try {
      await setup.query(`create schema if not exists ${schema}`);
    } finally {
      await setup.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: opts.url,
    max: opts.poolSize ?? 10,
    options: schema ? `-c search_path=${schema}` : undefined,
    // Startup parameters of their own (not `options`), so a DATABASE_URL carrying ?options=… keeps both.
    statement_timeout: opts.statementTimeoutMs || undefined,
    idle_in_transaction_session_timeout: opts.idleInTransactionTimeoutMs || undefined,
  });
  const stats: DbStats = { statements: 0 };
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), log: counting(stats) });
  const poolRunner = pgRunner(pool, stats);
  const pgLocker = rowLocker(true);
  const als = new AsyncLocalStorage<TxContext>();
  // A transaction runs on one pooled client: the builder and the compiled statements both use it.
  const contexts = new WeakMap<pg.PoolClient, Omit<TxContext, 'committed'>>();
  const contextOf = (client: pg.PoolClient): TxContext => {
    let ctx = contexts.get(client);
    if (!ctx) {
      // Kysely over this one client; it must not hand the client back to the pool itself.
      const held = new Proxy(client, { get: (target, prop) => (prop === 'release' ? () => undefined : Reflect.get(target, prop, target)) });
      const single = { connect: async () => held, end: async () => undefined } as unknown as pg.Pool;
      ctx = { trx: new Kysely<DB>({ dialect: new PostgresDialect({ pool: single }), log: counting(stats) }), runner: pgRunner(client, stats) };
      contexts.set(client, ctx);
    }
    return { ...ctx, committed: [] };
  };
  const control = (client: pg.PoolClient, text: string) => {
    stats.statements++;
    return client.query(text);
  };
  // Half the pool writes in batches; the rest serves reads outside transactions.
  const lanes = Math.max(1, Math.floor((opts.poolSize ?? 10) / 2));

  /** A transaction waiting for its turn in a batch. */
  interface Member {
    fn: (trx: Executor) => Promise<unknown>;
    /** Runs in the caller's async context (its sandbox clock, its trace), not in that of whoever started the batch. */
    inCallerContext: <R>(fn: () => R) => R;
    resolve: (value: unknown) => void;
    reject: (e: unknown) => void;
  }
  const waiting: Member[] = [];
  let lanesBusy = 0;

  /**
   * Runs the members as one database transaction on one client, a savepoint each (a batch of
   * one needs none); commits once, then answers each member whose work committed. A member that
   * throws is rolled back to its savepoint alone and answered with its error at once (none of its
   * work remains), unless it only had to wait for a lock (below). When BEGIN, a savepoint or COMMIT itself fails, every member not yet answered
   * gets that error (and tx() retries a deadlock or serialization failure in a later batch).
   */
  async function runBatch(members: Member[]): Promise<void> {
    const alone = members.length === 1;
    const done: Array<{ member: Member; value: unknown; ctx: TxContext }> = [];
    const answered = new Set<Member>();
    const deferred: Member[] = [];
    let client: pg.PoolClient | undefined;
    let broken: Error | undefined;
    try {
      client = await pool.connect();
      await control(client, 'begin');
      for (const [i, member] of members.entries()) {
        // From the second member on, the batch holds the earlier members' row locks: a member that
        // would wait for another batch's lock gives up quickly and runs in a later batch, so two
        // batches never wait on each other in a cycle (a deadlock PostgreSQL would take a second
        // to find, once per member). The first member holds nothing yet, so it may wait.
        if (i === 1) await control(client, `set local lock_timeout = ${BATCH_LOCK_WAIT_MS}`);
        if (!alone) await control(client, 'savepoint member');
        const ctx = contextOf(client);
        try {
          const value = await member.inCallerContext(() => als.run(ctx, () => member.fn(ctx.trx)));
          if (!alone) await control(client, 'release savepoint member');
          done.push({ member, value, ctx });
        } catch (e) {
          if (alone) throw e;
          await control(client, 'rollback to savepoint member');
          await control(client, 'release savepoint member');
          if (i > 0 && (e as { code?: string }).code === LOCK_NOT_AVAILABLE) {
            deferred.push(member);
            continue;
          }
          answered.add(member);
          member.reject(e);
        }
      }
      await control(client, 'commit');
      for (const { member, value, ctx } of done) {
        answered.add(member);
        runCommitted(ctx);
        member.resolve(value);
      }
      // First in line for the next batch, where the first of them may wait for the lock.
      for (const member of deferred) answered.add(member);
      waiting.unshift(...deferred);
    } catch (e) {
      if (client) await control(client, 'rollback').catch((rollbackError: Error) => (broken = rollbackError));
      for (const member of members) if (!answered.has(member)) member.reject(e);
    } finally {
      // A client whose rollback failed is in an unknown state: the pool drops it.
      client?.release(broken);
    }
  }

  /**
   * Group commit on PostgreSQL (docs/decisions.md, "Scale"): up to `lanes` batches run at once,
   * each on its own client; transactions that arrive while every lane is busy wait and form the
   * next batch (at most MAX_BATCH), which commits once. Under light load a transaction runs alone
   * at once, as before.
   */
  function pump() {
    while (lanesBusy < lanes && waiting.length > 0) {
      lanesBusy++;
      void runBatch(waiting.splice(0, MAX_BATCH)).finally(() => {
        lanesBusy--;
        pump();
      });
    }
  }

  function inBatch<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({ fn, inCallerContext: AsyncLocalStorage.snapshot(), resolve: resolve as (value: unknown) => void, reject });
      pump();
    });
  }

  const db: Database = {
    dialect: 'postgres',
    admin: kysely,
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
          if (n < 5 && code && RETRYABLE_PG.has(code)) continue;
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
    async lockRow<T>(table: string, key: Record<string, string>) {
      if (!als.getStore()) throw new Error('lockRow needs an open transaction');
      return (await db.query<T>(pgLocker(table, Object.keys(key)), Object.values(key)))[0];
    },
    async close() {
      await kysely.destroy();
    },
  };
  return db;
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

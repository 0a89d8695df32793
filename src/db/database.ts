import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { DB } from './schema.js';

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
}

export interface Database {
  readonly dialect: Dialect;
  /** Runs fn in a write transaction, or joins the transaction already open in this async context. */
  tx<T>(fn: (trx: Executor) => Promise<T>): Promise<T>;
  /** The open transaction of this async context, else the pool: use it for reads. */
  executor(): Executor;
  /** Whether this async context is inside a transaction. */
  inTransaction(): boolean;
  /** The raw write connection, for migrations at start-up only (they manage their own transactions). */
  readonly admin: Executor;
  close(): Promise<void>;
}

// PostgreSQL int8 → bigint, so money never passes through a float.
pg.types.setTypeParser(20, (v) => BigInt(v));

const RETRYABLE_PG = new Set(['40001', '40P01']); // serialization failure, deadlock

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

/**
 * SQLite: one write connection and, for a file database, one read connection.
 *
 * Group commit: writes are serial on the one write connection anyway, so the first transaction
 * of a turn of the event loop opens a database transaction and every transaction of that turn
 * runs as a savepoint inside it; one COMMIT (one fsync) on the next turn makes them all durable,
 * and only then do their callers get their results, so a 2xx still means durable. A failing member rolls back to
 * its savepoint alone. Reads outside a transaction use the read connection, which sees only
 * committed data (WAL), so no one observes a write before its commit is on disk.
 */
function openSqlite(opts: DatabaseOptions): Database {
  const memory = opts.url === ':memory:';
  if (!memory) fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const synchronous = opts.sqliteSynchronous ?? 'FULL';
  const writer = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(openNative(opts.url, synchronous, false)) }) });
  // An in-memory database exists once per connection, so it has no separate reader.
  const reader = memory ? writer : new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(openNative(opts.url, synchronous, true)) }) });
  const als = new AsyncLocalStorage<Executor>();
  let batch: Batch | undefined;
  let closed = false;

  /** Commits the open group: scheduled one event-loop turn after the group opened. */
  function commitBatch(): Promise<void> {
    return writer.connection().execute(async (conn) => {
      const group = batch;
      if (!group) return;
      batch = undefined;
      try {
        await sql`commit`.execute(conn);
        group.resolve();
      } catch (e) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        group.reject(e);
      }
    });
  }

  async function runInBatch<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    const outcome = await writer.connection().execute(async (conn) => {
      if (!batch) {
        await sql`begin immediate`.execute(conn);
        batch = newBatch();
        // better-sqlite3 answers synchronously, so requests queue only across event-loop turns:
        // committing on the next turn lets every request that arrived meanwhile join this group.
        // close() commits the open group itself; a commit scheduled before it must not touch the closed connection.
        setImmediate(() => {
          if (!closed) void commitBatch();
        });
      }
      const mine = batch;
      await sql`savepoint tx`.execute(conn);
      try {
        const value = await als.run(conn, () => fn(conn));
        await sql`release tx`.execute(conn);
        return { ok: true as const, value, mine };
      } catch (error) {
        await sql`rollback to tx`.execute(conn);
        await sql`release tx`.execute(conn);
        return { ok: false as const, error, mine };
      }
    });
    if (!outcome.ok) throw outcome.error;
    await outcome.mine.committed;
    return outcome.value;
  }

  return {
    dialect: 'sqlite',
    admin: writer,
    executor: () => als.getStore() ?? reader,
    inTransaction: () => als.getStore() !== undefined,
    tx(fn) {
      const open = als.getStore();
      return open ? fn(open) : runInBatch(fn);
    },
    async close() {
      await commitBatch();
      closed = true;
      await writer.destroy();
      if (reader !== writer) await reader.destroy();
    },
  };
}

async function openPostgres(opts: DatabaseOptions): Promise<Database> {
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
  });
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const als = new AsyncLocalStorage<Executor>();

  return {
    dialect: 'postgres',
    admin: kysely,
    executor: () => als.getStore() ?? kysely,
    inTransaction: () => als.getStore() !== undefined,
    async tx(fn) {
      const open = als.getStore();
      if (open) return fn(open);
      for (let attempt = 1; ; attempt++) {
        try {
          return await kysely.transaction().execute((trx) => als.run(trx, () => fn(trx)));
        } catch (e) {
          const code = (e as { code?: string }).code;
          if (attempt < 5 && code && RETRYABLE_PG.has(code)) continue;
          throw e;
        }
      }
    },
    async close() {
      await kysely.destroy();
    },
  };
}

/** A short random name for a throwaway PostgreSQL schema. */
export function randomSchemaName(prefix = 't'): string {
  return `${prefix}_${Math.random().toString(36).slice(2, 12)}`;
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

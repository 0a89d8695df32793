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

function openSqlite(opts: DatabaseOptions): Database {
  if (opts.url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const native = new SQLite(opts.url);
  native.pragma('journal_mode = WAL');
  native.pragma(`synchronous = ${opts.sqliteSynchronous ?? 'FULL'}`);
  native.pragma('foreign_keys = ON');
  // Other processes (the CLI, a second node) may hold the write lock for a moment.
  native.pragma('busy_timeout = 5000');
  native.defaultSafeIntegers(true);
  const kysely = new Kysely<DB>({ dialect: new SqliteDialect({ database: native }) });
  const als = new AsyncLocalStorage<Executor>();

  return {
    dialect: 'sqlite',
    executor: () => als.getStore() ?? kysely,
    inTransaction: () => als.getStore() !== undefined,
    async tx(fn) {
      const open = als.getStore();
      if (open) return fn(open);
      // One connection serves the process; BEGIN IMMEDIATE takes the write lock up front so a
      // read-then-write transaction never fails to upgrade when another process writes.
      return kysely.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await als.run(conn, () => fn(conn));
          await sql`commit`.execute(conn);
          return result;
        } catch (e) {
          await sql`rollback`.execute(conn).catch(() => undefined);
          throw e;
        }
      });
    },
    async close() {
      await kysely.destroy();
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

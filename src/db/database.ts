import type { Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { Statement } from './statements.js';
import type { RowLock } from './transaction-context.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/**
 * The database behind every repository: SQLite (src/db/sqlite.ts, the embedded default) or
 * PostgreSQL (src/db/postgres.ts), behind one interface. Both run transactions in groups that
 * commit once (docs/decisions.md, "Group commit").
 */
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
  /**
   * PostgreSQL, every wait bounded (docs/reliability.md, "Bounds"). Server side, per connection:
   * statement_timeout, idle_in_transaction_session_timeout (a transaction whose node went silent
   * gives its row locks back) and lock_timeout, in ms (0 or unset: the server's setting).
   */
  statementTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  lockTimeoutMs?: number;
  /** Client side: an answer awaited longer than this ends its connection (a silent network cut); 0 or unset: none. */
  queryTimeoutMs?: number;
  /** Client side: opening a connection, or waiting for a pooled one, longer than this fails; 0 or unset: none. */
  connectTimeoutMs?: number;
  /** TCP keep-alive probes on every connection after this much idle time (0 or unset: off). */
  keepAliveInitialDelayMs?: number;
  /** How the SQLite write-ahead log is flushed to disk after a commit (tests hold it to watch the order). */
  syncWal?: (fd: number) => Promise<void>;
  /** SQLite: log length in pages past which the writer has it restarted (sqlite-checkpointer.ts; tests lower it). */
  walRestartPages?: number;
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
   * A write whose outcome no caller waits for (rows appended under fresh ids: history, events,
   * deliveries, journal legs; list-count changes). In a PostgreSQL transaction consecutive appends
   * travel as one statement, sent before the transaction's next statement (or with it, when it
   * touches no table they write: Statement.touches) or before it ends, so a
   * failing append fails its transaction as any write does, only not at its own call. Elsewhere
   * (SQLite has no round trips to save, or no transaction is open) it runs at once. Never for a
   * write whose error a caller turns into an answer (a unique key's conflict): use execute.
   */
  append(statement: Statement, params: readonly unknown[]): Promise<void>;
  /**
   * An append that must change exactly one row: an update under a guard (an account's floor).
   * When it changes none, its transaction fails with the error `refused()` throws, which runs
   * inside the transaction (after the transaction's work since its savepoint is undone, where the
   * statement was sent ahead without waiting: on PostgreSQL, in a batch). Like an append, on
   * PostgreSQL it is sent without waiting for its answer, so the caller goes on at once.
   */
  appendGuarded(statement: Statement, params: readonly unknown[], refused: () => Promise<never>): Promise<void>;
  /**
   * Reads a row and holds it until the open transaction ends, so a decision taken on it cannot be
   * overtaken: `SELECT … FOR UPDATE` on PostgreSQL; on SQLite the write transaction is already
   * serial. `key`: column → value, e.g. `{ id }` or `{ platform_id, environment }`. With `share`,
   * others may hold it the same way at once (`FOR SHARE`), and only a change of it waits.
   */
  lockRow<T>(table: string, key: Record<string, string>, lock?: RowLock): Promise<T | undefined>;
  /** The raw write connection, for migrations at start-up only (they manage their own transactions). */
  readonly admin: Executor;
  /** Statements sent to the database since start (transaction control included): /metrics shows it, the benchmark divides it per request. */
  readonly stats: DbStats;
  close(): Promise<void>;
}

export interface DbStats {
  statements: number;
  /**
   * SQLite only: seconds the event loop spent inside better-sqlite3 (SQLite running a statement,
   * the driver binding its values and reading its rows). It runs on the event loop, so this is the
   * database's share of the server's own CPU time; /metrics shows it, the benchmark divides it per request.
   */
  sqliteSeconds?: number;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return isPostgresUrl(opts.url) ? openPostgres(opts) : openSqlite(opts);
}

export { dropPostgresSchema, randomSchemaName } from './postgres.js';
export { databaseUnavailable } from './faults.js';

import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type Driver, type SqliteDialectConfig } from 'kysely';
import type { DB } from './schema.js';
import { RESTART_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import type { Statement } from './statements.js';
import type { Database, DatabaseOptions, DbStats, Executor } from './database.js';
import { counting, refusal, rowLocker, runCommitted, watchedRunner, type RowLock, type TxContext } from './transaction-context.js';
import { inSqlite, sqliteRunner, withStatementCache } from './sqlite-statements.js';

function openNative(file: string, synchronous: 'FULL' | 'NORMAL', readonly: boolean): SQLite.Database {
  const native = new SQLite(file, { readonly });
  if (!readonly) native.pragma('journal_mode = WAL');
  native.pragma(`synchronous = ${synchronous}`);
  native.pragma('foreign_keys = ON');
  // Other processes (the CLI, a second node) may hold the write lock for a moment.
  native.pragma('busy_timeout = 5000');
  // Page cache (the default is 2 MiB): 64 MiB for reads, 16 MiB for the writer. A B-tree split
  // renumbers pages through the lock page (1 GiB into the file, never used), which leaves the cache's
  // highest page number there; each COMMIT then truncates the cache to the file's size by scanning
  // every slot of its hash table. With 64 MiB that scan was ~4% of a payment's CPU; with 16 MiB it is
  // a quarter, and the writer read no more pages from disk (docs/decisions.md, "Writer page cache").
  native.pragma(readonly ? 'cache_size = -65536' : 'cache_size = -16384');
  // The writer keeps its temporary files in memory, above all each savepoint's journal: every
  // member of a group commit runs in a savepoint, whose journal copies each page the member changes
  // (about 220 KiB for a payment) and past 64 KiB spilled to a file in /var/tmp, written 4 KiB per
  // system call. That journal only serves a rollback to the savepoint, never recovery after a
  // crash. Readers keep files for their sorts: a large GROUP BY (ledger verify) could fill memory.
  if (!readonly) native.pragma('temp_store = MEMORY');
  native.defaultSafeIntegers(true);
  return native;
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
 * write before it is on disk. Checkpoints (copying the log into the database file) run on a
 * thread of their own (sqlite-checkpointer.ts), never inside a COMMIT.
 */
export function openSqlite(opts: DatabaseOptions): Database {
  const memory = opts.url === ':memory:';
  if (!memory) fs.mkdirSync(path.dirname(path.resolve(opts.url)), { recursive: true });
  const synchronous = opts.sqliteSynchronous ?? 'FULL';
  const restartPages = opts.walRestartPages ?? RESTART_PAGES;
  // FULL durability comes from flushing the log ourselves (above), so the connection need not.
  const wal = !memory && synchronous === 'FULL' ? createWalSyncer(opts.url, opts.syncWal ?? fdatasync) : undefined;
  const stats: DbStats = { statements: 0, sqliteSeconds: 0 };
  const writerNative = openNative(opts.url, wal ? 'NORMAL' : synchronous, false);
  // Checkpoints run on a thread of their own, not inside a COMMIT on the event loop (sqlite-checkpointer.ts).
  const checkpointer = memory
    ? undefined
    : startCheckpointer(
        opts.url,
        synchronous,
        () => {
          if (writerNative.open) writerNative.pragma('wal_autocheckpoint = 1000');
        },
        restartPages,
      );
  if (checkpointer) writerNative.pragma('wal_autocheckpoint = 0');
  // A log that grew past twice its restart length (a reader held it) shrinks back when it restarts.
  writerNative.pragma(`journal_size_limit = ${2 * restartPages * Number(writerNative.pragma('page_size', { simple: true }))}`);
  const als = new AsyncLocalStorage<TxContext>();
  const current = () => als.getStore();
  const writer = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(writerNative, stats) }), log: counting(stats, current) });
  const writerRunner = sqliteRunner(writerNative, stats);
  // In a transaction, a statement's error fails it even when its code caught it (TxContext.failed).
  const txRunner = watchedRunner(writerRunner, current);
  // Transaction control of the group commit, prepared once like every hot statement.
  const control = Object.fromEntries(
    (['begin immediate', 'savepoint tx', 'release tx', 'rollback to tx', 'commit', 'rollback'] as const).map((text) => [text, writerNative.prepare(text)]),
  ) as Record<'begin immediate' | 'savepoint tx' | 'release tx' | 'rollback to tx' | 'commit' | 'rollback', SQLite.Statement>;
  const run = (text: keyof typeof control) => {
    stats.statements++;
    inSqlite(stats, () => control[text].run());
  };
  let flushing: Promise<void> | undefined;
  // An in-memory database exists once per connection, so it has no separate reader.
  const readerNative = memory ? writerNative : openNative(opts.url, synchronous, true);
  const reader = memory
    ? writer
    : new Kysely<DB>({ dialect: new GatedSqliteDialect({ database: withStatementCache(readerNative, stats) }, () => flushing), log: counting(stats) });
  const readerRunner = memory ? writerRunner : sqliteRunner(readerNative, stats);
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
    if (!wal) {
      checkpointer?.wrote();
      return group.resolve();
    }
    const flushed = wal.sync().then(
      () => {
        checkpointer?.wrote();
        group.resolve();
      },
      (e) => {
        broken ??= e;
        group.reject(e);
      },
    );
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
        // The last frames of a long log, so this transaction restarts it (sqlite-checkpointer.ts).
        if (checkpointer?.restartDue()) {
          stats.statements++;
          inSqlite(stats, () => writerNative.pragma('wal_checkpoint(PASSIVE)'));
        }
        run('begin immediate');
        batch = newBatch();
        // better-sqlite3 answers synchronously, so requests queue only across event-loop turns:
        // committing on a later turn lets every request that arrived meanwhile join this group.
        // close() commits the open group itself; a commit scheduled before it must not touch the closed connection.
        scheduleCommit();
      }
      const mine = batch;
      const ctx: TxContext = { trx: conn, runner: txRunner, committed: [] };
      run('savepoint tx');
      try {
        const value = await als.run(ctx, () => fn(conn));
        // Its code caught a statement's error and carried on: its work is not what it thinks.
        if (ctx.failed) throw ctx.failed.error;
        run('release tx');
        return { ok: true as const, value, mine, ctx };
      } catch (error) {
        run('rollback to tx');
        run('release tx');
        return { ok: false as const, error, mine };
      }
    });
    // A failure is answered once its group is committed too: a refusal may rest on an earlier
    // member's work, and must not be recorded (Idempotency-Key) if that work is lost; should the
    // group fail, the group's error is the answer.
    await outcome.mine.committed;
    if (!outcome.ok) throw outcome.error;
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
    async append(s, params) {
      await db.execute(s, params);
    },
    async appendGuarded(s, params, refused) {
      if ((await db.execute(s, params)) !== 1) throw await refusal(refused);
    },
    async lockRow<T>(table: string, key: Record<string, string>, lock: RowLock = 'update') {
      return (await db.query<T>(sqliteLocker(table, Object.keys(key), lock), Object.values(key)))[0];
    },
    async close() {
      await flushing;
      await commitBatch();
      closed = true;
      await checkpointer?.close();
      wal?.close();
      await writer.destroy();
      if (reader !== writer) await reader.destroy();
    },
  };
  return db;
}

// A 2xx means the write is durable: the embedded SQLite database runs in WAL mode, and with
// synchronous=FULL (the default; SQLITE_SYNCHRONOUS=NORMAL is the operator's trade-off) a commit is
// acknowledged, and visible to readers, only once the write-ahead log is flushed to disk
// (docs/decisions.md, "Group commit").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { openDatabase, type Database } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-durability-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function journalMode(db: Database) {
  return Object.values((await sql.raw('pragma journal_mode').execute(db.admin)).rows[0] as object)[0];
}

/** Turns of the event loop, enough for scheduled commits and flushes to start. */
const turns = async (n = 20) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

describe('SQLite durability', () => {
  it('opens a file database in WAL mode with FULL durability by default', async () => {
    const db = await openDatabase({ url: path.join(dir, 'default.db') });
    try {
      expect(await journalMode(db)).toBe('wal');
      expect(db.sqliteSynchronous).toBe('FULL');
    } finally {
      await db.close();
    }
  });

  it('the server configuration reaches the database: FULL unless SQLITE_SYNCHRONOUS=NORMAL', async () => {
    for (const [env, expected] of [
      [{}, 'FULL'],
      [{ SQLITE_SYNCHRONOUS: 'NORMAL' }, 'NORMAL'],
    ] as const) {
      const container = await createContainer(loadConfig({ ...env, DATA_DIR: path.join(dir, `server-${expected}`) }));
      try {
        expect(container.db.sqliteSynchronous).toBe(expected);
        expect(await journalMode(container.db)).toBe('wal');
      } finally {
        await container.close();
      }
    }
  });

  it('FULL: a write is answered, and seen by readers, only after its log flush; one group waits for its flush at a time', async () => {
    const flushes: Array<() => void> = [];
    const db = await openDatabase({
      url: path.join(dir, 'ordered.db'),
      // A real flush, held until the test lets it finish.
      syncWal: (fd) => new Promise<void>((resolve) => flushes.push(() => fs.fdatasync(fd, () => resolve()))),
    });
    try {
      await sql`create table t (v integer)`.execute(db.admin);
      const rows = async () =>
        (
          await db
            .executor()
            .selectFrom('t' as never)
            .selectAll()
            .execute()
        ).length;
      const state = { first: false, second: false, read: -1 };

      const first = db.tx((trx) => sql`insert into t values (1)`.execute(trx)).then(() => (state.first = true));
      // The first flush also flushes the directory once, for real: however long the disk takes.
      await vi.waitFor(() => expect(flushes).toHaveLength(1), { timeout: 20_000 }); // committed, flushing
      expect(state.first).toBe(false); // not answered before it is on disk
      const read = rows().then((n) => (state.read = n));
      const second = db.tx((trx) => sql`insert into t values (2)`.execute(trx)).then(() => (state.second = true));
      await turns();
      expect(state.read).toBe(-1); // a read waits for the flush in progress
      expect(flushes).toHaveLength(1); // the second group does not commit while the first flushes

      flushes[0]();
      await first;
      await read;
      expect(state.read).toBe(1); // the flushed row, not the second (not committed yet)
      await vi.waitFor(() => expect(flushes).toHaveLength(2), { timeout: 20_000 });
      expect(state.second).toBe(false);
      flushes[1]();
      await second;
      expect(await rows()).toBe(2);
    } finally {
      // A failed expectation must not leave a flush held: close() waits for it.
      for (const release of flushes) release();
      await db.close();
    }
  });

  it('FULL: a failed flush fails its writers and every later write (the disk state is unknown)', async () => {
    const db = await openDatabase({ url: path.join(dir, 'broken.db'), syncWal: async () => Promise.reject(new Error('EIO: i/o error')) });
    try {
      await sql`create table t (v integer)`.execute(db.admin);
      await expect(db.tx((trx) => sql`insert into t values (1)`.execute(trx))).rejects.toThrow('EIO');
      await expect(db.tx((trx) => sql`insert into t values (2)`.execute(trx))).rejects.toThrow('EIO');
    } finally {
      await db.close().catch(() => undefined);
    }
  });

  it('checkpoints run beside the writer: it never checkpoints inside a commit, and committed rows reach the database file itself', async () => {
    const file = path.join(dir, 'checkpointed.db');
    const db = await openDatabase({ url: file });
    try {
      const autocheckpoint = Object.values((await sql.raw('pragma wal_autocheckpoint').execute(db.admin)).rows[0] as object)[0];
      expect(Number(autocheckpoint)).toBe(0);
      await sql`create table t (v integer)`.execute(db.admin);
      for (let i = 0; i < 20; i++) await db.tx((trx) => sql`insert into t values (${i})`.execute(trx));
      // The database file alone (no write-ahead log beside it) holds the rows once the checkpointer copied them.
      const copy = path.join(dir, 'checkpointed-copy.db');
      const rowsInFileAlone = () => {
        fs.copyFileSync(file, copy);
        const alone = new SQLite(copy, { readonly: true });
        try {
          return (alone.prepare('select count(*) as n from t').get() as { n: number }).n;
        } catch {
          return 0; // the table itself is still only in the log
        } finally {
          alone.close();
        }
      };
      await vi.waitFor(() => expect(rowsInFileAlone()).toBe(20), { timeout: 20_000, interval: 50 });
    } finally {
      await db.close();
    }
  });

  it('under writes that never pause, the write-ahead log restarts instead of growing without end', async () => {
    const file = path.join(dir, 'restarting.db');
    const restartPages = 64;
    const db = await openDatabase({ url: file, walRestartPages: restartPages });
    // The log's header counts its restarts (the checkpoint sequence number, bytes 12-15).
    const restarts = () => {
      const header = Buffer.alloc(16);
      const fd = fs.openSync(`${file}-wal`, 'r');
      try {
        return fs.readSync(fd, header, 0, 16, 0) === 16 ? header.readUInt32BE(12) : 0;
      } finally {
        fs.closeSync(fd);
      }
    };
    try {
      await sql`create table t (v blob)`.execute(db.admin);
      const first = restarts();
      // One write after another, each about three pages: the log never stands still long enough
      // for a checkpoint beside the writer to copy all of it. Enough for many restart lengths.
      const blob = Buffer.alloc(10_000, 7);
      let writes = 0;
      while (restarts() < first + 2 && writes < 100 * restartPages) {
        await db.tx((trx) => sql`insert into t values (${blob})`.execute(trx));
        writes++;
      }
      expect(restarts()).toBeGreaterThanOrEqual(first + 2);
      const count = (await sql<{ n: number }>`select count(*) as n from t`.execute(db.executor())).rows[0].n;
      expect(Number(count)).toBe(writes);
    } finally {
      await db.close();
    }
  });
});

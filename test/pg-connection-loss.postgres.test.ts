// A PostgreSQL connection the server ends (a restart, a failover, `pg_terminate_backend`) fails what
// ran on it and nothing else: the process lives on, the next statements get new connections, and a
// transaction whose COMMIT had not been sent yet runs again.
// node-postgres reports such an end as an 'error' event, which ends a process that has no listener
// for it. SQLite has no connections to lose, so this file runs on PostgreSQL only.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { PG_URL } from './helpers/env.js';
import { freshDatabase } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';

const BACKEND = statement('select pg_backend_pid() as pid');
const DIVIDE_BY_ZERO = statement('select 1 / 0 as never');

describe('PostgreSQL connections ended by the server', () => {
  let db: Database;
  let drop: () => Promise<void>;
  let admin: pg.Client;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.close();
    await drop();
  });

  const terminate = (pid: unknown) => admin.query('select pg_terminate_backend($1)', [pid]);
  const gone = async (pid: unknown) => {
    for (let i = 0; i < 100; i++) {
      if ((await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])).rowCount === 0) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`backend ${String(pid)} did not end`);
  };

  it('a transaction whose connection ends before its commit runs again on a new connection, and commits once', async () => {
    await sql`create table lost_t (k text primary key)`.execute(db.admin);
    const backends: unknown[] = [];
    await db.tx(async (trx) => {
      const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0];
      backends.push(pid);
      await sql`insert into lost_t (k) values ('once')`.execute(trx);
      if (backends.length === 1) {
        await terminate(pid);
        await gone(pid);
      }
      await sql`select 1`.execute(trx);
    });
    expect(backends).toHaveLength(2);
    expect(backends[1]).not.toBe(backends[0]);
    expect((await sql`select k from lost_t`.execute(db.admin)).rows).toEqual([{ k: 'once' }]);
  });

  it('when the connection of a batch ends, every member not yet committed runs again, each committing once', async () => {
    await sql`create table lost_batch (k text primary key)`.execute(db.admin);
    const lane = await holdTransaction(db, async () => undefined);
    let ended = false;
    const member = (k: string, end: boolean) =>
      db.tx(async (trx) => {
        await sql`insert into lost_batch (k) values (${k})`.execute(trx);
        if (end && !ended) {
          ended = true;
          const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0];
          await terminate(pid);
          await gone(pid);
          await sql`select 1`.execute(trx);
        }
      });
    // Three transactions beside a busy lane form one batch; the second ends its connection once.
    const outcomes = await Promise.allSettled([member('a', false), member('b', true), member('c', false)]);
    await lane.release();
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect((await sql`select k from lost_batch order by k`.execute(db.admin)).rows).toEqual([{ k: 'a' }, { k: 'b' }, { k: 'c' }]);
  });

  it('a transaction whose connection ends after its last statement, noticed only at COMMIT, runs again and commits once', async () => {
    await sql`create table lost_at_commit (k text primary key)`.execute(db.admin);
    let runs = 0;
    await db.tx(async (trx) => {
      runs++;
      await sql`insert into lost_at_commit (k) values ('once')`.execute(trx);
      if (runs === 1) {
        const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0];
        await terminate(pid);
        await gone(pid);
        // The client hears of the end while no statement of the transaction is running.
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    // The COMMIT was never sent (the client refuses it), so nothing committed: safe to run again.
    expect(runs).toBe(2);
    expect((await sql`select k from lost_at_commit`.execute(db.admin)).rows).toEqual([{ k: 'once' }]);
  });

  it('a COMMIT that PostgreSQL answers with ROLLBACK is never taken for a commit', async () => {
    await sql`create table rolled_back (k text primary key)`.execute(db.admin);
    let runs = 0;
    const attempt = db.tx(async (trx) => {
      runs++;
      await sql`insert into rolled_back (k) values ('never')`.execute(trx);
      // A statement nobody waits for fails after the code returned: the transaction is aborted,
      // and PostgreSQL answers the COMMIT with the tag ROLLBACK and no error.
      void db.query(DIVIDE_BY_ZERO, []).catch(() => undefined);
    });
    await expect(attempt).rejects.toThrow(/ROLLBACK/);
    // Nothing was stored by any run, so each was safe to run again before the caller was told.
    expect(runs).toBe(5);
    expect((await sql`select k from rolled_back`.execute(db.admin)).rows).toEqual([]);
  });

  it('a transaction whose connection ends every time fails with that error after a few tries; the next one commits', async () => {
    let tries = 0;
    const attempt = db.tx(async (trx) => {
      tries++;
      const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0];
      await terminate(pid);
      await gone(pid);
      await sql`select 1`.execute(trx);
    });
    await expect(attempt).rejects.toThrow();
    expect(tries).toBe(5);
    const next = await db.tx(async (trx) => (await sql<{ one: number }>`select 1 as one`.execute(trx)).rows[0].one);
    expect(next).toBe(1);
  });

  it('a read whose connection ends while it runs is read again on another connection', async () => {
    const SLOW = statement("select pg_backend_pid() as pid, pg_sleep(0.3)::text as slept, 'slow read' as tag");
    const read = db.query<{ pid: number }>(SLOW, []);
    let pid: unknown;
    for (let i = 0; i < 100 && pid === undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      pid = (await admin.query(`select pid from pg_stat_activity where query like '%''slow read''%' and pid <> pg_backend_pid()`)).rows[0]?.pid;
    }
    expect(pid).toBeDefined();
    await terminate(pid);
    const [row] = await read;
    expect(row.pid).not.toBe(pid);
  });

  it('an idle pooled connection that ends is dropped; reads go on', async () => {
    const [{ pid }] = await db.query<{ pid: number }>(BACKEND, []);
    await terminate(pid);
    await gone(pid);
    // The pool hears of the end while the connection sits idle.
    await new Promise((r) => setTimeout(r, 100));
    const rows = await Promise.all(Array.from({ length: 3 }, () => db.query<{ pid: number }>(BACKEND, [])));
    expect(rows.every((r) => typeof r[0].pid === 'number')).toBe(true);
    expect(rows.some((r) => r[0].pid === pid)).toBe(false);
  });
});

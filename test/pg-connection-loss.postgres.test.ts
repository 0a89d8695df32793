// A PostgreSQL connection the server ends (a restart, a failover, `pg_terminate_backend`) fails what
// ran on it and nothing else: the process lives on and the next statements get new connections.
// node-postgres reports such an end as an 'error' event, which ends a process that has no listener
// for it. SQLite has no connections to lose, so this file runs on PostgreSQL only.
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { PG_URL } from './helpers/env.js';
import { freshDatabase } from './helpers/context.js';

const BACKEND = statement('select pg_backend_pid() as pid');

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

  it('a transaction whose connection ends fails with that error; the next one commits', async () => {
    const attempt = db.tx(async (trx) => {
      const { pid } = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0];
      await terminate(pid);
      await gone(pid);
      await sql`select 1`.execute(trx);
    });
    await expect(attempt).rejects.toThrow();
    const next = await db.tx(async (trx) => (await sql<{ one: number }>`select 1 as one`.execute(trx)).rows[0].one);
    expect(next).toBe(1);
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

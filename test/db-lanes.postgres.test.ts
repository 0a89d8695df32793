// Batch lanes on PostgreSQL (src/db/postgres.ts, LANE_FILL): while a lane is busy, transactions
// that arrive wait to fill one batch instead of opening a lane each, and a busy lane (here one held
// open) delays them only for a moment, never until it ends. And a batch's transaction control goes
// with its members' statements (src/db/pg-leading.ts). SQLite writes one group at a time, so this
// file runs on PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { freshDatabase } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';
import { socketWrites } from './helpers/socket-writes.js';

const DIVIDE_BY_ZERO = statement('select 1 / 0 as never');

describe('PostgreSQL batch lanes', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const txid = (trx: Parameters<Parameters<Database['tx']>[0]>[0]) =>
    sql<{ id: unknown }>`select txid_current() as id`.execute(trx).then((r) => String(r.rows[0].id));

  it('two transactions arriving beside a busy lane share one batch, and commit while that lane is still busy', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const busy = new Promise<void>((resolve) => (started = resolve));
    const held = db.tx(async (trx) => {
      const id = await txid(trx);
      started();
      await gate;
      return id;
    });
    await busy;

    const pair = await Promise.all([db.tx(txid), db.tx(txid)]);
    const heldId = await Promise.race([held, Promise.resolve('still held')]);
    release();
    expect(heldId).toBe('still held');
    expect(pair[0]).toBe(pair[1]);
    expect(await held).not.toBe(pair[0]);
  });

  // Transaction control (src/db/pg-leading.ts): a batch's `begin; savepoint member` and the
  // savepoint between members are written with the next member's statement, in one write.
  it('three transactions batched beside a busy lane take four round trips: a write with each statement, and the commit', async () => {
    // Connections open beforehand: opening one writes too.
    // On the pool transactions use (db.admin has connections of its own, for migrations).
    await Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.02)`.execute(db.executor())));
    const lane = await holdTransaction(db, async () => undefined);
    const before = db.stats.statements;
    const { value, writes } = await socketWrites(() =>
      Promise.all([1, 2, 3].map((n) => db.tx(async (trx) => (await sql<{ n: number }>`select ${n}::int as n`.execute(trx)).rows[0].n))),
    );
    const statements = db.stats.statements - before;
    await lane.release();
    expect(value).toEqual([1, 2, 3]);
    // Before: begin and savepoint, three statements, two savepoints between them, commit.
    expect(writes).toBe(4);
    expect(statements).toBe(4);
  });

  it('when the control ahead of a member fails, the batch fails with that error, commits nothing, and its connection serves on', async () => {
    await sql`create table lead_t (k text primary key)`.execute(db.admin);
    const lane = await holdTransaction(db, async () => undefined);
    const outcomes = await Promise.allSettled([
      // The first member leaves a failing statement behind that nobody waits for: its code has
      // returned before the error arrives, the transaction is aborted, so the savepoint ahead of
      // the second fails. (A failure its code awaits and catches fails that member alone:
      // test/db-swallowed-errors.test.ts.)
      db.tx(async (trx) => {
        await sql`insert into lead_t (k) values ('first')`.execute(trx);
        // A compiled statement is written at once, so it goes ahead of the next savepoint.
        void db.query(DIVIDE_BY_ZERO, []).catch(() => undefined);
      }),
      db.tx(async (trx) => sql`insert into lead_t (k) values ('second')`.execute(trx)),
      db.tx(async (trx) => sql`insert into lead_t (k) values ('third')`.execute(trx)),
    ]);
    await lane.release();
    expect(outcomes.map((o) => (o.status === 'rejected' ? (o.reason as { code?: string }).code : o.status))).toEqual(['25P02', '25P02', '25P02']);
    expect((await sql`select k from lead_t`.execute(db.admin)).rows).toEqual([]);
    await db.tx(async (trx) => sql`insert into lead_t (k) values ('after')`.execute(trx));
    expect((await sql`select k from lead_t`.execute(db.admin)).rows).toEqual([{ k: 'after' }]);
  });
});

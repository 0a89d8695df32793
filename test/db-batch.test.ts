// Group commit (docs/decisions.md, "Scale"): transactions that arrive together run as savepoints of
// one database transaction that commits once — on SQLite and on PostgreSQL. A member that fails
// rolls back alone; the others commit and are answered after the commit; each member runs in its
// own caller's async context.
import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { isUniqueViolation } from '../src/db/values.js';
import { freshDatabase } from './helpers/context.js';

describe('batched transactions', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await sql`create table batch_t (v integer primary key, txid text)`.execute(db.admin);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const rows = async () => (await sql<{ v: number | bigint }>`select v from batch_t order by v`.execute(db.executor())).rows.map((r) => Number(r.v));
  // PostgreSQL names the transaction a statement runs in; SQLite has one writer, so every group is one.
  const txid = async (trx: Parameters<Parameters<Database['tx']>[0]>[0]) =>
    db.dialect === 'postgres' ? String((await sql<{ id: unknown }>`select txid_current() as id`.execute(trx)).rows[0].id) : 'sqlite';

  it('a failing member rolls back alone while the others of its batch commit and answer', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Busy writers: what arrives beside them, in one turn, waits and forms one batch.
    const blockers = Array.from({ length: 8 }, (_, i) =>
      db.tx(async (trx) => {
        await sql`insert into batch_t (v) values (${1000 + i})`.execute(trx);
        await gate;
      }),
    );
    const caller = new AsyncLocalStorage<number>();
    const members = Array.from({ length: 6 }, (_, i) =>
      caller.run(i, () =>
        db.tx(async (trx) => {
          const me = caller.getStore();
          await sql`insert into batch_t (v, txid) values (${i}, ${await txid(trx)})`.execute(trx);
          if (i === 2) await sql`insert into batch_t (v) values (${1000})`.execute(trx); // a blocker's key: unique violation
          if (i === 4) throw new Error('member 4 changed its mind');
          return me;
        }),
      ),
    );
    open();
    const settled = await Promise.allSettled([...blockers, ...members]);
    const answers = settled.slice(8);
    expect(settled.slice(0, 8).every((s) => s.status === 'fulfilled')).toBe(true);
    // Each member ran in its own caller's context, whoever started the batch.
    expect(answers.map((s) => (s.status === 'fulfilled' ? s.value : 'failed'))).toEqual([0, 1, 'failed', 3, 'failed', 5]);
    expect(isUniqueViolation((answers[2] as PromiseRejectedResult).reason)).toBe(true);
    expect(((answers[4] as PromiseRejectedResult).reason as Error).message).toBe('member 4 changed its mind');
    // Nothing of the failed members remains; everything of the others does.
    expect((await rows()).filter((v) => v < 1000)).toEqual([0, 1, 3, 5]);
    expect((await rows()).filter((v) => v >= 1000)).toHaveLength(8);
    // They committed together: one transaction for the members that waited.
    const txids = (await sql<{ txid: string }>`select txid from batch_t where v < 1000`.execute(db.executor())).rows.map((r) => r.txid);
    expect(new Set(txids).size).toBe(1);
  });

  it('a member is answered only once its work is visible to everyone', async () => {
    const seen = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .tx((trx) => sql`insert into batch_t (v) values (${100 + i})`.execute(trx))
          .then(async () => (await sql<{ n: unknown }>`select count(*) as n from batch_t where v = ${100 + i}`.execute(db.executor())).rows[0].n),
      ),
    );
    expect(seen.map(Number)).toEqual(Array(10).fill(1));
  });
});

// A transaction whose code catches a database error and carries on must not be answered as if its
// work were stored. On PostgreSQL the error aborts the whole transaction: its COMMIT answers
// ROLLBACK without an error, so before, every member of the batch was answered 2xx with nothing
// stored. A statement's error inside a transaction now fails the transaction that ran it, whatever
// its code caught, on both databases; and a COMMIT that rolled back is never taken for a commit.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { freshDatabase } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';

const INSERT = statement('insert into swallow_t (k) values (?)');
const DIVIDE = statement('select 1 / cast(? as integer) as q');
const KEYS = statement('select k from swallow_t where k like ? order by k');

describe('a database error caught inside a transaction', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await sql`create table swallow_t (k text primary key)`.execute(db.admin);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const keys = async (prefix: string) => (await db.query<{ k: string }>(KEYS, [`${prefix}%`])).map((r) => r.k);
  const insert = (k: string) =>
    db.tx(async () => {
      await db.execute(INSERT, [k]);
      return k;
    });
  /** A member that writes, then runs a statement that fails and swallows its error (a division by zero; SQLite needs a real error, so a duplicate key there). */
  const swallowing = (k: string) =>
    db.tx(async (trx) => {
      await db.execute(INSERT, [k]);
      if (db.dialect === 'postgres') await db.query(DIVIDE, [0]).catch(() => undefined);
      else await db.execute(INSERT, [k]).catch(() => undefined);
      // The builder's statements are watched as well as the compiled ones.
      await sql`select * from no_such_table`.execute(trx).catch(() => undefined);
      return k;
    });

  it('fails the member that swallowed it, and only that member; the others commit', async () => {
    // A transaction held open first, so the three below queue and run as one batch on PostgreSQL.
    const lane = await holdTransaction(db, async () => undefined);
    const outcomes = Promise.allSettled([insert('b1'), insert('b2'), swallowing('b3')]);
    await lane.release();
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(await keys('b')).toEqual(['b1', 'b2']);
  });

  it('alone, fails with the database error and stores nothing', async () => {
    await expect(swallowing('alone')).rejects.toThrow();
    expect(await keys('alone')).toEqual([]);
  });

  it('a member after the one that swallowed runs on a clean transaction and commits', async () => {
    const lane = await holdTransaction(db, async () => undefined);
    const outcomes = Promise.allSettled([swallowing('c1'), insert('c2'), insert('c3')]);
    await lane.release();
    expect((await outcomes).map((o) => o.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(await keys('c')).toEqual(['c2', 'c3']);
  });
});

// Batched transactions on PostgreSQL whose writes need no answer — appends, and updates under a
// guard (Database.appendGuarded) — are not waited for one by one (src/db/postgres.ts, runBatch):
// the next member starts at once, and the batch goes to the database in one write. A member whose
// write fails or whose guard refuses is rolled back alone; the members written after it, whose
// work ran on top of its own, run again. SQLite runs each statement at once, so this file runs on
// PostgreSQL only (tests/db-appends.test.ts checks the guard on both).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { freshDatabase } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';
import { socketWrites } from './helpers/socket-writes.js';

const INSERT = statement('insert into pipe_t (k) values (?)');
const DEBIT = statement('update pipe_account set balance = balance - cast(? as integer) where id = ? and balance >= cast(? as integer)', {
  touches: ['pipe_account'],
});
const BALANCE = statement('select balance from pipe_account where id = ?');
const KEYS = statement('select k from pipe_t where k like ? order by k');

describe('PostgreSQL batches written at once', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await sql`create table pipe_t (k text primary key)`.execute(db.admin);
    await sql`create table pipe_account (id text primary key, balance integer not null)`.execute(db.admin);
    // Connections open beforehand: opening one writes too.
    // On the pool transactions use (db.admin has connections of its own, for migrations).
    await Promise.all(Array.from({ length: 5 }, () => sql`select pg_sleep(0.02)`.execute(db.executor())));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const fund = (id: string, balance: number) => sql`insert into pipe_account (id, balance) values (${id}, ${balance})`.execute(db.admin);
  const balanceOf = async (id: string) => Number((await db.query<{ balance: number }>(BALANCE, [id]))[0].balance);
  const keys = async (prefix: string) => (await db.query<{ k: string }>(KEYS, [`${prefix}%`])).map((r) => r.k);

  /** A payment's shape: a row appended, then an account debited under its floor; its refusal reads the balance. */
  const pay = (account: string, k: string, amount: number, runs?: Map<string, number>) =>
    db.tx(async () => {
      runs?.set(k, (runs.get(k) ?? 0) + 1);
      await db.append(INSERT, [k]);
      await db.appendGuarded(DEBIT, [amount, account, amount], async () => {
        const mine = await db.query<{ k: string }>(KEYS, [k]);
        throw new Error(`refused: balance ${await balanceOf(account)}, own row ${mine.length > 0 ? 'kept' : 'undone'}`);
      });
      return k;
    });

  it('five members that only append and debit reach the database in one write, and commit in a second', async () => {
    await fund('one-write', 100);
    const lane = await holdTransaction(db, async () => undefined);
    const before = db.stats.statements;
    const { value, writes } = await socketWrites(() => Promise.all([1, 2, 3, 4, 5].map((n) => pay('one-write', `w${n}`, 10))));
    const roundTrips = db.stats.statements - before;
    await lane.release();
    expect(value).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
    // Before: a write and a wait for each member's statement, then the commit.
    expect(writes).toBe(2);
    expect(roundTrips).toBe(2);
    expect(await balanceOf('one-write')).toBe(50);
    expect(await keys('w')).toEqual(['w1', 'w2', 'w3', 'w4', 'w5']);
  });

  it('a refused member gets the error its refusal gives, read after its own work is undone; those before commit, those after run again and commit', async () => {
    await fund('refusing', 25);
    const runs = new Map<string, number>();
    const lane = await holdTransaction(db, async () => undefined);
    const outcomes = await Promise.allSettled([
      pay('refusing', 'r1', 10, runs),
      pay('refusing', 'r2', 10, runs),
      pay('refusing', 'r3', 30, runs), // 5 left: refused
      pay('refusing', 'r4', 5, runs),
    ]);
    await lane.release();
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'r1',
      'r2',
      'refused: balance 5, own row undone',
      'r4',
    ]);
    expect(Object.fromEntries(runs)).toEqual({ r1: 1, r2: 1, r3: 1, r4: 2 });
    expect(await balanceOf('refusing')).toBe(0);
    expect(await keys('r')).toEqual(['r1', 'r2', 'r4']);
  });

  it('after a refusal the rest of the batch runs a member at a time: no member runs more than twice, however many are refused', async () => {
    await fund('storm', 25);
    const runs = new Map<string, number>();
    const lane = await holdTransaction(db, async () => undefined);
    const amounts = [10, 30, 30, 30, 10, 5];
    const outcomes = await Promise.allSettled(amounts.map((amount, i) => pay('storm', `s${i + 1}`, amount, runs)));
    await lane.release();
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'rejected', 'fulfilled', 'fulfilled']);
    // Each member behind the first refusal again once; before, the members behind every refusal again.
    expect(Object.fromEntries(runs)).toEqual({ s1: 1, s2: 1, s3: 2, s4: 2, s5: 2, s6: 2 });
    expect(await balanceOf('storm')).toBe(0);
    expect(await keys('s')).toEqual(['s1', 's5', 's6']);
  });

  it('a member whose append fails is answered with that error; the member after it runs again on top of the one before', async () => {
    await fund('failing', 100);
    await sql`insert into pipe_t (k) values ('f-taken')`.execute(db.admin);
    const runs = new Map<string, number>();
    const lane = await holdTransaction(db, async () => undefined);
    const outcomes = await Promise.allSettled([pay('failing', 'f1', 10, runs), pay('failing', 'f-taken', 10, runs), pay('failing', 'f3', 10, runs)]);
    await lane.release();
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as { code?: string }).code))).toEqual(['f1', '23505', 'f3']);
    expect(Object.fromEntries(runs)).toEqual({ f1: 1, 'f-taken': 1, f3: 2 });
    expect(await balanceOf('failing')).toBe(80);
    expect(await keys('f')).toEqual(['f-taken', 'f1', 'f3']);
  });

  it("a member behind another that would wait for another batch's row lock gives up at once, commits nothing, and runs first in a later batch where it waits", async () => {
    await fund('locked', 100);
    await fund('free', 100);
    const runs = new Map<string, number>();
    // Another batch holds the row of 'locked' until released.
    const lane = await holdTransaction(db, () => db.execute(DEBIT, [1, 'locked', 1]));
    const first = pay('free', 'l1', 10, runs);
    const second = pay('locked', 'l2', 10, runs);
    // The first commits while the row is still held; the second is not answered, and not an error.
    expect(await first).toBe('l1');
    expect(await Promise.race([second, new Promise((r) => setTimeout(() => r('waiting'), 100))])).toBe('waiting');
    await lane.release();
    expect(await second).toBe('l2');
    expect(Object.fromEntries(runs)).toEqual({ l1: 1, l2: 2 });
    expect(await balanceOf('locked')).toBe(89);
    expect(await keys('l')).toEqual(['l1', 'l2']);
  });

  it('alone, a refused member is explained inside its transaction and leaves nothing', async () => {
    await fund('alone', 5);
    await expect(pay('alone', 'a1', 10)).rejects.toThrow('refused: balance 5, own row kept');
    expect(await keys('a')).toEqual([]);
    expect(await balanceOf('alone')).toBe(5);
  });
});

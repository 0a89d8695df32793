// Appends (Database.append): writes no caller waits for. On PostgreSQL a transaction's consecutive
// appends travel as one statement, sent before its next statement or its end; on SQLite they run at
// once. Either way a transaction sees its own appends, and a failing append fails its transaction
// and leaves nothing of it.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { combine } from '../src/db/pg-appends.js';
import { statement } from '../src/db/statements.js';
import { isUniqueViolation } from '../src/db/values.js';
import { freshDatabase } from './helpers/context.js';

const INSERT = statement('insert into append_t (k, v) values (?, ?)');
const ADD = statement('insert into append_t (k, v) values (?, ?) on conflict (k) do update set v = append_t.v + excluded.v');
const READ = statement('select k, v from append_t where k like ? order by k');

describe('appends', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    await sql`create table append_t (k text primary key, v integer not null)`.execute(db.admin);
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const committed = async (prefix: string) => (await db.query<{ k: string; v: number | bigint }>(READ, [`${prefix}%`])).map((r) => [r.k, Number(r.v)] as const);

  it("a transaction's next statement, compiled or built, sees its appends; the commit keeps them", async () => {
    const seen = await db.tx(async (trx) => {
      await db.append(INSERT, ['a1', 1]);
      await db.append(INSERT, ['a2', 2]);
      const compiled = (await db.query<{ k: string }>(READ, ['a%'])).map((r) => r.k);
      await db.append(INSERT, ['a3', 3]);
      const built = (await sql<{ k: string }>`select k from append_t where k like 'a%' order by k`.execute(trx)).rows.map((r) => r.k);
      return { compiled, built };
    });
    expect(seen).toEqual({ compiled: ['a1', 'a2'], built: ['a1', 'a2', 'a3'] });
    expect(await committed('a')).toEqual([
      ['a1', 1],
      ['a2', 2],
      ['a3', 3],
    ]);
  });

  it('a failing append fails its transaction, and nothing of the transaction remains', async () => {
    await db.tx(() => db.append(INSERT, ['b-taken', 0]));
    const attempt = db.tx(async () => {
      await db.execute(INSERT, ['b1', 1]);
      await db.append(INSERT, ['b2', 2]);
      await db.append(INSERT, ['b-taken', 9]);
      return 'answered';
    });
    await expect(attempt).rejects.toSatisfy(isUniqueViolation);
    expect(await committed('b')).toEqual([['b-taken', 0]]);
  });

  it('among transactions committed together, the one whose append fails and the one that throws after appending leave nothing; the rest commit', async () => {
    await db.tx(() => db.append(INSERT, ['c-taken', 0]));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        db.tx(async () => {
          await db.append(INSERT, [`c${String(i).padStart(2, '0')}`, i]);
          if (i === 3) await db.append(INSERT, ['c-taken', 3]);
          if (i === 7) throw new Error('seven changed its mind');
          return i;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(Array.from({ length: 12 }, (_, i) => (i === 3 || i === 7 ? 'rejected' : 'fulfilled')));
    expect((await committed('c')).map(([k]) => k)).toEqual([
      'c-taken',
      ...Array.from({ length: 12 }, (_, i) => i)
        .filter((i) => i !== 3 && i !== 7)
        .map((i) => `c${String(i).padStart(2, '0')}`),
    ]);
  });

  it('a guarded append that changes no row fails its transaction with the error its refusal gives, and nothing of the transaction remains', async () => {
    const TAKE = statement('update append_t set v = v - cast(? as integer) where k = ? and v >= cast(? as integer)', { touches: ['append_t'] });
    await db.tx(() => db.append(INSERT, ['g-pot', 10]));
    const take = (amount: number, note: string) =>
      db.tx(async () => {
        await db.append(INSERT, [note, amount]);
        await db.appendGuarded(TAKE, [amount, 'g-pot', amount], async () => {
          throw new Error(`cannot take ${amount}`);
        });
        return note;
      });
    expect(await take(4, 'g-first')).toBe('g-first');
    await expect(take(7, 'g-second')).rejects.toThrow('cannot take 7');
    // A refusal that forgets to throw still fails its transaction.
    const careless = db.tx(async () => {
      await db.append(INSERT, ['g-third', 7]);
      await db.appendGuarded(TAKE, [7, 'g-pot', 7], async () => undefined as never);
    });
    await expect(careless).rejects.toThrow('a guarded update changed no row');
    expect(await committed('g')).toEqual([
      ['g-first', 4],
      ['g-pot', 6],
    ]);
  });

  it('the same statement appended twice runs twice: two upserts of one key add up', async () => {
    await db.tx(async () => {
      await db.append(ADD, ['d', 5]);
      await db.append(ADD, ['d', 7]);
    });
    expect(await committed('d')).toEqual([['d', 12]]);
  });

  it('on PostgreSQL consecutive appends cost one statement, the same statement again starts another; on SQLite each runs at once', async () => {
    const statementsOf = async (fn: () => Promise<void>) => {
      const before = db.stats.statements;
      await db.tx(fn);
      return db.stats.statements - before;
    };
    const twoKinds = await statementsOf(async () => {
      await db.append(INSERT, ['e1', 1]);
      await db.append(ADD, ['e2', 2]);
    });
    const sameTwice = await statementsOf(async () => {
      await db.append(INSERT, ['e3', 3]);
      await db.append(INSERT, ['e4', 4]);
    });
    // PostgreSQL counts round trips: the appends (one statement, or two) go in one write with the
    // begin ahead of them, then the commit. SQLite counts statements: begin, savepoint, two inserts, release, commit.
    expect([twoKinds, sameTwice]).toEqual(db.dialect === 'postgres' ? [2, 2] : [6, 6]);
    expect((await committed('e')).length).toBe(4);
  });

  it('a statement that touches only tables no queued append writes travels with them, answering its own count; one that touches them runs after them and sees them', async () => {
    await sql`create table append_other (k text primary key, v integer not null)`.execute(db.admin);
    await sql`insert into append_other (k, v) values ('o', 0)`.execute(db.admin);
    const BUMP_OTHER = statement('update append_other set v = v + 1 where k = ?', { touches: ['append_other'] });
    const COPY_INTO_OTHER = statement("update append_other set v = (select coalesce(sum(v), 0) from append_t where k like 'f%') where k = ?", {
      touches: ['append_other', 'append_t'],
    });
    const before = db.stats.statements;
    const counts = await db.tx(async () => {
      await db.append(INSERT, ['f1', 1]);
      await db.append(ADD, ['f2', 2]);
      const bumped = await db.execute(BUMP_OTHER, ['o']);
      await db.append(INSERT, ['f3', 3]);
      return [bumped, await db.execute(BUMP_OTHER, ['missing'])];
    });
    expect(counts).toEqual([1, 0]);
    // PostgreSQL: the two appends and the update (with the begin ahead of them), the third append and
    // the second update, commit. SQLite: begin, savepoint, five writes, release, commit.
    expect(db.stats.statements - before).toBe(db.dialect === 'postgres' ? 3 : 9);
    expect(await committed('f')).toEqual([
      ['f1', 1],
      ['f2', 2],
      ['f3', 3],
    ]);
    await db.tx(async () => {
      await db.append(INSERT, ['f4', 4]);
      expect(await db.execute(COPY_INTO_OTHER, ['o'])).toBe(1);
    });
    const [other] = await db.query<{ v: number | bigint }>(statement('select v from append_other where k = ?'), ['o']);
    expect(Number(other.v)).toBe(10);
  });
});

describe('combine', () => {
  it('runs the parts in order in one statement, each part reading its own parameters', () => {
    const one = combine([INSERT, ADD, INSERT]);
    expect(one.postgres).toBe(
      'with w0 as (insert into append_t (k, v) values ($1, $2)), ' +
        'w1 as (insert into append_t (k, v) values ($3, $4) on conflict (k) do update set v = append_t.v + excluded.v) ' +
        'insert into append_t (k, v) values ($5, $6)',
    );
    expect(combine([INSERT, ADD, INSERT])).toBe(one);
    expect(combine([INSERT])).toBe(INSERT);
  });
});

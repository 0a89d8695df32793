import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqlite } from './sqlite.js';
import { prepareSqlite } from './sqlite-statements.js';
import { statement } from './statements.js';

describe('prepareSqlite', () => {
  const native = new SQLite(':memory:');
  native.exec('create table t (id integer primary key)');
  for (let i = 1; i <= 5; i++) native.prepare('insert into t (id) values (?)').run(i);

  it('gives SQLite a bound LIMIT behind a unary plus, so binding it does not compile the statement again', () => {
    const stmt = prepareSqlite(native, 'select id from t order by id desc LIMIT ? offset ?');
    expect(stmt.source).toBe('select id from t order by id desc limit +? offset ?');
  });

  it('returns the rows a plain LIMIT returns, for every limit', () => {
    const stmt = prepareSqlite(native, 'select id from t order by id desc limit ?');
    const ids = (n: number) => stmt.all(n).map((r) => (r as { id: number }).id);
    expect(ids(0)).toEqual([]);
    expect(ids(2)).toEqual([5, 4]);
    expect(ids(9)).toEqual([5, 4, 3, 2, 1]);
    expect(ids(-1)).toEqual([5, 4, 3, 2, 1]); // a negative limit is none, as SQLite defines it
  });

  it('leaves a literal LIMIT and other SQL alone', () => {
    expect(prepareSqlite(native, 'select id from t limit 3').source).toBe('select id from t limit 3');
    expect(prepareSqlite(native, 'select id from t where id > ?').source).toBe('select id from t where id > ?');
  });
});

describe('time inside SQLite (corridor_db_sqlite_seconds_total)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-sqlite-time-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('grows with every kind of call into SQLite: the builder, compiled statements, transactions and their commit', async () => {
    const db = openSqlite({ url: path.join(dir, 'timed.db') });
    const spent = () => db.stats.sqliteSeconds!;
    try {
      expect(spent()).toBe(0);
      let before = spent();
      const grew = () => {
        const now = spent();
        const grown = now > before;
        before = now;
        return grown;
      };
      await sql`create table t (id integer primary key, v text)`.execute(db.admin);
      expect(grew()).toBe(true); // the builder's statement
      await db.tx(async () => {
        await db.execute(statement('insert into t (id, v) values (?, ?)'), [1, 'a']);
      });
      expect(grew()).toBe(true); // the compiled insert, its savepoint and the commit
      expect(await db.query(statement('select v from t where id = ?'), [1])).toEqual([{ v: 'a' }]);
      expect(grew()).toBe(true); // a compiled read on the read connection
      expect(
        await db
          .executor()
          .selectFrom('t' as never)
          .selectAll()
          .execute(),
      ).toHaveLength(1);
      expect(grew()).toBe(true); // a builder read
    } finally {
      await db.close();
    }
  });
});

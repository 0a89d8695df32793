import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { prepareSqlite } from './sqlite.js';

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

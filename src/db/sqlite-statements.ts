// How statements run on a SQLite connection: prepared once and kept, their rows built in one
// shape, and every call into better-sqlite3 timed (DbStats.sqliteSeconds).
import SQLite from 'better-sqlite3';
import type { Statement } from './statements.js';
import type { DbStats } from './database.js';
import type { Runner } from './transaction-context.js';

/**
 * Makes one call into better-sqlite3 and adds how long it took to stats.sqliteSeconds. The
 * checkpoints on their own thread and the log's flush on the thread pool are not counted: they do
 * not hold the event loop.
 */
export function inSqlite<T>(stats: DbStats, call: () => T): T {
  const start = performance.now();
  try {
    return call();
  } finally {
    stats.sqliteSeconds! += (performance.now() - start) / 1000;
  }
}

/**
 * A reading statement's rows as objects, built in JavaScript from its raw rows. better-sqlite3
 * builds each row through V8's generic property API — every column name interned again and the
 * object's shape changed once per column, for every row — which cost more than running the SQL
 * on a list page. A literal of the statement's columns gives every row one fixed shape at once.
 * (Repeated column names keep the last value, as better-sqlite3's objects do.)
 */
function rowsOf(stmt: SQLite.Statement, stats: DbStats): (params: readonly unknown[]) => unknown[] {
  const names = stmt.columns().map((c) => c.name);
  const row = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as (r: unknown[]) => unknown;
  stmt.raw(true);
  return (params) => {
    const raw = inSqlite(stats, () => stmt.all(...params) as unknown[][]);
    const rows = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) rows[i] = row(raw[i]);
    return rows;
  };
}

/**
 * Prepares SQL on a connection, with `limit ?` written `limit +?`. SQLite reads a LIMIT given as a
 * bare parameter to plan for its value, and so marks the statement to be compiled again whenever
 * that parameter is bound: every run of a list page paid a full parse and plan (about 7 µs, a
 * seventh of the query). Behind a unary plus it is an expression like any other: the same rows,
 * compiled once. Kysely writes `limit ?` for every `.limit(n)`, so all SQL comes through here.
 */
export function prepareSqlite(native: SQLite.Database, text: string): SQLite.Statement {
  return native.prepare(text.replace(/\blimit \?/gi, 'limit +?'));
}

/** better-sqlite3 statements of one connection, prepared on first use. */
export function sqliteRunner(native: SQLite.Database, stats: DbStats): Runner {
  interface Prepared {
    stmt: SQLite.Statement;
    rows?: (params: readonly unknown[]) => unknown[];
  }
  const prepared = new Map<string, Prepared>();
  const prepare = (s: Statement) => {
    let p = prepared.get(s.name);
    if (!p) {
      const stmt = prepareSqlite(native, s.sqlite);
      p = { stmt, rows: stmt.reader ? rowsOf(stmt, stats) : undefined };
      prepared.set(s.name, p);
    }
    return p;
  };
  return {
    async query<T>(s: Statement, params: readonly unknown[]) {
      stats.statements++;
      const { stmt, rows } = prepare(s);
      if (rows) return rows(params) as T[];
      inSqlite(stats, () => stmt.run(...params));
      return [];
    },
    async execute(s: Statement, params: readonly unknown[]) {
      stats.statements++;
      const { stmt, rows } = prepare(s);
      return inSqlite(stats, () => (rows ? stmt.all(...params).length : stmt.run(...params).changes));
    },
  };
}

/**
 * Kysely prepares every query afresh; preparing costs more than running a small statement.
 * Statements are cached by their SQL text (bounded). Safe because better-sqlite3 runs each
 * statement to completion synchronously and Kysely never streams here. Kysely gets the three calls
 * it makes of a statement; `all` and `run` are timed into stats.sqliteSeconds (`iterate`, for a
 * stream, is not used here).
 */
export function withStatementCache(native: SQLite.Database, stats: DbStats): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const counted = (stmt: SQLite.Statement) =>
    ({
      reader: stmt.reader,
      all: (params: unknown[]) => inSqlite(stats, () => stmt.all(params)),
      run: (params: unknown[]) => inSqlite(stats, () => stmt.run(params)),
      iterate: (params: unknown[]) => stmt.iterate(params),
    }) as unknown as SQLite.Statement;
  const prepare = (text: string) => {
    let stmt = cache.get(text);
    if (!stmt) {
      stmt = counted(prepareSqlite(native, text));
      if (cache.size >= 1000) cache.delete(cache.keys().next().value as string);
      cache.set(text, stmt);
    }
    return stmt;
  };
  return new Proxy(native, {
    get(target, prop) {
      if (prop === 'prepare') return prepare;
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

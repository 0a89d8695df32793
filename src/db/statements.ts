import type { Database } from './database.js';
/**
 * Statements compiled once (ARCHITECTURE, "The write path"): the hot paths run SQL text that each
 * connection prepares on first use and keeps (better-sqlite3 `Statement`s; PostgreSQL named
 * prepared statements), instead of a query the builder assembles afresh on every call. The text
 * is written with `?` placeholders; PostgreSQL's `$1, $2…` are derived from it. Where the two
 * dialects need different text, give both: db/ stays the only place that knows the difference.
 */
export interface Statement {
  /** Unique per process: PostgreSQL keeps the prepared plan per connection under this name. */
  readonly name: string;
  readonly sqlite: string;
  readonly postgres: string;
  /**
   * The only tables a statement reads or writes (none of them with a foreign key it checks): on
   * PostgreSQL it then travels in one statement with the appends its transaction has queued
   * (Database.append), as its last part, unless one of those writes one of these tables. That
   * spares the appends a round trip of their own. Without it, a statement runs after them.
   */
  readonly touches?: readonly string[];
}

let defined = 0;

export function statement(text: string | { sqlite: string; postgres: string }, options: { touches?: readonly string[] } = {}): Statement {
  const both = typeof text === 'string' ? { sqlite: text, postgres: text } : text;
  return { name: `corridor_${++defined}`, sqlite: both.sqlite, postgres: numberPlaceholders(both.postgres), ...options };
}

/** `?` → `$1, $2…`. Statement texts hold no literal question marks. */
function numberPlaceholders(text: string): string {
  let i = 0;
  return text.replace(/\?/g, () => `$${++i}`);
}

/** `(?, ?, ?), (?, ?, ?)`: the VALUES list of a multi-row insert of `rows` rows of `columns` columns. */
export function valuesList(rows: number, columns: number): string {
  const one = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => one).join(', ');
}

/**
 * A multi-row insert compiled once per row count (a payment writes 1 to a few rows per table):
 * `insertRows(n)` is the statement for n rows.
 */
export function multiRowInsert(table: string, columns: readonly string[], suffix = ''): (rows: number) => Statement {
  return byRowCount((rows) =>
    statement(`insert into ${table} (${columns.join(', ')}) values ${valuesList(rows, columns.length)}${suffix ? ` ${suffix}` : ''}`),
  );
}

/** A statement that depends on a row count, compiled once per count by `make`. */
export function byRowCount(make: (rows: number) => Statement): (rows: number) => Statement {
  const byCount = new Map<number, Statement>();
  return (rows) => {
    let s = byCount.get(rows);
    if (!s) byCount.set(rows, (s = make(rows)));
    return s;
  };
}

/**
 * The column list of a table, checked complete by the compiler: `columnsOf<Row>({ id: true, … })`
 * fails to compile when a column of Row is missing, so an insert can never drop a field.
 */
export function columnsOf<Row>(all: Record<keyof Row & string, true>): Array<keyof Row & string> {
  return Object.keys(all) as Array<keyof Row & string>;
}

/**
 * An insert of one whole row, compiled once: `insertRow(db, row)`. `append`: a row under a fresh id
 * that no caller waits for (Database.append); `execute` when a caller handles the insert's errors.
 */
export function rowInsert<Row, How extends 'execute' | 'append' = 'execute'>(table: string, columns: Array<keyof Row & string>, how?: How) {
  const insert = statement(`insert into ${table} (${columns.join(', ')}) values ${valuesList(1, columns.length)}`);
  return async (db: Pick<Database, How>, row: Row): Promise<void> => {
    const values = columns.map((c) => row[c]);
    await (how === 'append' ? (db as Pick<Database, 'append'>).append(insert, values) : (db as Pick<Database, 'execute'>).execute(insert, values));
  };
}

/** What both databases share: the async context of an open transaction, and helpers over it. */
import { statement, type Statement } from './statements.js';
import type { DbStats, Executor } from './database.js';

/** Runs compiled statements on one connection (or the pool): rows, or the number of rows changed. */
export interface Runner {
  query<T>(statement: Statement, params: readonly unknown[]): Promise<T[]>;
  execute(statement: Statement, params: readonly unknown[]): Promise<number>;
}

/** What an async context inside a transaction holds: the builder over its connection, and the runner of compiled statements on it. */
export interface TxContext {
  trx: Executor;
  runner: Runner;
  /** afterCommit callbacks of this transaction */
  committed: Array<() => void>;
}

/** `select * from table where a = ? and b = ?` (+ for update), compiled once per table and key. */
export function rowLocker(forUpdate: boolean) {
  const compiled = new Map<string, Statement>();
  return (table: string, columns: string[]): Statement => {
    const name = `${table}|${columns.join(',')}`;
    let s = compiled.get(name);
    if (!s) {
      if (![table, ...columns].every((c) => /^[a-z_]+$/.test(c))) throw new Error(`lockRow: bad name in ${name}`);
      s = statement(`select * from ${table} where ${columns.map((c) => `${c} = ?`).join(' and ')}${forUpdate ? ' for update' : ''}`);
      compiled.set(name, s);
    }
    return s;
  };
}

export function runCommitted(ctx: TxContext) {
  for (const fn of ctx.committed) fn();
}

/** Kysely's log hook, used only to count: one call per statement it sends. */
export const counting = (stats: DbStats) => () => {
  stats.statements++;
};

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
  /**
   * The first error a statement of this transaction met, whether or not the code that ran it caught
   * it. On PostgreSQL such an error aborts the transaction, whose COMMIT then rolls everything back
   * without an error; so a transaction whose code swallowed one fails with it on both databases.
   */
  failed?: { error: unknown };
}

/** `p`, whose rejection is also noted on the transaction it ran in (TxContext.failed). */
export function noted<T>(ctx: TxContext | undefined, p: Promise<T>): Promise<T> {
  if (!ctx) return p;
  return p.catch((error: unknown) => {
    ctx.failed ??= { error };
    throw error;
  });
}

/** A runner whose statements' errors are noted on the transaction open where they run. */
export function watchedRunner(runner: Runner, current: () => TxContext | undefined): Runner {
  return {
    query: (s, params) => noted(current(), runner.query(s, params)),
    execute: (s, params) => noted(current(), runner.execute(s, params)),
  };
}

/** How a transaction's code ended, corrected by what its statements met: a swallowed error is its error. */
export function outcomeOf<T>(ctx: TxContext, outcome: { value: T } | { error: unknown }): { value: T } | { error: unknown } {
  return 'value' in outcome && ctx.failed ? { error: ctx.failed.error } : outcome;
}

/** How a row is held: against every other writer of it (update) or only against changes (share). */
export type RowLock = 'update' | 'share';

/** `select * from table where a = ? and b = ?` (+ for update / for share where row locks exist), compiled once per table, key and lock. */
export function rowLocker(rowLocks: boolean) {
  const compiled = new Map<string, Statement>();
  return (table: string, columns: string[], lock: RowLock): Statement => {
    const name = `${table}|${columns.join(',')}|${lock}`;
    let s = compiled.get(name);
    if (!s) {
      if (![table, ...columns].every((c) => /^[a-z_]+$/.test(c))) throw new Error(`lockRow: bad name in ${name}`);
      s = statement(`select * from ${table} where ${columns.map((c) => `${c} = ?`).join(' and ')}${rowLocks ? ` for ${lock}` : ''}`);
      compiled.set(name, s);
    }
    return s;
  };
}

/**
 * Runs a committed transaction's afterCommit callbacks. One that throws is a bug of its own: it is
 * reported, and the others still run, so the transaction (and the rest of its batch) is answered
 * as what it is, committed.
 */
export function runCommitted(ctx: TxContext) {
  for (const fn of ctx.committed) {
    try {
      fn();
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : new Error(String(error)), 'AfterCommitError');
    }
  }
}

/** Kysely's log hook, used only to count: one call per statement it sends. */
export const counting = (stats: DbStats, current?: () => TxContext | undefined) => (event: { level: 'query' | 'error'; error?: unknown }) => {
  stats.statements++;
  // The builder's statements fail their transaction too (TxContext.failed).
  const ctx = event.level === 'error' ? current?.() : undefined;
  if (ctx) ctx.failed ??= { error: event.error };
};

/**
 * The error of a guarded write that changed no row (Database.appendGuarded): what its `refused`
 * throws, or, should it return, an error of our own, so a refusal can never let the write pass.
 */
export async function refusal(refused: () => Promise<never>): Promise<unknown> {
  try {
    await refused();
  } catch (error) {
    return error;
  }
  return new Error('a guarded update changed no row, and its refusal gave no error');
}

// Appends of a PostgreSQL transaction (Database.append): consecutive writes no caller waits for
// travel as one statement, so a payment's history, events, deliveries and journal legs cost one
// statement instead of one each; and it is sent without waiting for its answer (pg-leading.ts).
import type pg from 'pg';
import type { LeadingClient } from './pg-leading.js';
import type { Statement } from './statements.js';

/** PostgreSQL accepts at most 65,535 parameters per statement; a queue flushes well before. */
const MAX_PARAMS = 30_000;

const combined = new Map<string, Statement>();
let named = 0;

/** The highest `$n` of a statement: its parameter count. */
function parameterCount(text: string): number {
  let max = 0;
  for (const m of text.matchAll(/\$(\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/**
 * One statement running `parts` in order: every part but the last in a data-modifying WITH (which
 * PostgreSQL runs to completion whether or not the rest reads it), each part's `$n` moved past
 * the parameters of the parts before it. Compiled once per sequence of parts.
 */
export function combine(parts: readonly Statement[]): Statement {
  if (parts.length === 1) return parts[0];
  const key = parts.map((p) => p.name).join('+');
  let s = combined.get(key);
  if (!s) {
    let offset = 0;
    const texts = parts.map((p) => {
      const shifted = p.postgres.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
      offset += parameterCount(p.postgres);
      return shifted;
    });
    const last = texts.pop()!;
    s = { name: `corridor_with_${++named}`, sqlite: '', postgres: `with ${texts.map((t, i) => `w${i} as (${t})`).join(', ')} ${last}` };
    combined.set(key, s);
  }
  return s;
}

/** The table a queued part inserts into; undefined for a part whose table is not plain to see. */
const insertedTable = (s: Statement) => /^\s*insert into (\w+)/i.exec(s.postgres)?.[1];

/**
 * A statement of appends sent without waiting for its answer (LeadingClient.send). Whoever runs
 * the transaction awaits it before the commit: its error is the transaction's. `refused`: it ends
 * in a guarded update (Database.appendGuarded) that changed no row.
 */
export interface Tail {
  result: Promise<pg.QueryResult>;
  refused?: () => Promise<never>;
}

/** What went wrong with a batch member's work: a write's error, or a guarded update's refusal. */
export type Problem = { error: unknown } | { refused: () => Promise<never> };

/**
 * How a batch member's work ended, heard of in the order it was written: the first of its tails
 * that failed or whose guard was refused, else its code's own error; undefined when all went well.
 * Throws the error of the control written ahead of it (begin, a savepoint): the batch's error.
 */
export async function firstProblem(control: Promise<unknown>, tails: Tail[], outcome: { value: unknown } | { error: unknown }): Promise<Problem | undefined> {
  await control;
  for (const tail of tails) {
    let rows: number;
    try {
      rows = (await tail.result).rowCount ?? 0;
    } catch (error) {
      return { error };
    }
    if (tail.refused && rows !== 1) return { refused: tail.refused };
  }
  return 'error' in outcome ? { error: outcome.error } : undefined;
}

/** The appends waiting on one transaction's client. */
export function appendQueue(client: Pick<LeadingClient, 'send' | 'query'>) {
  let parts: Statement[] = [];
  let params: unknown[] = [];
  let tails: Tail[] = [];

  /** The queued parts as one statement, with `last` as its last part when given; the queue empties. */
  function take(last?: { s: Statement; values: readonly unknown[] }): pg.QueryConfig {
    const s = combine(last ? [...parts, last.s] : parts);
    const values = last ? [...params, ...last.values] : params;
    parts = [];
    params = [];
    return { name: s.name, text: s.postgres, values };
  }

  /** Sends what waits, without waiting for it: a tail of the transaction. */
  function flush(refused?: () => Promise<never>): void {
    if (parts.length > 0) tails.push({ result: client.send(take()), refused });
  }

  /**
   * Whether `s` may be the last part of a statement with what waits: it touches no table the queued
   * parts write (Statement.touches), since the parts of one statement do not see each other's rows.
   */
  function joins(s: Statement, values: readonly unknown[]): boolean {
    const { touches } = s;
    return (
      touches !== undefined &&
      parts.every((p) => {
        const table = insertedTable(p);
        return table !== undefined && !touches.includes(table) && p.name !== s.name;
      }) &&
      params.length + values.length <= MAX_PARAMS
    );
  }

  /** Makes room for a part: one statement never holds the same statement twice (two upserts of one key in one statement would be refused: a row cannot be affected twice by one command), nor too many parameters. */
  function room(s: Statement, values: readonly unknown[]) {
    if (parts.some((p) => p.name === s.name) || params.length + values.length > MAX_PARAMS) flush();
  }

  return {
    /** Queues a write. */
    add(s: Statement, values: readonly unknown[]): void {
      room(s, values);
      parts.push(s);
      params.push(...values);
    },
    /**
     * Queues a guarded update (Database.appendGuarded) as the last part of a statement sent at
     * once, so that the statement's row count is the update's; `refused` explains a count other than one.
     */
    addGuarded(s: Statement, values: readonly unknown[], refused: () => Promise<never>): void {
      if (!joins(s, values)) flush();
      parts.push(s);
      params.push(...values);
      flush(refused);
    },
    /** Sends what waits (before any other statement on the client, and before the transaction's savepoint is released or it commits). */
    flush: () => flush(),
    /**
     * Runs a statement after what waits: in one statement with it, as its last part (whose rows
     * and count the result holds), when it may join them (above); else after them, written together.
     */
    async run(s: Statement, values: readonly unknown[]): Promise<pg.QueryResult> {
      if (parts.length > 0 && joins(s, values)) return client.query(take({ s, values }));
      flush();
      return client.query({ name: s.name, text: s.postgres, values: values as unknown[] });
    },
    /** The tails sent since the last call: the caller now answers for them. */
    takeTails(): Tail[] {
      const sent = tails;
      tails = [];
      return sent;
    },
    /** Forgets what waits unsent: the member's code failed (what was sent is rolled back with its savepoint). */
    discard() {
      parts = [];
      params = [];
    },
  };
}

export type AppendQueue = ReturnType<typeof appendQueue>;

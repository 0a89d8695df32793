// Appends of a PostgreSQL transaction (Database.append): consecutive writes no caller waits for
// travel as one statement, so a payment's history, events, deliveries and journal legs cost one
// round trip instead of one each.
import type pg from 'pg';
import type { DbStats } from './database.js';
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

/** The appends waiting on one transaction's client. */
export function appendQueue(client: Pick<pg.PoolClient, 'query'>, stats: DbStats) {
  let parts: Statement[] = [];
  let params: unknown[] = [];

  /** Sends the queued parts, with `last` as the statement's last part when given. */
  function send(last?: { s: Statement; values: readonly unknown[] }): Promise<pg.QueryResult> {
    const s = combine(last ? [...parts, last.s] : parts);
    const values = last ? [...params, ...last.values] : params;
    parts = [];
    params = [];
    stats.statements++;
    return client.query({ name: s.name, text: s.postgres, values });
  }

  function flush(): Promise<void> | undefined {
    return parts.length === 0 ? undefined : send().then(() => undefined);
  }

  return {
    /**
     * Queues a write. One statement never holds the same statement twice: two upserts of one key
     * in one statement would be refused (a row cannot be affected twice by one command).
     */
    async add(s: Statement, values: readonly unknown[]): Promise<void> {
      if (parts.some((p) => p.name === s.name) || params.length + values.length > MAX_PARAMS) await flush();
      parts.push(s);
      params.push(...values);
    },
    /** Sends what waits (before any other statement on the client, and before the transaction's savepoint is released or it commits). */
    flush,
    /**
     * Runs a statement after what waits: in one statement with it, as its last part (whose rows
     * and count the result holds), when `s` touches no table the queued parts write
     * (Statement.touches); else once they are sent.
     */
    async run(s: Statement, values: readonly unknown[]): Promise<pg.QueryResult> {
      const { touches } = s;
      const joins =
        parts.length > 0 &&
        touches !== undefined &&
        parts.every((p) => {
          const table = insertedTable(p);
          return table !== undefined && !touches.includes(table);
        }) &&
        params.length + values.length <= MAX_PARAMS;
      if (joins) return send({ s, values });
      await flush();
      stats.statements++;
      return client.query({ name: s.name, text: s.postgres, values: values as unknown[] });
    },
    /** Forgets what waits: the transaction (or its savepoint) is being rolled back. */
    discard() {
      parts = [];
      params = [];
    },
  };
}

export type AppendQueue = ReturnType<typeof appendQueue>;

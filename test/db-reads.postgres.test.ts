// Reads outside a transaction on PostgreSQL (src/db/pg-reads.ts): those asked for in one turn of the
// event loop go out together, on one connection and in one write, and each still gets its own answer
// or its own error. SQLite reads on its own connection, in process, so this file runs on PostgreSQL only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { statement } from '../src/db/statements.js';
import { freshDatabase } from './helpers/context.js';
import { socketWrites } from './helpers/socket-writes.js';

const BACKEND = statement('select pg_backend_pid() as pid, ?::int as n');
const DIVIDE = statement('select 10 / ?::int as q');

describe('PostgreSQL reads outside a transaction', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
    // Connections open beforehand (opening one writes too), each with the statements prepared.
    await Promise.all(Array.from({ length: 40 }, (_, n) => db.query(BACKEND, [n])));
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  it('asked for in one turn, they share one connection and one write, each with its own answer', async () => {
    const { value, writes } = await socketWrites(() => Promise.all([1, 2, 3, 4, 5].map((n) => db.query<{ pid: number; n: number }>(BACKEND, [n]))));
    expect(value.map((rows) => rows[0].n)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(value.map((rows) => rows[0].pid)).size).toBe(1);
    expect(writes).toBe(1);
  });

  it('one that fails fails alone: the others of its write are answered', async () => {
    const outcomes = await Promise.allSettled([5, 0, 2].map((d) => db.query<{ q: number }>(DIVIDE, [d])));
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value[0].q : (o.reason as { code?: string }).code))).toEqual([2, '22012', 5]);
    // And the connections serve on.
    expect((await db.query<{ q: number }>(DIVIDE, [1]))[0].q).toBe(10);
  });

  it('asked for in different turns, they go in writes of their own', async () => {
    const { value, writes } = await socketWrites(async () => {
      const first = await db.query<{ n: number }>(BACKEND, [1]);
      const second = await db.query<{ n: number }>(BACKEND, [2]);
      return [first[0].n, second[0].n];
    });
    expect(value).toEqual([1, 2]);
    expect(writes).toBe(2);
  });
});

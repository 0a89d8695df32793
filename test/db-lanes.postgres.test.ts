// Batch lanes on PostgreSQL (src/db/postgres.ts, LANE_FILL): while a lane is busy, transactions
// that arrive wait to fill one batch instead of opening a lane each, and a busy lane (here one held
// open) delays them only for a moment, never until it ends. SQLite writes one group at a time, so
// this file runs on PostgreSQL only.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { freshDatabase } from './helpers/context.js';

describe('PostgreSQL batch lanes', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await freshDatabase());
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  const txid = (trx: Parameters<Parameters<Database['tx']>[0]>[0]) =>
    sql<{ id: unknown }>`select txid_current() as id`.execute(trx).then((r) => String(r.rows[0].id));

  it('two transactions arriving beside a busy lane share one batch, and commit while that lane is still busy', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const busy = new Promise<void>((resolve) => (started = resolve));
    const held = db.tx(async (trx) => {
      const id = await txid(trx);
      started();
      await gate;
      return id;
    });
    await busy;

    const pair = await Promise.all([db.tx(txid), db.tx(txid)]);
    const heldId = await Promise.race([held, Promise.resolve('still held')]);
    release();
    expect(heldId).toBe('still held');
    expect(pair[0]).toBe(pair[1]);
    expect(await held).not.toBe(pair[0]);
  });
});

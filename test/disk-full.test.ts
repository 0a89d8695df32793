// A full disk (issue 38; docs/reliability.md, "Database faults"). The database's files on a small
// filesystem the test makes (tmpfs, a size limit) and fills: SQLite's DATA_DIR; on PostgreSQL a
// tablespace holding the customers table. A write that cannot be stored answers 503 STORAGE_FULL
// with Retry-After and stores nothing, reads keep working, nothing acknowledged is lost, and
// writes succeed again by themselves once there is space.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, API_PREFIX } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import pg from 'pg';
import { dropPostgresSchema, openDatabase, randomSchemaName } from '../src/db/database.js';
import type { App } from '../src/http/types.js';
import { basic, dialect, PG_URL, TEST_KEK } from './helpers/context.js';
import { individual } from './helpers/factories.js';

const SIZE = '24m';

describe(`${dialect} on a full disk`, () => {
  let dir: string;
  let container: Container;
  let app: App;
  let auth: string;
  const filler = () => path.join(dir, 'filler');
  const schema = randomSchemaName('full');
  const superuser = async (fn: (c: pg.Client) => Promise<unknown>) => {
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    try {
      await fn(c);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE}`, 'tmpfs', dir]);
    // SQLite: FULL, every acknowledged write is flushed, as in production. PostgreSQL: the server
    // (on this machine) keeps the customers table in a tablespace on the small filesystem.
    const db =
      dialect === 'sqlite'
        ? await openDatabase({ url: path.join(dir, 'corridor.db'), sqliteSynchronous: 'FULL' })
        : await openDatabase({ url: PG_URL, pgSchema: schema, poolSize: 4 });
    container = await createContainer(loadConfig({ DATA_DIR: dir, CORRIDOR_KEK: TEST_KEK, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' }), { db });
    if (dialect === 'postgres') {
      execFileSync('chown', ['postgres:postgres', dir]);
      await superuser((c) => c.query(`create tablespace ${schema} location '${dir}'`));
      await superuser((c) => c.query(`alter table ${schema}.customers set tablespace ${schema}`));
    }
    app = await buildApp(container);
    const platform = await container.services.platforms.create('Full disk');
    const { row, clientSecret } = await container.services.tokens.issue({
      platformId: platform.id,
      environment: 'SANDBOX',
      name: 't',
      permissions: ['VIEW', 'MANAGE'],
    });
    auth = basic(row.client_id, clientSecret);
  });
  afterAll(async () => {
    await app?.close();
    await container?.close();
    if (dialect === 'postgres') {
      await dropPostgresSchema(PG_URL, schema);
      await superuser((c) => c.query(`drop tablespace if exists ${schema}`));
    }
    execFileSync('umount', [dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = async (body: ReturnType<typeof individual>, key: string) => {
    const res = await app.inject({ method: 'POST', url: `${API_PREFIX}/customers`, headers: { authorization: auth, 'idempotency-key': key }, payload: body });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  /** Fills the filesystem to its last byte. */
  function fill() {
    const fd = fs.openSync(filler(), 'w');
    const chunk = Buffer.alloc(64 * 1024, 1);
    try {
      for (;;) fs.writeSync(fd, chunk);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
    }
    // The last partial block too.
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(512, 1));
    } catch {
      /* full */
    }
    fs.closeSync(fd);
  }

  it('writes answer 503 STORAGE_FULL and store nothing, reads work, and writes come back once there is space', async () => {
    const acknowledged: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = individual({ fullName: `Before ${i}` });
      const r = await create(body, `before-${i}`);
      expect(r.status).toBe(201);
      acknowledged.push(body.platformCustomerId);
    }
    fill();
    // Writes until the log needs a page the disk no longer has.
    const refused: Array<{ body: ReturnType<typeof individual>; key: string }> = [];
    for (let i = 0; i < 2000 && refused.length < 3; i++) {
      const body = individual({ fullName: `Full ${i}` });
      const r = await create(body, `full-${i}`);
      if (r.status === 201) acknowledged.push(body.platformCustomerId);
      else {
        expect(r.status).toBe(503);
        expect(r.body).toMatchObject({ status: 503, code: 'STORAGE_FULL' });
        expect(r.headers['retry-after']).toBe('1');
        refused.push({ body, key: `full-${i}` });
      }
    }
    expect(refused.length).toBeGreaterThan(0);
    // Reads keep working on a full disk.
    const list = await app.inject({ method: 'GET', url: `${API_PREFIX}/customers?limit=100`, headers: { authorization: auth } });
    expect(list.statusCode).toBe(200);
    // Space returns: the same requests, retried with their keys, succeed without a restart.
    fs.rmSync(filler());
    for (const { body, key } of refused) {
      const r = await create(body, key);
      expect(r.status).toBe(201);
      acknowledged.push(body.platformCustomerId);
    }
    // Nothing acknowledged was lost, and nothing refused was stored twice.
    const stored = (await container.db.executor().selectFrom('customers').select('platform_customer_id').execute()).map((r) => r.platform_customer_id);
    for (const id of acknowledged) expect(stored.filter((s) => s === id)).toHaveLength(1);
    expect(stored).toHaveLength(acknowledged.length);
    const check = await container.db
      .executor()
      .selectNoFrom((eb) => eb.val(1).as('one'))
      .execute();
    expect(check).toHaveLength(1);
  }, 120_000);
});

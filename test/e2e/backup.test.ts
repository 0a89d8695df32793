import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { verifyLedger } from '../../src/ledger/verify.js';
import { dialect } from '../helpers/env.js';
import { serverEnvironment, startServer } from '../helpers/server.js';

const API = '/2025-10-13';
const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs `npx corridor …` without blocking this process, so requests keep flowing meanwhile. */
function cliAsync(args: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/corridor.js', ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npx corridor backup', { timeout: 180_000 }, async () => {
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  const server = await startServer(env);
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.baseUrl}${API}${url}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  };

  if (dialect === 'postgres') {
    it('on PostgreSQL refuses with a non-zero exit and points to pg_dump', async () => {
      const out = await cliAsync(['backup', '--to', path.join(dataDir, 'copy.db')], env);
      expect(out.status).not.toBe(0);
      expect(out.stderr).toContain('pg_dump');
      expect(fs.existsSync(path.join(dataDir, 'copy.db'))).toBe(false);
    });
    return;
  }

  it('restore drill: a copy taken while money moves opens, holds the data and its ledger verifies clean', async () => {
    const customer = await api('POST', '/customers', {
      platformCustomerId: 'backup-drill',
      customerType: 'INDIVIDUAL',
      fullName: 'Grace Hopper',
      currencies: ['USD'],
    });
    expect(customer.status).toBe(201);
    const accounts = await api('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customer.body.id)}`);
    const accountId = accounts.body.data[0].id;

    // Writes keep running for as long as the backup runs: fundings (ledger transfers) and customers.
    let running = true;
    let writes = 0;
    let failures = 0;
    const load = (async () => {
      for (let i = 0; running; i++) {
        const funded = await api('POST', `/sandbox/internal-accounts/${accountId}/fund`, { amount: 100 });
        const made = await api('POST', '/customers', { platformCustomerId: `drill-${i}`, customerType: 'INDIVIDUAL', fullName: 'Alan Turing' });
        if (funded.status === 200 && made.status === 201) writes++;
        else failures++;
      }
    })();
    const copy = path.join(dataDir, 'backups', 'corridor-copy.db');
    fs.mkdirSync(path.dirname(copy));
    const before = writes;
    const out = await cliAsync(['backup', '--to', copy, '--json'], env);
    const during = writes - before;
    running = false;
    await load;
    expect(out.status, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ file: copy });
    expect(failures).toBe(0);
    expect(during).toBeGreaterThan(0);

    // Restore: open the copy as the server would and prove it.
    const restored = await openDatabase({ url: copy, sqliteSynchronous: 'NORMAL' });
    try {
      expect(await verifyLedger(restored)).toEqual([]);
      const customers = await restored
        .executor()
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(customers.n)).toBeGreaterThanOrEqual(1 + before);
      const transfers = await restored
        .executor()
        .selectFrom('ledger_transfers')
        .select((eb) => eb.fn.countAll<bigint>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(transfers.n)).toBeGreaterThan(0);
    } finally {
      await restored.close();
    }
    // The live database is untouched by the copy and still serves.
    expect((await api('GET', `/internal-accounts/${accountId}`)).status).toBe(200);
  });

  it('refuses to overwrite an existing file', async () => {
    const existing = path.join(dataDir, 'exists.db');
    fs.writeFileSync(existing, 'keep me');
    const out = await cliAsync(['backup', '--to', existing], env);
    expect(out.status).not.toBe(0);
    expect(out.stderr).toContain('already exists');
    expect(fs.readFileSync(existing, 'utf8')).toBe('keep me');
  });
});

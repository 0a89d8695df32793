import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, serverEnvironment, startServer, type RunningServer } from '../helpers/server.js';

const API = '/2025-10-13';

describe('the real server process', async () => {
  const { env, dataDir, cleanup } = await serverEnvironment();
  let server: RunningServer = await startServer(env);
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  const creds = () => JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const authOf = (c: { clientId: string; clientSecret: string }) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;

  it('saves the bootstrap credentials with mode 0600 and, its output not being a terminal, prints where they are, not the secret', async () => {
    const c = creds();
    expect(c).toMatchObject({ environment: 'SANDBOX' });
    expect(server.output()).toContain(c.clientId);
    expect(server.output()).not.toContain(c.clientSecret);
    expect(server.output()).not.toContain(c.dashboardPassword);
    expect(server.output()).toContain(path.join(dataDir, 'credentials.json'));
    // The embedded default made its key-encryption key beside the database, readable only by its user.
    expect(fs.statSync(path.join(dataDir, 'kek.key')).mode & 0o777).toBe(0o600);
    expect(server.output()).toContain(`${server.baseUrl}${API}`);
    expect(server.output()).toContain('/docs');
    expect(fs.statSync(path.join(dataDir, 'credentials.json')).mode & 0o777).toBe(0o600);
  });

  it('serves the API, the OpenAPI document and the docs over HTTP', async () => {
    const auth = authOf(creds());
    const made = await fetch(`${server.baseUrl}${API}/customers`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ platformCustomerId: 'e2e-1', customerType: 'INDIVIDUAL', fullName: 'Edsger Dijkstra' }),
    });
    expect(made.status).toBe(201);
    const list = await (await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: auth } })).json();
    expect(list.totalCount).toBe(1);
    const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toContain(`${API}/customers`);
    expect((await fetch(`${server.baseUrl}/docs/`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}${API}/customers`)).status).toBe(401);
  });

  // Each CLI run starts a Node process afresh: a second or more apiece on a loaded machine.
  it('the CLI works against the same data while the server runs', { timeout: 120_000 }, async () => {
    const ping = async (c: { clientId: string; clientSecret: string }) =>
      (await fetch(`${server.baseUrl}${API}/ping`, { headers: { authorization: authOf(c) } })).json();
    const migrated = cli(['migrate'], env);
    expect(migrated.status, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('schema is up to date');
    const made = cli(['platform', 'create', '--name', 'CLI Co', '--json'], env);
    expect(made.status, made.stderr).toBe(0);
    const p = JSON.parse(made.stdout);
    // Exactly the documented form: scripts read these keys.
    expect(Object.keys(p).sort()).toEqual(['clientId', 'clientSecret', 'platformId']);
    expect(p.platformId).toMatch(/^Platform:/);
    expect(await ping(p)).toEqual({ ok: true, platformId: p.platformId, environment: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
    const res = await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: authOf(p) } });
    expect(res.status).toBe(200);
    const prod = cli(['token', 'create', '--platform', p.platformId, '--environment', 'PRODUCTION', '--permissions', 'VIEW', '--name', 'ro', '--json'], env);
    expect(prod.status, prod.stderr).toBe(0);
    const t = JSON.parse(prod.stdout);
    expect(Object.keys(t).sort()).toEqual(['clientId', 'clientSecret']);
    expect(t.clientId).toMatch(/^corr_live_/);
    expect(await ping(t)).toEqual({ ok: true, platformId: p.platformId, environment: 'PRODUCTION', permissions: ['VIEW'] });

    const denied = await fetch(`${server.baseUrl}${API}/tokens`, { headers: { authorization: authOf(t) } });
    expect(denied.status).toBe(403);
    const bad = cli(['token', 'create', '--platform', 'nope', '--json'], env);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--platform');
  });

  it('stops cleanly on SIGTERM and keeps its data across a restart without a second bootstrap', async () => {
    const before = creds();
    expect(await server.stop('SIGTERM')).toBe(0);
    server = await startServer(env);
    expect(server.output()).not.toContain('First start');
    expect(creds()).toEqual(before);
    const list = await (await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: authOf(before) } })).json();
    expect(list.data.map((c: any) => c.platformCustomerId)).toEqual(['e2e-1']);
  });

  it('fixed bootstrap credentials come from the environment', async () => {
    const fixed = await serverEnvironment();
    const s = await startServer({
      ...fixed.env,
      CORRIDOR_BOOTSTRAP_CLIENT_ID: 'ci_fixed_client',
      CORRIDOR_BOOTSTRAP_CLIENT_SECRET: 'fixed-secret-for-ci-000000',
    });
    try {
      const res = await fetch(`${s.baseUrl}${API}/customers`, {
        headers: { authorization: authOf({ clientId: 'ci_fixed_client', clientSecret: 'fixed-secret-for-ci-000000' }) },
      });
      expect(res.status).toBe(200);
    } finally {
      await s.stop();
      await fixed.cleanup();
    }
  });

  it('refuses to start with invalid configuration, saying what is wrong', async () => {
    const r = cli(['migrate'], { ...env, PORT: 'eighty' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('PORT must be an integer');
  });
});

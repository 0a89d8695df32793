import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialect } from '../helpers/env.js';
import { cli, serverEnvironment, startServer } from '../helpers/server.js';

const API = '/2025-10-13';

describe('operator commands for tokens and dashboard users', { timeout: 180_000 }, async () => {
  // No credential cache, so the server sees a revocation made by the CLI at once.
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  const server = await startServer({ ...env, AUTH_CACHE_TTL_MS: '0' });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const authOf = (c: { clientId: string; clientSecret: string }) => `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
  const ping = async (c: { clientId: string; clientSecret: string }) =>
    (await fetch(`${server.baseUrl}${API}/ping`, { headers: { authorization: authOf(c) } })).status;
  const signIn = async (email: string, password: string) => {
    const res = await fetch(`${server.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] };
  };
  const session = async (cookie: string) => (await fetch(`${server.baseUrl}/dashboard/api/session`, { headers: { cookie } })).status;

  it('token revoke: by id or client id, the token stops authenticating', async () => {
    const a = JSON.parse(cli(['token', 'create', '--platform', creds.platformId, '--json'], env).stdout);
    const b = JSON.parse(cli(['token', 'create', '--platform', creds.platformId, '--json'], env).stdout);
    expect(await ping(a)).toBe(200);
    expect(await ping(b)).toBe(200);
    const byClientId = cli(['token', 'revoke', a.clientId, '--json'], env);
    expect(byClientId.status, byClientId.stderr).toBe(0);
    expect(JSON.parse(byClientId.stdout)).toMatchObject({ clientId: a.clientId, platformId: creds.platformId });
    expect(await ping(a)).toBe(401);
    expect(await ping(b)).toBe(200);
    const tokenId = JSON.parse(byClientId.stdout).tokenId;
    const again = cli(['token', 'revoke', tokenId], env);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toContain('no active token');
  });

  it('user disable ends the sessions and refuses sign-in; enable lets the user in again', async () => {
    const made = cli(['user', 'create', '--platform', creds.platformId, '--email', 'leaver@example.com', '--password', 'first password 123', '--json'], env);
    expect(made.status, made.stderr).toBe(0);
    const before = await signIn('leaver@example.com', 'first password 123');
    expect(before.status).toBe(201);
    expect(await session(before.cookie)).toBe(200);

    const disabled = cli(['user', 'disable', '--email', 'Leaver@Example.com'], env);
    expect(disabled.status, disabled.stderr).toBe(0);
    expect(await session(before.cookie)).toBe(401);
    expect((await signIn('leaver@example.com', 'first password 123')).status).toBe(401);

    expect(cli(['user', 'enable', '--email', 'leaver@example.com'], env).status).toBe(0);
    expect((await signIn('leaver@example.com', 'first password 123')).status).toBe(201);
    expect(cli(['user', 'disable', '--email', 'nobody@example.com'], env).status).not.toBe(0);
  });

  it('user password sets a new one (generated when not given), ends the sessions, and the old one stops working', async () => {
    const before = await signIn('leaver@example.com', 'first password 123');
    expect(before.status).toBe(201);
    const changed = cli(['user', 'password', '--email', 'leaver@example.com', '--json'], env);
    expect(changed.status, changed.stderr).toBe(0);
    const { password } = JSON.parse(changed.stdout);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(await session(before.cookie)).toBe(401);
    expect((await signIn('leaver@example.com', 'first password 123')).status).toBe(401);
    expect((await signIn('leaver@example.com', password)).status).toBe(201);
    const short = cli(['user', 'password', '--email', 'leaver@example.com', '--password', 'short'], env);
    expect(short.status).not.toBe(0);
    // And every one of these commands is in the audit log, without a password.
    const log = cli(['audit', 'list', '--json', '--limit', '100'], env).stdout;
    for (const action of ['token revoke', 'user disable', 'user enable', 'user password']) expect(log).toContain(`"action":"${action}"`);
    expect(log).not.toContain(password);
  });
});

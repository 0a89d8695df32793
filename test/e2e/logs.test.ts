// Secrets never reach the logs: the real server at LOG_LEVEL=debug, driven with good and bad
// credentials, token creation and failing requests; its whole output is then searched for every
// secret and Authorization value it saw.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serverEnvironment, startServer } from '../helpers/server.js';

const API = '/2025-10-13';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('logs at debug level', async () => {
  const { env, dataDir, cleanup } = await serverEnvironment();
  const server = await startServer({ ...env, LOG_LEVEL: 'debug', AUTH_FAILURE_LIMIT: '3' });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = basic(creds.clientId, creds.clientSecret);

  it('carry no client secret, Authorization value or password', async () => {
    const secrets: string[] = [creds.clientSecret, auth, auth.slice(6), creds.dashboardPassword].filter(Boolean);
    const json = { authorization: auth, 'content-type': 'application/json' };
    // Tokens made through the API: their secrets are in the responses only.
    for (const permissions of [['VIEW'], ['VIEW', 'TRANSACT', 'MANAGE']]) {
      const res = await fetch(`${server.baseUrl}${API}/tokens`, {
        method: 'POST',
        headers: { ...json, 'idempotency-key': `log-${permissions.length}` },
        body: JSON.stringify({ name: 'log test', permissions }),
      });
      expect(res.status).toBe(201);
      const t = await res.json();
      secrets.push(t.clientSecret, basic(t.clientId, t.clientSecret));
      expect((await fetch(`${server.baseUrl}${API}/ping`, { headers: { authorization: basic(t.clientId, t.clientSecret) } })).status).toBe(200);
    }
    // Wrong secrets, a malformed header, a body that fails, a route that does not exist, a 429.
    const wrong = 'wrong-secret-that-must-not-be-logged-0000';
    secrets.push(wrong, basic(creds.clientId, wrong));
    for (let i = 0; i < 4; i++) await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: basic(creds.clientId, wrong) } });
    const limited = await fetch(`${server.baseUrl}${API}/customers`, { headers: { authorization: basic(creds.clientId, wrong) } });
    expect(limited.status).toBe(429);
    await fetch(`${server.baseUrl}${API}/customers`, { method: 'POST', headers: { ...json, authorization: `Bearer ${wrong}` }, body: '{"broken":' });
    await fetch(`${server.baseUrl}${API}/nothing-here`, { headers: { authorization: auth } });
    // Dashboard sign-in with a wrong password.
    const badPassword = 'not-the-password-9f8e7d6c';
    secrets.push(badPassword);
    await fetch(`${server.baseUrl}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.baseUrl },
      body: JSON.stringify({ email: 'admin@localhost', password: badPassword }),
    });

    await new Promise((r) => setTimeout(r, 300)); // let pino flush
    const output = server.output();
    // Not a terminal: the first start says where credentials.json is and prints no secret, so the
    // whole output (banner included) is searched.
    expect(output).toContain('Corridor is running');
    const logs = output;
    expect(logs).toContain('incoming request'); // request logging is on
    expect(logs).toContain('/customers');
    for (const secret of secrets) expect(logs.includes(secret), `a secret appears in the logs: ${secret.slice(0, 12)}…`).toBe(false);
    expect(logs).not.toMatch(/corr_(test|live)_[0-9a-f]{24}:[A-Za-z0-9_-]{20,}/);
  });
});

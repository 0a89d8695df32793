import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { sql } from 'kysely';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { basic, call, expectError, TEST_KEK, testContext } from './helpers/context.js';
import { serverEnvironment } from './helpers/server.js';

describe('token expiry', async () => {
  // No credential cache: every request asks the database, as another node would after AUTH_CACHE_TTL_MS.
  const ctx = await testContext({ env: { AUTH_CACHE_TTL_MS: '0' } });
  const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

  it('a token created with expiresAt works until then and answers 401 afterwards', async () => {
    const expiresAt = inAnHour();
    const made = await call(ctx, 'POST', '/tokens', { body: { name: 'temporary', permissions: ['VIEW'], expiresAt } });
    expect(made.status).toBe(201);
    expect(made.body.expiresAt).toBe(expiresAt);
    const auth = basic(made.body.clientId, made.body.clientSecret);
    expect((await call(ctx, 'GET', '/ping', { auth })).status).toBe(200);
    expect((await call(ctx, 'GET', `/tokens/${made.body.id}`)).body.expiresAt).toBe(expiresAt);

    // Its time passes.
    await ctx.container.db.tx((trx) =>
      trx
        .updateTable('tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', made.body.id)
        .execute(),
    );
    expectError(await call(ctx, 'GET', '/ping', { auth }), 401, 'UNAUTHORIZED');
    expectError(await call(ctx, 'GET', '/customers', { auth }), 401, 'UNAUTHORIZED');
  });

  it('a token without expiresAt never expires and has no expiresAt member', async () => {
    const made = await call(ctx, 'POST', '/tokens', { body: { name: 'forever', permissions: ['VIEW'] } });
    expect(made.status).toBe(201);
    expect('expiresAt' in made.body).toBe(false);
    expect((await call(ctx, 'GET', '/ping', { auth: basic(made.body.clientId, made.body.clientSecret) })).status).toBe(200);
  });

  it('refuses an expiresAt in the past or that is not a date-time', async () => {
    const past = expectError(
      await call(ctx, 'POST', '/tokens', { body: { name: 'late', permissions: ['VIEW'], expiresAt: '2020-01-01T00:00:00.000Z' } }),
      400,
      'INVALID_INPUT',
    );
    expect(JSON.stringify(past.details)).toContain('expiresAt');
    const garbage = expectError(
      await call(ctx, 'POST', '/tokens', { body: { name: 'bad', permissions: ['VIEW'], expiresAt: 'tomorrow' } }),
      400,
      'INVALID_INPUT',
    );
    expect(JSON.stringify(garbage.details)).toContain('expiresAt');
  });
});

describe('/metrics behind METRICS_TOKEN', async () => {
  const token = 'scrape-me-0123456789abcdef';
  const ctx = await testContext({ env: { METRICS_TOKEN: token } });

  it('answers 401 without the bearer token or with a wrong one, and the metrics with it', async () => {
    const none = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    const wrong = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.statusCode).toBe(401);
    const basicAuth = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: ctx.platform.auth } });
    expect(basicAuth.statusCode).toBe(401);
    const ok = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('corridor_http_requests_total');
    // Health checks stay open.
    expect((await ctx.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });

  it('stays open when METRICS_TOKEN is unset', async () => {
    const open = await testContext();
    expect((await open.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });
});

describe('request timeout', async () => {
  const ctx = await testContext({ env: { REQUEST_TIMEOUT_MS: '200' } });
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = ctx.app.server.address() as net.AddressInfo;
  afterAll(() => ctx.app.close());

  it('a client that never finishes its request is answered 408 and disconnected', async () => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    // Headers announce 100 bytes of body; only 10 ever come.
    socket.write(
      `POST ${API_PREFIX}/customers HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${ctx.platform.auth}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"platfor`,
    );
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    const stored = await ctx.container.db.executor().selectFrom('customers').select('id').execute();
    expect(stored).toEqual([]);
  });

  it('reads the timeouts from the environment', () => {
    expect(ctx.app.server.requestTimeout).toBe(200);
    expect(ctx.app.server.keepAliveTimeout).toBe(72_000);
  });
});

describe('PostgreSQL settings from the environment', () => {
  it('PG_STATEMENT_TIMEOUT_MS, PG_IDLE_IN_TRANSACTION_TIMEOUT_MS and PG_LOCK_TIMEOUT_MS reach every connection, beside the schema a DATABASE_URL chooses', async () => {
    const { env, cleanup } = await serverEnvironment('postgres');
    try {
      const container = await createContainer(
        loadConfig({
          ...env,
          CORRIDOR_KEK: TEST_KEK,
          PG_POOL_SIZE: '3',
          PG_STATEMENT_TIMEOUT_MS: '45000',
          PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '90000',
          PG_LOCK_TIMEOUT_MS: '7000',
          PG_QUERY_TIMEOUT_MS: '50000',
        }),
      );
      try {
        const show = async (name: string) => (await sql.raw<Record<string, string>>(`show ${name}`).execute(container.db.executor())).rows[0][name];
        expect(await show('statement_timeout')).toBe('45s');
        expect(await show('idle_in_transaction_session_timeout')).toBe('90s');
        expect(await show('lock_timeout')).toBe('7s');
        expect(await show('search_path')).toBe(/search_path=(\w+)/.exec(decodeURIComponent(env.DATABASE_URL))![1]);
        // Inside a transaction too (its own pooled client).
        expect(
          await container.db.tx(async (trx) => (await sql<{ statement_timeout: string }>`show statement_timeout`.execute(trx)).rows[0].statement_timeout),
        ).toBe('45s');
      } finally {
        await container.close();
      }
    } finally {
      await cleanup();
    }
  });
});

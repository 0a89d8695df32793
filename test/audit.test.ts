import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';

const ORIGIN = 'http://localhost:80';
const PASSWORD = 'correct horse battery staple';

interface Browser {
  cookie?: string;
  csrf?: string;
}

async function send(
  ctx: TestContext,
  b: Browser,
  method: string,
  url: string,
  opts: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { host: 'localhost:80', origin: ORIGIN, 'x-forwarded-for': '203.0.113.9', ...opts.headers };
  if (b.cookie) headers.cookie = b.cookie;
  if (b.csrf) headers['x-csrf-token'] = b.csrf;
  const res = await ctx.app.inject({
    method: method as 'GET',
    url,
    headers,
    query: opts.query,
    remoteAddress: '198.51.100.7',
    ...(opts.body === undefined ? {} : { payload: opts.body as object }),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}

async function signIn(ctx: TestContext, email: string, password = PASSWORD): Promise<Browser> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/dashboard/api/session',
    headers: { host: 'localhost:80', origin: ORIGIN },
    remoteAddress: '198.51.100.7',
    payload: { email, password },
  });
  return { cookie: String(res.headers['set-cookie'] ?? '').split(';')[0] || undefined, csrf: res.json().csrfToken };
}

describe('the audit log of dashboard writes', async () => {
  const ctx = await testContext();
  const { dashboard } = ctx.container;
  const platformId = ctx.platform.platformId;
  await dashboard.createUser({ platformId, email: 'admin@example.com', role: 'ADMIN', password: PASSWORD });
  await dashboard.createUser({ platformId, email: 'viewer@example.com', role: 'VIEWER', password: PASSWORD });
  const other = await ctx.newPlatform('Other platform');
  await dashboard.createUser({ platformId: other.platformId, email: 'other-admin@example.com', role: 'ADMIN', password: PASSWORD });

  it('records who did what to what, when and from where, and lists it newest first to ADMIN users', async () => {
    const admin = await signIn(ctx, 'admin@example.com');
    const made = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
      body: { platformCustomerId: 'audited-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    });
    expect(made.status).toBe(201);
    const patched = await send(ctx, admin, 'PATCH', `${API_PREFIX}/customers/${made.body.id}`, { body: { customerType: 'INDIVIDUAL', fullName: 'Ada King' } });
    expect(patched.status).toBe(200);
    const refused = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
      body: { platformCustomerId: 'audited-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    });
    expect(refused.status).toBe(409);
    const invalid = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, { body: { customerType: 'ALIEN' } });
    expect(invalid.status).toBe(400);
    // Reads are not writes: not recorded.
    expect((await send(ctx, admin, 'GET', `${API_PREFIX}/customers`)).status).toBe(200);
    expect((await send(ctx, admin, 'PUT', '/dashboard/api/session/environment', { body: { environment: 'PRODUCTION' } })).status).toBe(200);

    const list = await send(ctx, admin, 'GET', '/dashboard/api/audit');
    expect(list.status).toBe(200);
    const entries = list.body.data;
    expect(entries.map((e: any) => [e.action, e.outcome, e.statusCode])).toEqual([
      ['PUT /dashboard/api/session/environment', 'SUCCEEDED', 200],
      [`POST ${API_PREFIX}/customers`, 'FAILED', 400],
      [`POST ${API_PREFIX}/customers`, 'FAILED', 409],
      [`PATCH ${API_PREFIX}/customers/:customerId`, 'SUCCEEDED', 200],
      [`POST ${API_PREFIX}/customers`, 'SUCCEEDED', 201],
      ['dashboard sign-in', 'SUCCEEDED', 201],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({ actorType: 'USER', actor: 'admin@example.com', source: '198.51.100.7' });
      expect(Date.parse(e.createdAt)).not.toBeNaN();
    }
    expect(entries[4]).toMatchObject({ target: made.body.id, environment: 'SANDBOX' });
    expect(entries[3].target).toBe(made.body.id);
    expect(entries[0].environment).toBe('SANDBOX');

    // Filters and pages.
    const creates = await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { action: `POST ${API_PREFIX}/customers` } });
    expect(creates.body.data).toHaveLength(3);
    const page1 = await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { limit: '2' } });
    expect(page1.body.data.map((e: any) => e.id)).toEqual(entries.slice(0, 2).map((e: any) => e.id));
    const page2 = await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { limit: '2', before: page1.body.nextBefore } });
    expect(page2.body.data.map((e: any) => e.id)).toEqual(entries.slice(2, 4).map((e: any) => e.id));
    expect(entries).toHaveLength(6);
  });

  it('keeps real time whatever the sandbox clock says: advanced 30 days or frozen, an entry is stamped now', async () => {
    const clocked = await ctx.newPlatform('Clocked platform');
    await dashboard.createUser({ platformId: clocked.platformId, email: 'clocked-admin@example.com', role: 'ADMIN', password: PASSWORD });
    const admin = await signIn(ctx, 'clocked-admin@example.com');
    const startedMs = Date.now();
    expect((await send(ctx, admin, 'POST', `${API_PREFIX}/sandbox/clock/advance`, { body: { seconds: 30 * 24 * 3600 } })).status).toBe(200);
    const made = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
      body: { platformCustomerId: 'clocked-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    });
    expect(made.status).toBe(201);
    // The customer lives on the sandbox clock; the audit log does not.
    expect(Date.parse(made.body.createdAt) - startedMs).toBeGreaterThan(29 * 24 * 3600_000);
    expect((await send(ctx, admin, 'POST', `${API_PREFIX}/sandbox/clock`, { body: { frozen: true } })).status).toBe(200);
    expect(
      (await send(ctx, admin, 'PATCH', `${API_PREFIX}/customers/${made.body.id}`, { body: { customerType: 'INDIVIDUAL', fullName: 'Ada King' } })).status,
    ).toBe(200);
    await send(ctx, admin, 'POST', `${API_PREFIX}/sandbox/clock`, { body: { frozen: false } });
    const entries = (await send(ctx, admin, 'GET', '/dashboard/api/audit')).body.data;
    expect(entries.length).toBeGreaterThanOrEqual(5);
    for (const e of entries) {
      expect(Date.parse(e.createdAt), `${e.action} at ${e.createdAt}`).toBeGreaterThanOrEqual(startedMs - 1000);
      expect(Date.parse(e.createdAt), `${e.action} at ${e.createdAt}`).toBeLessThanOrEqual(Date.now());
    }
    // Newest first by id, and by time too.
    const times = entries.map((e: any) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('records failed sign-ins under the email that was tried', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      headers: { host: 'localhost:80', origin: ORIGIN },
      remoteAddress: '192.0.2.44',
      payload: { email: 'admin@example.com', password: 'wrong password, sorry' },
    });
    expect(res.statusCode).toBe(401);
    const admin = await signIn(ctx, 'admin@example.com');
    const list = await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { action: 'dashboard sign-in', limit: '2' } });
    expect(list.body.data[1]).toMatchObject({ actor: 'admin@example.com', outcome: 'FAILED', statusCode: 401, source: '192.0.2.44', target: null });
  });

  it('shows a platform only its own entries, and only to ADMIN users', async () => {
    const otherAdmin = await signIn(ctx, 'other-admin@example.com');
    const theirs = await send(ctx, otherAdmin, 'GET', '/dashboard/api/audit');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.every((e: any) => e.actor === 'other-admin@example.com')).toBe(true);

    const viewer = await signIn(ctx, 'viewer@example.com');
    expectError(await send(ctx, viewer, 'GET', '/dashboard/api/audit'), 403, 'FORBIDDEN');
    expectError(await send(ctx, {}, 'GET', '/dashboard/api/audit'), 401, 'UNAUTHORIZED');
    const admin = await signIn(ctx, 'admin@example.com');
    expectError(await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { limit: '0' } }), 400, 'INVALID_INPUT');
    expectError(await send(ctx, admin, 'GET', '/dashboard/api/audit', { query: { nope: '1' } }), 400, 'INVALID_INPUT');
  });

  it('does not record writes made with API tokens (their own credentials are their trail)', async () => {
    const before = (await ctx.container.db.executor().selectFrom('audit_log').select('id').execute()).length;
    expect(
      (await call(ctx, 'POST', '/customers', { body: { platformCustomerId: 'token-made', customerType: 'INDIVIDUAL', fullName: 'Alan Turing' } })).status,
    ).toBe(201);
    const after = (await ctx.container.db.executor().selectFrom('audit_log').select('id').execute()).length;
    expect(after).toBe(before);
  });

  it('an audited write commits with its entry or not at all: with the entry refused, the write is not stored', async () => {
    const admin = await signIn(ctx, 'admin@example.com');
    const made = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
      body: { platformCustomerId: 'audited-atomic', customerType: 'INDIVIDUAL', fullName: 'Grace Hopper' },
    });
    expect(made.status).toBe(201);
    // The log cannot take an entry now (as a full disk or a broken table would refuse it).
    await sql`alter table audit_log rename to audit_log_away`.execute(ctx.container.db.admin);
    try {
      const patched = await send(ctx, admin, 'PATCH', `${API_PREFIX}/customers/${made.body.id}`, {
        body: { customerType: 'INDIVIDUAL', fullName: 'Grace Murray' },
      });
      expect(patched.status).toBe(500);
      const keyed = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
        body: { platformCustomerId: 'audited-never', customerType: 'INDIVIDUAL', fullName: 'Never Stored' },
        headers: { 'idempotency-key': 'audited-never' },
      });
      expect(keyed.status).toBe(500);
      const unkeyed = await send(ctx, admin, 'POST', `${API_PREFIX}/customers`, {
        body: { platformCustomerId: 'audited-never-2', customerType: 'INDIVIDUAL', fullName: 'Never Stored' },
      });
      expect(unkeyed.status).toBe(500);
    } finally {
      await sql`alter table audit_log_away rename to audit_log`.execute(ctx.container.db.admin);
    }
    const customers = await ctx.container.db.admin
      .selectFrom('customers')
      .select(['platform_customer_id', 'full_name'])
      .where('platform_customer_id', 'like', 'audited-%')
      .execute();
    expect(customers.find((c) => c.platform_customer_id === 'audited-atomic')?.full_name).toBe('Grace Hopper');
    expect(customers.map((c) => c.platform_customer_id)).not.toContain('audited-never');
    expect(customers.map((c) => c.platform_customer_id)).not.toContain('audited-never-2');
  });
});

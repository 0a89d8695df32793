import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { manualClock } from '../src/common/clock.js';
import { lockoutMs } from '../src/dashboard/service.js';
import { expectError, testContext, type TestContext } from './helpers/context.js';

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
  opts: { body?: unknown; csrf?: string | null; origin?: string | null; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { host: 'localhost:80', ...opts.headers };
  if (b.cookie) headers.cookie = b.cookie;
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin) headers.origin = origin;
  const csrf = opts.csrf === undefined ? b.csrf : opts.csrf;
  if (csrf) headers['x-csrf-token'] = csrf;
  const res = await ctx.app.inject({ method: method as 'GET', url, headers, ...(opts.body === undefined ? {} : { payload: opts.body as object }) });
  let body: any;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers };
}

async function signIn(ctx: TestContext, email: string, password = PASSWORD): Promise<Browser & { res: Awaited<ReturnType<typeof send>> }> {
  const res = await send(ctx, {}, 'POST', '/dashboard/api/session', { body: { email, password } });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  const cookie = setCookie.split(';')[0];
  return { res, cookie: cookie || undefined, csrf: res.body?.csrfToken };
}

describe('dashboard sessions', async () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  // This file signs in many times from one address; the limits have their own tests.
  const ctx = await testContext({ clock, env: { DASHBOARD_SIGN_IN_LIMIT_PER_ADDRESS: '0', DASHBOARD_SIGN_IN_LIMIT_PER_ACCOUNT: '0' } });
  const { dashboard } = ctx.container;
  const platformId = ctx.platform.platformId;
  await dashboard.createUser({ platformId, email: 'Admin@Example.com', role: 'ADMIN', password: PASSWORD });
  await dashboard.createUser({ platformId, email: 'dev@example.com', role: 'DEVELOPER', password: PASSWORD });
  await dashboard.createUser({ platformId, email: 'viewer@example.com', role: 'VIEWER', password: PASSWORD });

  it('signs in with email and password: an httpOnly SameSite=Strict cookie, the user, the SANDBOX and a CSRF token', async () => {
    const b = await signIn(ctx, 'admin@example.com');
    expect(b.res.status).toBe(201);
    const setCookie = String(b.res.headers['set-cookie']);
    expect(setCookie).toMatch(/^corridor_session=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure'); // plain http here; Secure behind https (PUBLIC_URL https://…)
    expect(b.res.body).toMatchObject({
      user: { email: 'admin@example.com', role: 'ADMIN' },
      platform: { id: platformId },
      environment: 'SANDBOX',
      permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    });
    expect(b.csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await send(ctx, b, 'GET', '/dashboard/api/session');
    expect(me.status).toBe(200);
    expect(me.body.csrfToken).toBe(b.csrf);
    // The session token itself is stored only as its hash.
    const token = b.cookie!.split('=')[1];
    const rows = await ctx.container.db.executor().selectFrom('dashboard_sessions').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it('marks the cookie Secure when the service is served over https', async () => {
    const https = await testContext({ env: { PUBLIC_URL: 'https://corridor.example.com' } });
    await https.container.dashboard.createUser({ platformId: https.platform.platformId, email: 'a@example.com', role: 'ADMIN', password: PASSWORD });
    const res = await https.app.inject({ method: 'POST', url: '/dashboard/api/session', payload: { email: 'a@example.com', password: PASSWORD } });
    expect(res.statusCode).toBe(201);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
  });

  it('marks the cookie Secure behind a proxy that ends TLS (TRUST_PROXY), not on a plain request', async () => {
    const proxied = await testContext({ env: { TRUST_PROXY: 'true' } });
    await proxied.container.dashboard.createUser({ platformId: proxied.platform.platformId, email: 'p@example.com', role: 'ADMIN', password: PASSWORD });
    const signIn = (headers: Record<string, string>) =>
      proxied.app.inject({ method: 'POST', url: '/dashboard/api/session', headers, payload: { email: 'p@example.com', password: PASSWORD } });
    const viaTls = await signIn({ 'x-forwarded-proto': 'https' });
    expect(viaTls.statusCode).toBe(201);
    expect(String(viaTls.headers['set-cookie'])).toMatch(/; Secure/);
    const plain = await signIn({});
    expect(plain.statusCode).toBe(201);
    expect(String(plain.headers['set-cookie'])).not.toMatch(/; Secure/);
  });

  it('the cookie authenticates on the API itself: same routes, validation, scoping and errors', async () => {
    const b = await signIn(ctx, 'admin@example.com');
    const ping = await send(ctx, b, 'GET', `${API_PREFIX}/ping`);
    expect(ping.status).toBe(200);
    expect(ping.body).toMatchObject({ platformId, environment: 'SANDBOX', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] });
    const bad = await send(ctx, b, 'POST', `${API_PREFIX}/customers`, { body: { platformCustomerId: 'x', customerType: 'ROBOT' } });
    expectError(bad, 400, 'INVALID_INPUT');
    expect((await send(ctx, {}, 'GET', `${API_PREFIX}/customers`)).status).toBe(401);
    expect((await send(ctx, { cookie: 'corridor_session=not-a-session' }, 'GET', `${API_PREFIX}/customers`)).status).toBe(401);
  });

  it('refuses a cookie-authenticated write without the CSRF token, with a wrong one, or from another origin', async () => {
    const b = await signIn(ctx, 'admin@example.com');
    const body = { name: 'from the dashboard', permissions: ['VIEW'] };
    expectError(await send(ctx, b, 'POST', `${API_PREFIX}/tokens`, { body, csrf: null }), 403, 'CSRF_TOKEN_INVALID');
    // One character changed (never to itself: a token ending in A would otherwise stay right).
    const wrong = `${b.csrf!.slice(0, -1)}${b.csrf!.endsWith('A') ? 'B' : 'A'}`;
    expectError(await send(ctx, b, 'POST', `${API_PREFIX}/tokens`, { body, csrf: wrong }), 403, 'CSRF_TOKEN_INVALID');
    expectError(await send(ctx, b, 'POST', `${API_PREFIX}/tokens`, { body, origin: 'https://evil.example' }), 403, 'CSRF_TOKEN_INVALID');
    expectError(await send(ctx, b, 'POST', `${API_PREFIX}/tokens`, { body, origin: null }), 403, 'CSRF_TOKEN_INVALID');
    // Another session's CSRF token does not fit this session.
    const other = await signIn(ctx, 'admin@example.com');
    expectError(
      await send(ctx, b, 'DELETE', `${API_PREFIX}/tokens/Token:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11`, { csrf: other.csrf }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    expectError(await send(ctx, b, 'PATCH', `${API_PREFIX}/config`, { body: { webhookEndpoint: null }, csrf: null }), 403, 'CSRF_TOKEN_INVALID');
    const made = await send(ctx, b, 'POST', `${API_PREFIX}/tokens`, { body, headers: { 'idempotency-key': 'dash-1' } });
    expect(made.status).toBe(201);
    expect(made.body.clientSecret).toMatch(/^cs_/);
    // An Authorization header wins over the cookie: API clients never need CSRF tokens.
    const withToken = await ctx.app.inject({
      method: 'POST',
      url: `${API_PREFIX}/tokens`,
      headers: { authorization: ctx.platform.auth, cookie: b.cookie! },
      payload: body,
    });
    expect(withToken.statusCode).toBe(201);
  });

  it('switching the environment switches what the API shows; roles map to permissions per environment', async () => {
    const admin = await signIn(ctx, 'admin@example.com');
    const sandboxTokens = (await send(ctx, admin, 'GET', `${API_PREFIX}/tokens`)).body.totalCount;
    expect(sandboxTokens).toBeGreaterThan(0);
    expectError(
      await send(ctx, admin, 'PUT', '/dashboard/api/session/environment', { body: { environment: 'PRODUCTION' }, csrf: null }),
      403,
      'CSRF_TOKEN_INVALID',
    );
    const switched = await send(ctx, admin, 'PUT', '/dashboard/api/session/environment', { body: { environment: 'PRODUCTION' } });
    expect(switched.status).toBe(200);
    expect(switched.body.environment).toBe('PRODUCTION');
    expect((await send(ctx, admin, 'GET', `${API_PREFIX}/ping`)).body.environment).toBe('PRODUCTION');
    expect((await send(ctx, admin, 'GET', `${API_PREFIX}/tokens`)).body.totalCount).toBe(0);
    const prodToken = await send(ctx, admin, 'POST', `${API_PREFIX}/tokens`, { body: { name: 'live', permissions: ['VIEW'] } });
    expect(prodToken.body.clientId).toMatch(/^corr_live_/);
    expectError(
      await send(ctx, admin, 'POST', `${API_PREFIX}/sandbox/internal-accounts/InternalAccount:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11/fund`, {
        body: { amount: 100 },
      }),
      403,
      'FORBIDDEN',
    );
    expectError(await send(ctx, admin, 'PUT', '/dashboard/api/session/environment', { body: { environment: 'STAGING' } }), 400, 'INVALID_INPUT');

    const dev = await signIn(ctx, 'dev@example.com');
    expect(dev.res.body.permissions).toEqual(['VIEW', 'TRANSACT', 'MANAGE']);
    const devProd = await send(ctx, dev, 'PUT', '/dashboard/api/session/environment', { body: { environment: 'PRODUCTION' } });
    expect(devProd.body.permissions).toEqual(['VIEW']);
    expect((await send(ctx, dev, 'GET', `${API_PREFIX}/customers`)).status).toBe(200);
    expectError(await send(ctx, dev, 'POST', `${API_PREFIX}/customers`, { body: { platformCustomerId: 'p1', customerType: 'INDIVIDUAL' } }), 403, 'FORBIDDEN');

    const viewer = await signIn(ctx, 'viewer@example.com');
    expect(viewer.res.body.permissions).toEqual(['VIEW']);
    expect((await send(ctx, viewer, 'GET', `${API_PREFIX}/customers`)).status).toBe(200);
    const denied = expectError(
      await send(ctx, viewer, 'POST', `${API_PREFIX}/customers`, { body: { platformCustomerId: 'v1', customerType: 'INDIVIDUAL' } }),
      403,
      'FORBIDDEN',
    );
    expect(denied.details.requiredPermission).toBe('MANAGE');
  });

  it('a wrong password and an unknown email get the same 401', async () => {
    const wrong = await signIn(ctx, 'viewer@example.com', 'not the password');
    const unknown = await signIn(ctx, 'nobody@example.com', 'not the password');
    const a = expectError(wrong.res, 401, 'INVALID_CREDENTIALS');
    const b = expectError(unknown.res, 401, 'INVALID_CREDENTIALS');
    expect(a).toEqual(b);
    expect(wrong.res.headers['set-cookie']).toBeUndefined();
    expectError(await send(ctx, {}, 'POST', '/dashboard/api/session', { body: { email: 'viewer@example.com' } }), 400, 'INVALID_INPUT');
    // A successful sign-in resets the count.
    expect((await signIn(ctx, 'viewer@example.com')).res.status).toBe(201);
  });

  it('after 5 wrong passwords the account waits, doubling each time (429 with Retry-After), even for the right password', async () => {
    await dashboard.createUser({ platformId, email: 'target@example.com', role: 'ADMIN', password: PASSWORD });
    for (let i = 0; i < 5; i++) expectError((await signIn(ctx, 'target@example.com', `guess ${i}`)).res, 401, 'INVALID_CREDENTIALS');
    const locked = await signIn(ctx, 'target@example.com');
    expectError(locked.res, 429, 'TOO_MANY_ATTEMPTS');
    expect(locked.res.headers['retry-after']).toBe('30');
    expect(locked.res.body.details.retryAfterSeconds).toBe(30);
    clock.advance(31_000);
    expectError((await signIn(ctx, 'target@example.com', 'guess 6')).res, 401, 'INVALID_CREDENTIALS');
    const longer = await signIn(ctx, 'target@example.com');
    expectError(longer.res, 429, 'TOO_MANY_ATTEMPTS');
    expect(longer.res.headers['retry-after']).toBe('60');
    clock.advance(61_000);
    expect((await signIn(ctx, 'target@example.com')).res.status).toBe(201);
    expectError((await signIn(ctx, 'target@example.com', 'guess 7')).res, 401, 'INVALID_CREDENTIALS');
    expect((await signIn(ctx, 'target@example.com')).res.status).toBe(201);

    // Unknown emails back off the same way, so the answers reveal nothing.
    for (let i = 0; i < 5; i++) expectError((await signIn(ctx, 'ghost@example.com', `guess ${i}`)).res, 401, 'INVALID_CREDENTIALS');
    const ghost = await signIn(ctx, 'ghost@example.com');
    expectError(ghost.res, 429, 'TOO_MANY_ATTEMPTS');
    expect(ghost.res.headers['retry-after']).toBe('30');
    expect([4, 5, 6, 7, 20].map(lockoutMs)).toEqual([0, 30_000, 60_000, 120_000, 3_600_000]);
  });

  it('signing out ends the session at once and clears the cookie; sessions expire', async () => {
    const b = await signIn(ctx, 'admin@example.com');
    expectError(await send(ctx, b, 'DELETE', '/dashboard/api/session', { csrf: null }), 403, 'CSRF_TOKEN_INVALID');
    const out = await send(ctx, b, 'DELETE', '/dashboard/api/session');
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^corridor_session=;/);
    expectError(await send(ctx, b, 'GET', '/dashboard/api/session'), 401, 'UNAUTHORIZED');
    expectError(await send(ctx, b, 'GET', `${API_PREFIX}/ping`), 401, 'UNAUTHORIZED');

    const later = await signIn(ctx, 'admin@example.com');
    clock.advance(12 * 3_600_000 + 1);
    expectError(await send(ctx, later, 'GET', `${API_PREFIX}/ping`), 401, 'UNAUTHORIZED');
  });

  it('refuses a sign-in posted from another site', async () => {
    const res = await send(ctx, {}, 'POST', '/dashboard/api/session', {
      body: { email: 'admin@example.com', password: PASSWORD },
      origin: 'https://evil.example',
    });
    expectError(res, 403, 'CSRF_TOKEN_INVALID');
    expectError(await send(ctx, {}, 'GET', '/dashboard/api/nothing-here'), 404, 'ROUTE_NOT_FOUND');
  });

  it('emails are unique across the service; passwords need 12 characters', async () => {
    const other = await ctx.newPlatform('Other');
    await expect(dashboard.createUser({ platformId: other.platformId, email: 'ADMIN@example.com', role: 'VIEWER', password: PASSWORD })).rejects.toMatchObject({
      code: 'DASHBOARD_USER_EXISTS',
    });
    await expect(dashboard.createUser({ platformId: other.platformId, email: 'short@example.com', role: 'VIEWER', password: 'short' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    const generated = await dashboard.createUser({ platformId: other.platformId, email: 'gen@example.com', role: 'VIEWER' });
    expect(generated.generated).toBe(true);
    expect(generated.password.length).toBeGreaterThanOrEqual(24);
    expect(generated.user.password_hash).toMatch(/^\$argon2id\$/);
    // A user of another platform sees that platform's data only.
    const b = await signIn(ctx, 'gen@example.com', generated.password);
    expect((await send(ctx, b, 'GET', `${API_PREFIX}/ping`)).body.platformId).toBe(other.platformId);
  });
});

// The security matrix over every route of /openapi.json: no credentials, bad credentials, a revoked
// token, each permission level, the other environment and another platform's ids; then the
// failed-authentication limit per client address and the response headers a scanner looks for.
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { allows, type Permission } from '../src/common/scope.js';
import { basic, call, testContext, type TestContext } from './helpers/context.js';
import { answerProblems, apiOperations, createFixtures, fillPath, idFor, madeUpId, valid, type Fixtures, type Operation } from './fuzz/harness.js';

interface Sent {
  status: number;
  body: any;
  raw: string;
  headers: Record<string, unknown>;
}

async function send(ctx: TestContext, op: Operation, path: string, auth: string | undefined, body?: unknown): Promise<Sent> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = auth;
  const withBody = body !== undefined && op.body !== undefined;
  if (withBody) headers['content-type'] = 'application/json';
  const res = await ctx.app.inject({
    method: op.method as 'GET',
    url: `${API_PREFIX}${path}`,
    headers,
    ...(withBody ? { payload: JSON.stringify(body) } : {}),
  });
  let parsed: any;
  try {
    parsed = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.statusCode, body: parsed, raw: res.body, headers: res.headers };
}

/** The D2 error of that status and code, and nothing else wrong with the answer. */
function expectRefused(op: Operation, res: Sent, status: number, code: string, why: string) {
  expect(`${op.label} (${why}): ${res.status} ${res.body?.code}`).toBe(`${op.label} (${why}): ${status} ${code}`);
  expect(answerProblems(op, res, ''), `${op.label} (${why})`).toEqual([]);
}

describe('security matrix over every route of the OpenAPI document', async () => {
  const ctx = await testContext({ env: { AUTH_FAILURE_LIMIT: '0' } });
  await ctx.app.ready();
  const ops = apiOperations(ctx.app.swagger());
  const a = ctx.platform;
  const b = await ctx.newPlatform('Other platform');
  const fa = await createFixtures(ctx, a.auth, a.platformId);
  const fb = await createFixtures(ctx, b.auth, b.platformId);

  const tokens: Record<string, string> = {
    VIEW: await a.token(['VIEW']),
    TRANSACT: await a.token(['TRANSACT']),
    MANAGE: await a.token(['MANAGE']),
  };
  const production = await a.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
  // A token created and revoked through the API.
  const made = await call(ctx, 'POST', '/tokens', { body: { name: 'to revoke', permissions: ['VIEW', 'TRANSACT', 'MANAGE'] } });
  expect(made.status).toBe(201);
  expect((await call(ctx, 'DELETE', `/tokens/${made.body.id}`)).status).toBe(200);
  const revoked = basic(made.body.clientId, made.body.clientSecret);
  const unknownClient = basic('corr_test_000000000000000000000000', 'x'.repeat(43));
  const [goodClientId] = Buffer.from(a.auth.slice(6), 'base64').toString().split(':');
  const wrongSecret = basic(goodClientId, 'y'.repeat(43));

  // Made-up (well-formed, absent) ids: permission checks must not depend on existing objects.
  const absent = async (op: Operation) => {
    const values: Record<string, string> = {};
    for (const [i, p] of op.pathParams.entries()) values[p.name] = await madeUpId(p, 1000 + i);
    return fillPath(op.apiPath, values);
  };
  // A body refused by schema (unknown field) keeps a permitted write from doing anything.
  const inert = { fuzzMatrixUnknownField: true };

  it('covers every route and each declares a permission', () => {
    expect(ops.length).toBeGreaterThanOrEqual(35);
    for (const op of ops) expect(['VIEW', 'TRANSACT', 'MANAGE'], op.label).toContain(op.permission);
  });

  it('no, malformed, unknown, wrong-secret and revoked credentials get 401 on every route', async () => {
    for (const op of ops) {
      const path = await absent(op);
      expectRefused(op, await send(ctx, op, path, undefined, inert), 401, 'UNAUTHORIZED', 'no credentials');
      expectRefused(op, await send(ctx, op, path, 'Bearer abc', inert), 401, 'UNAUTHORIZED', 'not Basic');
      expectRefused(op, await send(ctx, op, path, unknownClient, inert), 401, 'UNAUTHORIZED', 'unknown client');
      expectRefused(op, await send(ctx, op, path, wrongSecret, inert), 401, 'UNAUTHORIZED', 'wrong secret');
      expectRefused(op, await send(ctx, op, path, revoked, inert), 401, 'UNAUTHORIZED', 'revoked token');
    }
  });

  it('each permission level is allowed or refused (403) exactly as the route declares', async () => {
    for (const op of ops) {
      const path = await absent(op);
      for (const level of ['VIEW', 'TRANSACT', 'MANAGE'] as Permission[]) {
        const res = await send(ctx, op, path, tokens[level], inert);
        if (allows([level], op.permission!)) {
          expect([401, 403], `${op.label} with ${level}: ${res.raw}`).not.toContain(res.status);
          expect(answerProblems(op, res, ''), `${op.label} with ${level}`).toEqual([]);
        } else {
          expectRefused(op, res, 403, 'FORBIDDEN', `${level} token`);
          expect(res.body.details.requiredPermission).toBe(op.permission);
        }
      }
    }
  });

  it('a PRODUCTION token gets 403 on sandbox routes and passes elsewhere', async () => {
    expect(ops.some((op) => op.sandboxOnly)).toBe(true);
    for (const op of ops) {
      const res = await send(ctx, op, await absent(op), production, inert);
      if (op.sandboxOnly) expectRefused(op, res, 403, 'FORBIDDEN', 'PRODUCTION token on a sandbox route');
      else expect([401, 403], `${op.label} PRODUCTION: ${res.raw}`).not.toContain(res.status);
    }
  });

  /** Routes whose path names objects by id (a UMA address is public by design: paying it is the point). */
  const addressesObjects = (op: Operation) =>
    op.pathParams.length > 0 && op.pathParams.every((p) => /Id$/.test(p.name)) && op.body?.contentType !== 'multipart/form-data';

  /** A request of `op` aimed at the given objects, with a schema-valid body so the lookup decides. */
  async function aimed(op: Operation, auth: string, f: Fixtures, ownerAuth: string, seedBase: number): Promise<Sent & { sentIds: string[] }> {
    const values: Record<string, string> = {};
    for (const p of op.pathParams) values[p.name] = (await idFor(ctx, ownerAuth, ops, op, p.name, f)) ?? (await madeUpId(p, seedBase));
    const path = fillPath(op.apiPath, values);
    let res: Sent | undefined;
    for (let seed = seedBase; seed < seedBase + 8; seed++) {
      const body = op.body?.contentType === 'application/json' ? await valid(op.body.schema, seed, 0) : undefined;
      res = await send(ctx, op, path, auth, body);
      if (res.status !== 400) break;
    }
    // An error may name the ids the caller sent; any other id of that scope would be a leak.
    return { ...res!, sentIds: Object.values(values) };
  }

  it("another platform's ids are 404 on every route that takes one, and nothing of it leaks", async () => {
    const withIds = ops.filter(addressesObjects);
    expect(withIds.length).toBeGreaterThanOrEqual(15);
    for (const [i, op] of withIds.entries()) {
      const res = await aimed(op, a.auth, fb, b.auth, 2000 + i * 10);
      expect(`${op.label}: ${res.status}`, res.raw).toBe(`${op.label}: 404`);
      expect(res.body.code, op.label).toMatch(/_NOT_FOUND$/);
      for (const id of fb.all) if (!res.sentIds.includes(id)) expect(res.raw, `${op.label} leaks ${id}`).not.toContain(id);
    }
    // Ids of the other platform in query filters and bodies find nothing either.
    for (const op of ops.filter((o) => o.method === 'GET' && o.query.some((q) => fb.ids[q.name]))) {
      const q = Object.fromEntries(op.query.filter((p) => fb.ids[p.name]).map((p) => [p.name, fb.ids[p.name]]));
      const res = await call(ctx, 'GET', await absent(op), { query: q });
      expect([200, 404], `${op.label} ${res.status}`).toContain(res.status);
      if (res.status === 200) expect(res.body.totalCount, op.label).toBe(0);
      for (const id of fb.all) if (!Object.values(q).includes(id)) expect(JSON.stringify(res.body), `${op.label} leaks ${id}`).not.toContain(id);
    }
    const owner = await call(ctx, 'POST', '/beneficial-owners', {
      body: {
        customerId: fb.ids.customerId,
        roles: ['UBO'],
        ownershipPercentage: 10,
        personalInfo: {
          firstName: 'A',
          lastName: 'B',
          birthDate: '1980-01-01',
          nationality: 'US',
          address: { line1: 'x', postalCode: '1', country: 'US' },
          idType: 'SSN',
          identifier: '123456789',
        },
      },
    });
    expect(owner.status).toBe(404);
  });

  it("the other environment's ids are 404 (or 403 on sandbox routes) for a PRODUCTION token", async () => {
    const withIds = ops.filter(addressesObjects);
    for (const [i, op] of withIds.entries()) {
      const res = await aimed(op, production, fa, a.auth, 5000 + i * 10);
      expect(`${op.label}: ${res.status}`, res.raw).toBe(`${op.label}: ${op.sandboxOnly ? 403 : 404}`);
      for (const id of fa.all) if (!res.sentIds.includes(id)) expect(res.raw, `${op.label} leaks ${id}`).not.toContain(id);
    }
  });
});

describe('failed authentications are limited per client address and client id', async () => {
  const ctx = await testContext({ env: { AUTH_FAILURE_LIMIT: '5', AUTH_FAILURE_WINDOW_SECONDS: '60' } });
  const get = (remoteAddress: string, authorization?: string, cookie?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/customers`,
      remoteAddress,
      headers: { ...(authorization ? { authorization } : {}), ...(cookie ? { cookie } : {}) },
    });
  const bad = basic('corr_test_000000000000000000000000', 'nope-nope-nope-nope-nope');
  const otherBad = basic('corr_test_111111111111111111111111', 'nope-nope-nope-nope-nope');

  it('answers 429 RATE_LIMITED with Retry-After after 5 failures, to that address and client id only', async () => {
    for (let i = 0; i < 5; i++) expect((await get('203.0.113.7', bad)).statusCode).toBe(401);
    const limited = await get('203.0.113.7', bad);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // Other clients behind the same address (a proxy, a NAT) are not locked out by the noisy one.
    expect((await get('203.0.113.7', otherBad)).statusCode).toBe(401);
    expect((await get('198.51.100.9', bad)).statusCode).toBe(401);
  });

  it('never refuses a credential that verifies, from a limited address and client id included', async () => {
    const token = await ctx.container.services.tokens.issue({
      platformId: ctx.platform.platformId,
      environment: 'SANDBOX',
      name: 'rotated',
      permissions: ['VIEW'],
    });
    const wrongSecret = basic(token.row.client_id, 'an-old-secret-an-old-secret');
    const right = basic(token.row.client_id, token.clientSecret);
    // A client deployed with an old secret keeps failing; its corrected deployment shares its address.
    for (let i = 0; i < 8; i++) await get('192.0.2.80', wrongSecret);
    expect((await get('192.0.2.80', wrongSecret)).statusCode).toBe(429);
    for (let i = 0; i < 3; i++) expect((await get('192.0.2.80', right)).statusCode).toBe(200);
    expect((await get('192.0.2.80', ctx.platform.auth)).statusCode).toBe(200);
  });

  it('requests without credentials and successful ones do not count; a stale session cookie is its own client', async () => {
    for (let i = 0; i < 20; i++) expect((await get('192.0.2.44')).statusCode).toBe(401);
    for (let i = 0; i < 20; i++) expect((await get('192.0.2.44', ctx.platform.auth)).statusCode).toBe(200);
    expect((await get('192.0.2.44', bad)).statusCode).toBe(401);
    for (let i = 0; i < 5; i++) expect((await get('192.0.2.45', undefined, 'corridor_session=expired-session-token')).statusCode).toBe(401);
    expect((await get('192.0.2.45', undefined, 'corridor_session=expired-session-token')).statusCode).toBe(429);
    expect((await get('192.0.2.45', bad)).statusCode).toBe(401);
  });
});

describe('response headers', async () => {
  const ctx = await testContext();
  const proxied = await testContext({ env: { TRUST_PROXY: 'true' } });

  it('every API answer forbids sniffing, framing, referrers, caching and any active content', async () => {
    const refusedByRouter = await call(ctx, 'GET', `/customers/${'a'.repeat(300)}`);
    expect(refusedByRouter.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' });
    for (const res of [
      await call(ctx, 'GET', '/customers'),
      await call(ctx, 'GET', '/customers', { auth: null }),
      await call(ctx, 'GET', '/no-such-route'),
      refusedByRouter,
    ]) {
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers.server).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined(); // plain HTTP
    }
  });

  it('the API docs page keeps a policy that lets Swagger UI run', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('HSTS is sent when the client reached a trusted proxy over HTTPS, and only then', async () => {
    const headers = { authorization: proxied.platform.auth, 'x-forwarded-proto': 'https' };
    const behind = await proxied.app.inject({ method: 'GET', url: `${API_PREFIX}/ping`, headers });
    expect(behind.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const untrusted = await ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/ping`, headers: { ...headers, authorization: ctx.platform.auth } });
    expect(untrusted.headers['strict-transport-security']).toBeUndefined();
  });
});

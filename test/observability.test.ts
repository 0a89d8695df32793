// What an operator sees: /metrics counts requests and their latency by route pattern, and every
// log line of a request carries the request id the caller got back in X-Request-Id.
import { describe, expect, it } from 'vitest';
import { API_PREFIX, buildApp } from '../src/app.js';
import { createUrlRateSource } from '../src/fx/url-rates.js';
import { call, dialect, testContext } from './helpers/context.js';
import { createCustomer } from './helpers/factories.js';

/** The value of one Prometheus sample, or undefined when the series does not exist. */
function sample(metrics: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of metrics.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const got = Object.fromEntries([...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(labels).length)
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('observability', async () => {
  const ctx = await testContext();

  it('/metrics counts requests and observes latency per route pattern, method and status', async () => {
    const c = await createCustomer(ctx);
    for (let i = 0; i < 3; i++) expect((await call(ctx, 'GET', `/customers/${c.id}`)).status).toBe(200);
    expect((await call(ctx, 'GET', '/customers/Customer:01a20114-9018-75ba-bdbf-da3d321b64b9')).status).toBe(404);
    const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
    const route = `${API_PREFIX}/customers/:customerId`;
    // The route pattern, not the URL: ids never become label values.
    expect(sample(metrics, 'corridor_http_requests_total', { method: 'GET', route, status: '200' })).toBe(3);
    expect(sample(metrics, 'corridor_http_requests_total', { method: 'GET', route, status: '404' })).toBe(1);
    expect(sample(metrics, 'corridor_http_requests_total', { method: 'POST', route: `${API_PREFIX}/customers`, status: '201' })).toBe(1);
    expect(metrics).not.toContain(c.id);
    expect(sample(metrics, 'corridor_http_request_duration_seconds_count', { method: 'GET', route })).toBe(4);
    expect(sample(metrics, 'corridor_http_request_duration_seconds_bucket', { method: 'GET', route, le: '+Inf' })).toBe(4);
    expect(sample(metrics, 'corridor_http_request_duration_seconds_sum', { method: 'GET', route })).toBeGreaterThan(0);
    // Buckets are cumulative: each counts the requests at or under its bound.
    const bounds = ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf'];
    const counts = bounds.map((le) => sample(metrics, 'corridor_http_request_duration_seconds_bucket', { le, method: 'GET', route }));
    expect(counts.every((n) => n !== undefined)).toBe(true);
    for (let i = 1; i < counts.length; i++) expect(counts[i]!).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(metrics).toMatch(/^# TYPE corridor_http_request_duration_seconds histogram$/m);
    expect(metrics).toMatch(/^# TYPE corridor_http_requests_total counter$/m);
  });

  it('latency lands in the buckets of the bounds above it: an answer of 30 ms or more is not under le="0.025"', async () => {
    const app = await buildApp(ctx.container);
    app.get('/slow-for-metrics', { schema: { hide: true } as object }, async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { ok: true };
    });
    await app.ready();
    try {
      expect((await app.inject({ url: '/slow-for-metrics' })).statusCode).toBe(200);
      const metrics = (await app.inject({ url: '/metrics' })).body;
      const bucket = (le: string) => sample(metrics, 'corridor_http_request_duration_seconds_bucket', { le, method: 'GET', route: '/slow-for-metrics' });
      expect(bucket('0.025')).toBe(0);
      expect(bucket('2.5')).toBe(1);
      expect(bucket('+Inf')).toBe(1);
      expect(sample(metrics, 'corridor_http_request_duration_seconds_sum', { method: 'GET', route: '/slow-for-metrics' })).toBeGreaterThanOrEqual(0.03);
    } finally {
      await app.close();
    }
  });

  it('/metrics shows the time the server spent inside SQLite, and a request that reaches the database adds to it', async () => {
    const spent = async () => {
      const m = /^corridor_db_sqlite_seconds_total (\S+)$/m.exec((await ctx.app.inject({ url: '/metrics' })).body);
      return m ? Number(m[1]) : undefined;
    };
    const before = await spent();
    if (dialect === 'postgres') {
      // PostgreSQL runs in its own processes: its time is not the server's.
      expect(before).toBeUndefined();
      return;
    }
    expect(before).toBeGreaterThan(0);
    await createCustomer(ctx);
    expect(await spent()).toBeGreaterThan(before!);
  });

  it('/metrics counts refused production rate documents by reason', async () => {
    const before = sample((await ctx.app.inject({ url: '/metrics' })).body, 'corridor_rates_documents_refused_total', { reason: 'unreachable' }) ?? 0;
    const down = (async () => new Response('down', { status: 503 })) as unknown as typeof fetch;
    const source = createUrlRateSource({
      url: 'https://rates.example/',
      pollIntervalMs: 1000,
      maxAgeMs: 60_000,
      clock: { now: () => new Date() },
      fetch: down,
    });
    expect(await source.refresh()).toBe(false);
    expect(sample((await ctx.app.inject({ url: '/metrics' })).body, 'corridor_rates_documents_refused_total', { reason: 'unreachable' })).toBe(before + 1);
  });

  it('log lines of a request carry the id sent back in X-Request-Id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await buildApp(ctx.container, { logger: { level: 'info', stream: { write: (s: string) => lines.push(JSON.parse(s)) } } });
    try {
      const given = await app.inject({ url: `${API_PREFIX}/ping`, headers: { authorization: ctx.platform.auth, 'x-request-id': 'trace-abc-123' } });
      expect(given.headers['x-request-id']).toBe('trace-abc-123');
      const generated = await app.inject({ url: `${API_PREFIX}/customers?limit=0`, headers: { authorization: ctx.platform.auth } });
      expect(generated.statusCode).toBe(400);
      const id = String(generated.headers['x-request-id']);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      for (const reqId of ['trace-abc-123', id]) {
        const mine = lines.filter((l) => l.reqId === reqId);
        // "incoming request" and "request completed", at least.
        expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      }
    } finally {
      await app.close();
    }
  });

  it('at LOG_LEVEL=error an answered request writes nothing, and a failing one writes its error under its request id', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = await buildApp(ctx.container, { logger: { level: 'error', stream: { write: (s: string) => lines.push(JSON.parse(s)) } } });
    app.get('/fails-for-logs', { schema: { hide: true } as object }, async () => {
      throw new Error('the disk is on fire');
    });
    await app.ready();
    try {
      const ok = await app.inject({ url: `${API_PREFIX}/ping`, headers: { authorization: ctx.platform.auth } });
      expect(ok.statusCode).toBe(200);
      const refused = await app.inject({ url: `${API_PREFIX}/customers?limit=0`, headers: { authorization: ctx.platform.auth } });
      expect(refused.statusCode).toBe(400);
      expect(lines).toEqual([]);

      const failed = await app.inject({ url: '/fails-for-logs', headers: { 'x-request-id': 'trace-fire-1' } });
      expect(failed.statusCode).toBe(500);
      expect(failed.body).not.toContain('on fire');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 50, reqId: 'trace-fire-1', msg: 'request failed', err: { message: 'the disk is on fire' } });
    } finally {
      await app.close();
    }
  });
});

describe('secrets in URLs stay out of the request log', async () => {
  const ctx = await testContext();

  it('the KYC link token, invitation codes and any bearer-like path segment or secret query value are redacted', async () => {
    const lines: string[] = [];
    const app = await buildApp(ctx.container, { logger: { level: 'debug', stream: { write: (s: string) => lines.push(s) } } });
    const auth = { authorization: ctx.platform.auth };
    try {
      const customer = await createCustomer(ctx);
      const link = await app.inject({ url: `${API_PREFIX}/customers/kyc-link?platformCustomerId=${customer.platformCustomerId}`, headers: auth });
      expect(link.statusCode).toBe(200);
      const kycPath = new URL(link.json().kycUrl).pathname;
      const token = kycPath.split('/').pop()!;
      expect((await app.inject({ url: kycPath })).statusCode).toBe(200);
      const form = new URLSearchParams({ token, decision: 'APPROVED' }).toString();
      const decided = await app.inject({ method: 'POST', url: kycPath, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form });
      expect(decided.statusCode).toBe(200);
      // A mistyped address still carries the token.
      expect((await app.inject({ url: `${kycPath}/oops?x=1` })).statusCode).toBe(404);

      const invitation = await app.inject({
        method: 'POST',
        url: `${API_PREFIX}/invitations`,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { inviterUma: customer.umaAddress },
      });
      expect(invitation.statusCode).toBe(201);
      const code = invitation.json().code as string;
      const other = await ctx.newPlatform('Invitee');
      const invitee = await createCustomer(ctx, {}, other.auth);
      expect((await app.inject({ url: `${API_PREFIX}/invitations/${code}`, headers: auth })).statusCode).toBe(200);
      expect((await app.inject({ url: `${API_PREFIX}/invitations/${code}/page` })).statusCode).toBe(200);
      const claim = await app.inject({
        method: 'POST',
        url: `${API_PREFIX}/invitations/${code}/claim`,
        headers: { authorization: other.auth, 'content-type': 'application/json' },
        payload: { inviteeUma: invitee.umaAddress },
      });
      expect(claim.statusCode).toBe(200);
      // Any other secret-looking segment, and secret-named query values.
      const bearer = 'Zx9Qw3Lk7Pm2Rt5Yv8Nb4Hj6';
      expect((await app.inject({ url: `/somewhere/${bearer}/else?token=tk-secret-value-1&limit=5` })).statusCode).toBe(404);

      const log = lines.join('');
      expect(log).toContain('incoming request');
      for (const secret of [token, code, bearer, 'tk-secret-value-1']) expect(log.includes(secret), `${secret} is in the log`).toBe(false);
      // What is left still tells the operator which page or route was asked for.
      const urls = lines.map((l) => JSON.parse(l)).flatMap((l) => (l.req?.url ? [l.req.url as string] : []));
      expect(urls).toEqual(
        expect.arrayContaining([
          `${API_PREFIX}/sandbox/kyc/[redacted]`,
          `${API_PREFIX}/sandbox/kyc/[redacted]/oops?x=1`,
          `${API_PREFIX}/invitations/[redacted]/claim`,
          `${API_PREFIX}/invitations/[redacted]/page`,
          `/somewhere/[redacted]/else?token=[redacted]&limit=5`,
          `${API_PREFIX}/customers/kyc-link?platformCustomerId=${customer.platformCustomerId}`,
        ]),
      );
    } finally {
      await app.close();
    }
  });
});

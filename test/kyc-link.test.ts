// GET /customers/kyc-link (the vendor's hosted KYC link): in the sandbox, a single-use page served
// by Corridor where a tester approves or rejects the customer; PRODUCTION hosts no KYC.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { business, createCustomer } from './helpers/factories.js';

let ctx: TestContext;
let other: TestPlatform;

beforeAll(async () => {
  ctx = await testContext();
  other = await ctx.newPlatform('Other');
});

const pathOf = (url: string) => new URL(url).pathname;
const tokenOf = (url: string) => pathOf(url).split('/').pop()!;

async function page(url: string) {
  return ctx.app.inject({ method: 'GET', url: pathOf(url) });
}

async function decide(url: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  return ctx.app.inject({
    method: 'POST',
    url: pathOf(url),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(form).toString(),
  });
}

async function link(platformCustomerId: string, extra: Record<string, string> = {}, auth?: string | null) {
  return call(ctx, 'GET', '/customers/kyc-link', { auth, query: { platformCustomerId, ...extra } });
}

async function customerEvents(customerId: string) {
  const rows = await ctx.container.db
    .executor()
    .selectFrom('webhook_events')
    .select(['body'])
    .where('type', '=', 'CUSTOMER')
    .where('subject', '=', customerId)
    .execute();
  return rows.map((r) => JSON.parse(r.body));
}

describe('KYC link (sandbox)', () => {
  it('answers the vendor shape; the page shows the customer and a form; approving changes kycStatus once and sends the CUSTOMER webhook', async () => {
    const customer = await createCustomer(ctx, { fullName: 'Ada <script>x</script> Lovelace' });
    // Sandbox individuals start APPROVED: reject first, then a second link approves.
    const res = await link(customer.platformCustomerId, { redirectUri: 'https://app.example.com/done?x=1&y=2' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ platformCustomerId: customer.platformCustomerId, customerId: customer.id });
    expect(res.body.kycUrl).toMatch(/^http:\/\/.+\/2025-10-13\/sandbox\/kyc\/[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.now());

    const shown = await page(res.body.kycUrl);
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toContain('text/html');
    expect(shown.body).toContain('&lt;script&gt;');
    expect(shown.body).not.toContain('<script>');
    expect(shown.body).toContain('<form method="post">');
    expect(shown.body).toContain(`name="token" value="${tokenOf(res.body.kycUrl)}"`);
    expect(String(shown.headers['content-security-policy'])).toContain("form-action 'self'");
    expect(shown.headers['referrer-policy']).toBe('no-referrer');
    expect(shown.headers['cache-control']).toBe('no-store');

    const done = await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'REJECTED' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('KYC decision: REJECTED');
    expect(done.body).toContain('href="https://app.example.com/done?x=1&amp;y=2"');
    expect((await call(ctx, 'GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');

    // Single use: the page says so, and a second decision changes nothing.
    expect((await page(res.body.kycUrl)).body).toContain('This link has been used');
    const again = await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'APPROVED' });
    expect(again.body).toContain('This link has been used');
    expect((await call(ctx, 'GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');

    const second = await link(customer.platformCustomerId);
    expect((await decide(second.body.kycUrl, { token: tokenOf(second.body.kycUrl), decision: 'APPROVED' })).statusCode).toBe(200);
    expect((await call(ctx, 'GET', `/customers/${customer.id}`)).body.kycStatus).toBe('APPROVED');

    // The same webhook as a kycStatus change through PATCH /customers.
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'PENDING' } });
    const events = await customerEvents(customer.id);
    expect(events.map((e) => [e.previousKycStatus, e.customer.kycStatus])).toEqual([
      ['APPROVED', 'REJECTED'],
      ['REJECTED', 'APPROVED'],
      ['APPROVED', 'PENDING'],
    ]);
    expect(events[0]).toMatchObject({ type: 'CUSTOMER', customer: { id: customer.id, platformCustomerId: customer.platformCustomerId } });
  });

  it("the operator's attestation sends the same CUSTOMER webhook; an unchanged status sends none", async () => {
    const customer = await createCustomer(ctx);
    await ctx.container.services.customers.attestKyc(customer.id, 'REJECTED');
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'REJECTED' } });
    const events = await customerEvents(customer.id);
    expect(events.map((e) => [e.previousKycStatus, e.customer.kycStatus])).toEqual([['APPROVED', 'REJECTED']]);
  });

  it('refuses a form without the token, with another token, from another origin, or without a decision', async () => {
    const customer = await createCustomer(ctx);
    const res = await link(customer.platformCustomerId);
    const token = tokenOf(res.body.kycUrl);
    expect((await decide(res.body.kycUrl, { decision: 'REJECTED' })).statusCode).toBe(403);
    expect((await decide(res.body.kycUrl, { token: token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), decision: 'REJECTED' })).statusCode).toBe(403);
    expect((await decide(res.body.kycUrl, { token, decision: 'REJECTED' }, { origin: 'https://evil.example' })).statusCode).toBe(403);
    expect((await decide(res.body.kycUrl, { token, decision: 'MAYBE' })).statusCode).toBe(400);
    // A JSON body is not the form.
    const json = await ctx.app.inject({ method: 'POST', url: pathOf(res.body.kycUrl), payload: { token, decision: 'REJECTED' } });
    expect(json.statusCode).toBe(415);
    // An Idempotency-Key is ignored on the page (no platform to key it on).
    expect((await decide(res.body.kycUrl, { token, decision: 'REJECTED' }, { 'idempotency-key': 'k1' })).statusCode).toBe(200);
    expect((await call(ctx, 'GET', `/customers/${customer.id}`)).body.kycStatus).toBe('REJECTED');
    // Unknown tokens.
    expect((await ctx.app.inject({ url: '/2025-10-13/sandbox/kyc/nope' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: `/2025-10-13/sandbox/kyc/${'A'.repeat(43)}` })).statusCode).toBe(404);
  });

  it('a business is approved only with its KYB complete: the refusal is shown and the link stays usable', async () => {
    const res0 = await call(ctx, 'POST', '/customers', { body: business() });
    expect(res0.status).toBe(201);
    const res = await link(res0.body.platformCustomerId);
    const refused = await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'APPROVED' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<form method="post">');
    expect((await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'REJECTED' })).statusCode).toBe(200);
    expect((await call(ctx, 'GET', `/customers/${res0.body.id}`)).body.kycStatus).toBe('REJECTED');
  });

  it('expires after 24 hours of the platform sandbox clock', async () => {
    const p = await ctx.newPlatform('Expiry');
    const customer = await createCustomer(ctx, {}, p.auth);
    const res = await link(customer.platformCustomerId, {}, p.auth);
    expect((await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 24 * 3600 + 1 } })).status).toBe(200);
    expect((await page(res.body.kycUrl)).statusCode).toBe(410);
    expect((await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'REJECTED' })).statusCode).toBe(410);
    expect((await call(ctx, 'GET', `/customers/${customer.id}`, { auth: p.auth })).body.kycStatus).toBe('APPROVED');
  });

  it('a used link shows only that it was used, and after its expiry nothing at all', async () => {
    const p = await ctx.newPlatform('Used link');
    const customer = await createCustomer(ctx, { fullName: 'Grace Hopper' }, p.auth);
    const res = await link(customer.platformCustomerId, {}, p.auth);
    const done = await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'REJECTED' });
    expect(done.statusCode).toBe(200);
    // The customer's name changes later: a used link is no window on the customer.
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { auth: p.auth, body: { customerType: 'INDIVIDUAL', fullName: 'Grace B. Hopper' } });
    for (const used of [await page(res.body.kycUrl), await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'APPROVED' })]) {
      expect(used.body).toContain('This link has been used');
      for (const fact of ['Grace', customer.platformCustomerId, 'REJECTED', 'kycStatus', '<form']) expect(used.body).not.toContain(fact);
    }
    expect((await call(ctx, 'GET', `/customers/${customer.id}`, { auth: p.auth })).body.kycStatus).toBe('REJECTED');
    await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 24 * 3600 + 1 } });
    const gone = await page(res.body.kycUrl);
    expect(gone.statusCode).toBe(410);
    expect(gone.body).not.toContain('used');
    for (const fact of ['Grace', customer.platformCustomerId, 'REJECTED']) expect(gone.body).not.toContain(fact);
    expect((await decide(res.body.kycUrl, { token: tokenOf(res.body.kycUrl), decision: 'APPROVED' })).statusCode).toBe(410);
  });

  it('unhappy paths of the API: unknown, deleted or other platform customers, bad input, permissions, PRODUCTION', async () => {
    const customer = await createCustomer(ctx);
    expectError(await link('no-such-customer'), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await link(customer.platformCustomerId, {}, other.auth), 404, 'CUSTOMER_NOT_FOUND');
    expectError(await call(ctx, 'GET', '/customers/kyc-link'), 400, 'INVALID_INPUT');
    const bad = expectError(await link(customer.platformCustomerId, { redirectUri: 'javascript:alert(1)' }), 400, 'INVALID_INPUT');
    expect(bad.details.fields.map((f: any) => f.field)).toEqual(['redirectUri']);
    expectError(await link(customer.platformCustomerId, { unknown: 'x' }), 400, 'INVALID_INPUT');
    expectError(await link(customer.platformCustomerId, {}, await ctx.platform.token(['VIEW'])), 403, 'FORBIDDEN');
    expectError(await link(customer.platformCustomerId, {}, null), 401, 'UNAUTHORIZED');
    const gone = await createCustomer(ctx);
    await call(ctx, 'DELETE', `/customers/${gone.id}`);
    expectError(await link(gone.platformCustomerId), 410, 'CUSTOMER_DELETED');
    const production = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    const prodCustomer = await createCustomer(ctx, {}, production);
    expect(expectError(await link(prodCustomer.platformCustomerId, {}, production), 400, 'HOSTED_KYC_NOT_AVAILABLE').details).toEqual({
      environment: 'PRODUCTION',
    });
  });
});

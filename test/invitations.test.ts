// UMA invitations (the vendor's /invitations): create, read, claim and cancel, as the vendor's
// OpenAPI describes them, with expiry, isolation, permissions and the INVITATION webhook.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { createCustomer } from './helpers/factories.js';

let ctx: TestContext;
let other: TestPlatform;
let inviter: any;
let invitee: any;

const fields = (res: { body: any }) => (res.body.details?.fields ?? []).map((f: any) => f.field);

beforeAll(async () => {
  ctx = await testContext();
  other = await ctx.newPlatform('Invitee platform');
  inviter = await createCustomer(ctx, { currencies: ['USD'] });
  invitee = await createCustomer(ctx, {}, other.auth);
});

async function invite(body: Record<string, unknown> = {}, auth?: string) {
  return call(ctx, 'POST', '/invitations', { auth, body: { inviterUma: inviter.umaAddress, ...body } });
}

async function eventsOf(platformId: string, type: string) {
  const rows = await ctx.container.db
    .executor()
    .selectFrom('webhook_events')
    .select(['body'])
    .where('platform_id', '=', platformId)
    .where('type', '=', type)
    .execute();
  return rows.map((r) => JSON.parse(r.body));
}

describe('UMA invitations', () => {
  it('creates a pending invitation with the fields of the vendor OpenAPI', async () => {
    const res = await invite({ firstName: 'Ada', amountToSend: 12550 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: 'PENDING',
      inviterUma: inviter.umaAddress,
      firstName: 'Ada',
      amountToSend: { amount: 12550, currency: { code: 'USD', decimals: 2 } },
    });
    expect(res.body.code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(res.body.url).toMatch(new RegExp(`/2025-10-13/invitations/${res.body.code}/page$`));
    // Absent, not null.
    for (const key of ['claimedAt', 'inviteeUma', 'expiresAt']) expect(res.body).not.toHaveProperty(key);
    const read = await call(ctx, 'GET', `/invitations/${res.body.code}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('refuses wrong types, missing fields and an inviter that is not a customer of the caller', async () => {
    const missing = await call(ctx, 'POST', '/invitations', { body: {} });
    expectError(missing, 400, 'INVALID_INPUT');
    expect(fields(missing)).toContain('inviterUma');
    expect(fields(await invite({ amountToSend: '100' }))).toContain('amountToSend');
    expect(fields(await invite({ amountToSend: 0 }))).toContain('amountToSend');
    expect(fields(await invite({ expiresAt: 'tomorrow' }))).toContain('expiresAt');
    expect(fields(await invite({ expiresAt: '2020-01-01T00:00:00Z' }))).toContain('expiresAt');
    expect(fields(await invite({ unknownField: 1 }))).toContain('unknownField');
    expect(fields(await call(ctx, 'POST', '/invitations', { body: { inviterUma: 'not-an-address' } }))).toContain('inviterUma');
    // Another platform's customer is not the caller's to invite with.
    const res = await call(ctx, 'POST', '/invitations', { body: { inviterUma: invitee.umaAddress } });
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['inviterUma']);
  });

  it('is claimed by another platform for its customer, once, and the inviting platform gets the webhook', async () => {
    const made = (await invite()).body;
    // Any platform of the environment holding the code reads it.
    expect((await call(ctx, 'GET', `/invitations/${made.code}`, { auth: other.auth })).body.status).toBe('PENDING');
    // The claimer names one of its own customers.
    expect(fields(await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: other.auth, body: { inviteeUma: inviter.umaAddress } }))).toEqual([
      'inviteeUma',
    ]);
    expect(fields(await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: other.auth, body: {} }))).toEqual(['inviteeUma']);
    const claimed = await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: other.auth, body: { inviteeUma: invitee.umaAddress } });
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body).toMatchObject({ code: made.code, status: 'CLAIMED', inviteeUma: invitee.umaAddress });
    expect(typeof claimed.body.claimedAt).toBe('string');
    // Claim twice: refused, whoever asks.
    expectError(
      await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: other.auth, body: { inviteeUma: invitee.umaAddress } }),
      400,
      'INVITATION_ALREADY_CLAIMED',
    );
    // A claimed invitation cannot be cancelled.
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/cancel`), 400, 'INVITATION_ALREADY_CLAIMED');
    const events = await eventsOf(ctx.platform.platformId, 'INVITATION');
    const mine = events.filter((e) => e.invitation.code === made.code);
    expect(mine).toHaveLength(1);
    expect(mine[0].invitation).toMatchObject({ status: 'CLAIMED', inviteeUma: invitee.umaAddress, inviterUma: inviter.umaAddress });
    expect(await eventsOf(other.platformId, 'INVITATION')).toEqual([]);
  });

  it('an inviter cannot claim its own invitation', async () => {
    const made = (await invite()).body;
    const res = await call(ctx, 'POST', `/invitations/${made.code}/claim`, { body: { inviteeUma: inviter.umaAddress } });
    expectError(res, 400, 'INVALID_INPUT');
    expect(fields(res)).toEqual(['inviteeUma']);
  });

  it('cancel then claim is refused; only the inviting platform cancels', async () => {
    const made = (await invite()).body;
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/cancel`, { auth: other.auth }), 403, 'INVITATION_NOT_INVITER');
    const cancelled = await call(ctx, 'POST', `/invitations/${made.code}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('CANCELLED');
    expectError(
      await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: other.auth, body: { inviteeUma: invitee.umaAddress } }),
      400,
      'INVITATION_CANCELLED',
    );
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/cancel`), 400, 'INVITATION_CANCELLED');
    expect((await call(ctx, 'GET', `/invitations/${made.code}`)).body.status).toBe('CANCELLED');
  });

  it('expires: EXPIRED on read, and neither claimed nor cancelled after', async () => {
    const p = await ctx.newPlatform('Expiring');
    const who = await createCustomer(ctx, {}, p.auth);
    const made = await call(ctx, 'POST', '/invitations', {
      auth: p.auth,
      body: { inviterUma: who.umaAddress, expiresAt: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(made.status).toBe(201);
    expect(made.body.expiresAt).toBeDefined();
    // This platform's sandbox clock moves two minutes on.
    expect((await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 120 } })).status).toBe(200);
    expect((await call(ctx, 'GET', `/invitations/${made.body.code}`, { auth: p.auth })).body.status).toBe('EXPIRED');
    const p2 = await ctx.newPlatform('Late invitee');
    const late = await createCustomer(ctx, {}, p2.auth);
    await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p2.auth, body: { seconds: 120 } });
    const res = await call(ctx, 'POST', `/invitations/${made.body.code}/claim`, { auth: p2.auth, body: { inviteeUma: late.umaAddress } });
    expectError(res, 400, 'INVITATION_EXPIRED');
    expectError(await call(ctx, 'POST', `/invitations/${made.body.code}/cancel`, { auth: p.auth }), 400, 'INVITATION_EXPIRED');
  });

  it("expiry is the inviter's fact: a claimer whose clock is behind or frozen cannot claim an expired invitation", async () => {
    const p = await ctx.newPlatform('Inviter ahead');
    const who = await createCustomer(ctx, {}, p.auth);
    // The inviter's clock runs a day ahead of real time; its invitation lives one hour of that clock.
    await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 24 * 3600 } });
    const inviterNow = Date.parse((await call(ctx, 'GET', '/sandbox/clock', { auth: p.auth })).body.now);
    const made = await call(ctx, 'POST', '/invitations', {
      auth: p.auth,
      body: { inviterUma: who.umaAddress, expiresAt: new Date(inviterNow + 3_600_000).toISOString() },
    });
    expect(made.status).toBe(201);
    const code = made.body.code;
    // A claimer on real time, and one frozen: the invitation is pending for both, and its times are the inviter's.
    const behind = await ctx.newPlatform('Claimer behind');
    const frozen = await ctx.newPlatform('Claimer frozen');
    await call(ctx, 'POST', '/sandbox/clock', { auth: frozen.auth, body: { frozen: true } });
    for (const reader of [behind, frozen]) expect((await call(ctx, 'GET', `/invitations/${code}`, { auth: reader.auth })).body.status).toBe('PENDING');

    await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 3601 } });
    for (const reader of [p, behind, frozen]) expect((await call(ctx, 'GET', `/invitations/${code}`, { auth: reader.auth })).body.status).toBe('EXPIRED');
    expect((await ctx.app.inject({ url: `/2025-10-13/invitations/${code}/page` })).body).toContain('EXPIRED');
    for (const claimer of [behind, frozen]) {
      const customer = await createCustomer(ctx, {}, claimer.auth);
      expectError(
        await call(ctx, 'POST', `/invitations/${code}/claim`, { auth: claimer.auth, body: { inviteeUma: customer.umaAddress } }),
        400,
        'INVITATION_EXPIRED',
      );
    }
    expect((await call(ctx, 'GET', `/invitations/${code}`, { auth: p.auth })).body.claimedAt).toBeUndefined();
  });

  it("a claim is recorded on the inviter's clock, never before the invitation was created", async () => {
    const p = await ctx.newPlatform('Inviter far ahead');
    const who = await createCustomer(ctx, {}, p.auth);
    await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 10 * 24 * 3600 } });
    const made = await call(ctx, 'POST', '/invitations', { auth: p.auth, body: { inviterUma: who.umaAddress } });
    const claimer = await ctx.newPlatform('Claimer on real time');
    const customer = await createCustomer(ctx, {}, claimer.auth);
    const claimed = await call(ctx, 'POST', `/invitations/${made.body.code}/claim`, { auth: claimer.auth, body: { inviteeUma: customer.umaAddress } });
    expect(claimed.status).toBe(200);
    expect(Date.parse(claimed.body.claimedAt)).toBeGreaterThanOrEqual(Date.parse(made.body.createdAt));
    const [event] = (await eventsOf(p.platformId, 'INVITATION')).filter((e) => e.invitation.code === made.body.code);
    expect(event.invitation.claimedAt).toBe(claimed.body.claimedAt);
  });

  it('is idempotent with an Idempotency-Key', async () => {
    const headers = { 'idempotency-key': `inv-${Date.now()}` };
    const a = await call(ctx, 'POST', '/invitations', { headers, body: { inviterUma: inviter.umaAddress } });
    const b = await call(ctx, 'POST', '/invitations', { headers, body: { inviterUma: inviter.umaAddress } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body.code).toBe(a.body.code);
  });

  it('isolation, environments and permissions', async () => {
    const made = (await invite()).body;
    expectError(await call(ctx, 'GET', '/invitations/NoSuchCode123'), 404, 'INVITATION_NOT_FOUND');
    // The other environment does not see it.
    const production = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', `/invitations/${made.code}`, { auth: production }), 404, 'INVITATION_NOT_FOUND');
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/cancel`, { auth: production }), 404, 'INVITATION_NOT_FOUND');
    const view = await ctx.platform.token(['VIEW']);
    expect((await call(ctx, 'GET', `/invitations/${made.code}`, { auth: view })).status).toBe(200);
    expectError(await invite({}, view), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/cancel`, { auth: view }), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', `/invitations/${made.code}/claim`, { auth: view, body: { inviteeUma: invitee.umaAddress } }), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'GET', `/invitations/${made.code}`, { auth: null }), 401, 'UNAUTHORIZED');
  });

  it("serves the invitation's page without credentials, escaped, with a strict policy", async () => {
    const made = (await invite({ firstName: '<b>Ada</b>' })).body;
    const res = await ctx.app.inject({ url: new URL(made.url).pathname });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    expect(res.body).not.toContain('<b>Ada</b>');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    expect((await ctx.app.inject({ url: '/2025-10-13/invitations/nope/page' })).statusCode).toBe(404);
  });
});

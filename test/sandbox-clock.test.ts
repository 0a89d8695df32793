/**
 * Each platform's sandbox clock: GET /sandbox/clock, POST /sandbox/clock/advance and
 * POST /sandbox/clock (freeze). Real time is a manual clock that moves only when a test moves it;
 * SANDBOX_TIME_SCALE is 1, so the spec's delays are whole: a quote lives 5 minutes, a 003 payout
 * takes 6. Nothing here waits on real time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createContainer } from '../src/container.js';
import { call, expectError, type TestContext, type TestPlatform } from './helpers/context.js';
import { drainPayments, drainWebhooks, externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
import { clockedSuite } from './helpers/sandbox-clock.js';

const suite = clockedSuite('Clocked');
const { clock } = suite;
const platform = suite.platform;
let ctx: TestContext;
beforeAll(() => {
  ctx = suite.ctx;
});

/** A prefunded USD → EUR quote of 2,000 to an IBAN ending in `suffix`. */
async function quote(p: TestPlatform, suffix = '000') {
  const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000, p.auth);
  const destination = await externalAccount(ctx, 'IBAN', suffix, { customerId: customer.id, auth: p.auth });
  const q = await quoteFromAccount(ctx, accounts.USD.id, destination.id, 2_000, {}, p.auth);
  expect(q.status).toBe(201);
  return q.body;
}

const advance = (p: TestPlatform, seconds: number) => call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds } });
const freeze = (p: TestPlatform, frozen: boolean) => call(ctx, 'POST', '/sandbox/clock', { auth: p.auth, body: { frozen } });
const now = async (p: TestPlatform) => (await call(ctx, 'GET', '/sandbox/clock', { auth: p.auth })).body;
const tx = async (p: TestPlatform, id: string) => (await call(ctx, 'GET', `/transactions/${id}`, { auth: p.auth })).body;

describe('GET /sandbox/clock', () => {
  it('a platform that never touched its clock runs on real time', async () => {
    const p = await platform();
    const r = await call(ctx, 'GET', '/sandbox/clock', { auth: p.auth });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ now: clock.now().toISOString(), frozen: false });
  });
});

describe('quote expiry', () => {
  it('a quote expires after advancing 301 seconds, not after 299; another platform’s quote is untouched', async () => {
    const p = await platform();
    const other = await platform();
    const q = await quote(p);
    const theirs = await quote(other);
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(300_000);

    const first = await advance(p, 299);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ now: new Date(clock.now().getTime() + 299_000).toISOString(), frozen: false, stepsRun: 0 });
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: p.auth })).body.status).toBe('PENDING');

    const second = await advance(p, 2);
    expect(second.body.stepsRun).toBe(1);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: p.auth })).body.status).toBe('EXPIRED');
    const t = await tx(p, q.transactionId);
    expect(t).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    // Stamped at its due time on the platform's clock, while real time did not move.
    expect(t.updatedAt).toBe(q.expiresAt);
    const events = await ctx.container.db.executor().selectFrom('webhook_events').selectAll().where('subject', '=', q.transactionId).execute();
    expect(events.map((e) => JSON.parse(e.body).transaction.status)).toEqual(['EXPIRED']);
    // The webhook's own timestamp is real time (receivers check freshness), its transaction's the platform's.
    expect(JSON.parse(events[0].body).timestamp).toBe(clock.now().toISOString());
    expect(JSON.parse(events[0].body).transaction.updatedAt).toBe(q.expiresAt);
    await drainWebhooks(ctx);
    expect(
      p.receiver
        .accepted()
        .filter((e) => e.transaction?.id === q.transactionId)
        .map((e) => e.transaction.status),
    ).toEqual(['EXPIRED']);
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: p.auth }), 400, 'QUOTE_EXPIRED');

    // The other platform: its own clock, its quote still PENDING, its expiry still 5 real minutes away.
    expect(await now(other)).toEqual({ now: clock.now().toISOString(), frozen: false });
    expect((await call(ctx, 'GET', `/quotes/${theirs.id}`, { auth: other.auth })).body.status).toBe('PENDING');
    expect(await drainPayments(ctx)).toBe(0);
    expect((await call(ctx, 'GET', `/quotes/${theirs.id}`, { auth: other.auth })).body.status).toBe('PENDING');
    clock.advance(300_000);
    expect(await drainPayments(ctx)).toBe(1);
    expect((await call(ctx, 'GET', `/quotes/${theirs.id}`, { auth: other.auth })).body.status).toBe('EXPIRED');
  });

  it('a quote created after an advance carries the platform’s time', async () => {
    const p = await platform();
    await advance(p, 86_400);
    const q = await quote(p);
    expect(q.createdAt).toBe(new Date(clock.now().getTime() + 86_400_000).toISOString());
    // Its expiry follows the platform's clock: 5 minutes of it, not of real time.
    expect(await drainPayments(ctx)).toBe(0);
    expect((await advance(p, 301)).body.stepsRun).toBe(1);
    expect((await tx(p, q.transactionId)).status).toBe('EXPIRED');
  });
});

describe('timed payouts', () => {
  it('a payout to a 003 account completes after advancing 6 minutes, settledAt on the platform’s clock', async () => {
    const p = await platform();
    await advance(p, 3_600);
    const q = await quote(p, '003');
    const executed = await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: p.auth });
    expect(executed.body.status).toBe('PROCESSING');
    const startedAt = Date.parse((await now(p)).now);
    // Within those 6 minutes the quote's own expiry falls due: it runs and finds nothing to expire.
    expect((await advance(p, 359)).body.stepsRun).toBe(1);
    expect((await tx(p, q.transactionId)).status).toBe('PROCESSING');
    const done = await advance(p, 1);
    expect(done.body.stepsRun).toBeGreaterThanOrEqual(1);
    const t = await tx(p, q.transactionId);
    expect(t.status).toBe('COMPLETED');
    expect(t.settledAt).toBe(new Date(startedAt + 360_000).toISOString());
    expect(t.settledAt).toBe(done.body.now);
    expect(Date.parse(t.settledAt)).toBeGreaterThan(clock.now().getTime() + 3_600_000);
    await drainWebhooks(ctx);
    expect(
      p.receiver
        .accepted()
        .filter((e) => e.transaction?.id === q.transactionId)
        .map((e) => e.transaction.status),
    ).toEqual(['PROCESSING', 'COMPLETED']);
  });

  it('one advance runs several due steps in time order, each at its own due time', async () => {
    const p = await platform();
    const q3 = await quote(p, '003');
    const q5 = await quote(p, '005');
    await call(ctx, 'POST', `/quotes/${q3.id}/execute`, { auth: p.auth });
    await call(ctx, 'POST', `/quotes/${q5.id}/execute`, { auth: p.auth });
    const start = Date.parse((await now(p)).now);
    const r = await advance(p, 3_600);
    // 005's return (30 s), both quotes' expiries (5 min, nothing left to expire), 003's completion (6 min).
    expect(r.body.stepsRun).toBe(4);
    const returned = await tx(p, q5.transactionId);
    expect(returned).toMatchObject({ status: 'FAILED', failureReason: 'COUNTERPARTY_POST_TX_FAILED' });
    expect(returned.updatedAt).toBe(new Date(start + 30_000).toISOString());
    expect((await tx(p, q3.transactionId)).updatedAt).toBe(new Date(start + 360_000).toISOString());
  });
});

describe('approval windows and lookups', () => {
  it('an incoming payment awaiting approval fails after advancing past its window, not before', async () => {
    const p = await platform();
    const settings = { incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: [], windowSeconds: 300 } };
    expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: settings })).status).toBe(200);
    const domain = (await call(ctx, 'GET', '/config', { auth: p.auth })).body.umaDomain;
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'rita', customerType: 'INDIVIDUAL', fullName: 'Rita Receiver', currencies: ['USD'], umaAddress: `$rita@${domain}` },
    });
    await advance(p, 7_200);
    const r = await call(ctx, 'POST', '/sandbox/uma/receive', {
      auth: p.auth,
      body: { receiverUmaAddress: c.body.umaAddress, currencyCode: 'USD', currencyAmount: 5_000 },
    });
    expect(r.body.status).toBe('PENDING');
    expect(r.body.createdAt).toBe(new Date(clock.now().getTime() + 7_200_000).toISOString());
    await drainWebhooks(ctx);
    expect((await advance(p, 299)).body.stepsRun).toBe(0);
    expect((await tx(p, r.body.id)).status).toBe('PENDING');
    expect((await advance(p, 1)).body.stepsRun).toBe(1);
    const t = await tx(p, r.body.id);
    expect(t).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect(t.updatedAt).toBe(new Date(Date.parse(r.body.createdAt) + 300_000).toISOString());
  });

  it('a receiver lookup expires 5 minutes after it was made on the platform’s clock', async () => {
    const p = await platform();
    const domain = (await call(ctx, 'GET', '/config', { auth: p.auth })).body.umaDomain;
    await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'bea', customerType: 'INDIVIDUAL', fullName: 'Bea', currencies: ['USD'], umaAddress: `$bea@${domain}` },
    });
    await advance(p, 86_400);
    const lookup = await call(ctx, 'GET', `/receiver/uma/$bea@${domain}`, { auth: p.auth });
    expect(lookup.status).toBe(200);
    const row = await ctx.container.db
      .executor()
      .selectFrom('receiver_lookups')
      .select('expires_at')
      .where('id', '=', lookup.body.id)
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(new Date(clock.now().getTime() + 86_400_000 + 300_000).toISOString());
  });
});

describe('a UMA payment between two platforms: each side on its own clock', () => {
  /** A receiving platform (optionally asking for approval) with a EUR customer, and a funded USD payer of `sender`. */
  async function pair(sender: TestPlatform, approval?: { windowSeconds: number }) {
    const receiver = await platform();
    if (approval) {
      const settings = { incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: [], windowSeconds: approval.windowSeconds } };
      expect((await call(ctx, 'PATCH', '/config', { auth: receiver.auth, body: settings })).status).toBe(200);
    }
    const domain = (await call(ctx, 'GET', '/config', { auth: receiver.auth })).body.umaDomain;
    const local = `rae${Math.random().toString(36).slice(2, 8)}`;
    const bea = await call(ctx, 'POST', '/customers', {
      auth: receiver.auth,
      body: { platformCustomerId: local, customerType: 'INDIVIDUAL', fullName: 'Rae Receiver', currencies: ['EUR'], umaAddress: `$${local}@${domain}` },
    });
    expect(bea.status).toBe(201);
    const { accounts } = await fundedCustomer(ctx, ['USD'], 10_000, sender.auth);
    return { receiver, address: bea.body.umaAddress as string, customerId: bea.body.id as string, usd: accounts.USD.id as string };
  }

  async function pay(sender: TestPlatform, address: string, usd: string) {
    const lookup = await call(ctx, 'GET', `/receiver/uma/${address}`, { auth: sender.auth, query: { sendingCurrency: 'USD' } });
    expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
    const q = await call(ctx, 'POST', '/quotes', {
      auth: sender.auth,
      body: {
        source: { sourceType: 'ACCOUNT', accountId: usd },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 2_000,
        lookupId: lookup.body.id,
        immediatelyExecute: true,
      },
    });
    expect(q.status, JSON.stringify(q.body)).toBe(201);
    return q.body;
  }

  async function incoming(receiver: TestPlatform, customerId: string) {
    const list = await call(ctx, 'GET', '/transactions', { auth: receiver.auth, query: { customerId, type: 'INCOMING' } });
    expect(list.body.data).toHaveLength(1);
    return list.body.data[0];
  }

  it("a sender 25 hours ahead: the receiver's transaction is created on the receiver's clock, the sender's settles on the sender's", async () => {
    const sender = await platform();
    const { receiver, address, customerId, usd } = await pair(sender);
    await advance(sender, 25 * 3600);
    const q = await pay(sender, address, usd);
    const got = await incoming(receiver, customerId);
    expect(got.status).toBe('COMPLETED');
    expect(got.createdAt).toBe(clock.now().toISOString());
    expect(got.createdAt).toBe((await now(receiver)).now);
    const sent = await tx(sender, q.transactionId);
    expect(sent.status).toBe('COMPLETED');
    expect(sent.updatedAt).toBe((await now(sender)).now);
  });

  it("a frozen sender: the receiver's approval window runs on the receiver's clock; its advance times the payment out and refunds the sender", async () => {
    const sender = await platform();
    const { receiver, address, customerId, usd } = await pair(sender, { windowSeconds: 300 });
    await advance(sender, 3600);
    const stoppedAt = (await freeze(sender, true)).body.now;
    clock.advance(60_000);
    await pay(sender, address, usd);
    const got = await incoming(receiver, customerId);
    expect(got.status).toBe('PENDING');
    expect(got.createdAt).toBe(clock.now().toISOString());
    await drainWebhooks(ctx);
    expect((await advance(receiver, 299)).body.stepsRun).toBe(0);
    expect((await advance(receiver, 1)).body.stepsRun).toBe(1);
    const failed = await tx(receiver, got.id);
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expect(failed.updatedAt).toBe(new Date(Date.parse(got.createdAt) + 300_000).toISOString());
    expect((await call(ctx, 'GET', `/internal-accounts/${usd}`, { auth: sender.auth })).body.balance.amount).toBe(10_000);
    const sent = (await call(ctx, 'GET', '/transactions', { auth: sender.auth, query: { type: 'OUTGOING' } })).body.data[0];
    expect(sent).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT', updatedAt: stoppedAt });
    await freeze(sender, false);
  });

  it('a frozen sender: the receiver approves (or rejects) within its own window', async () => {
    const sender = await platform();
    const { receiver, address, customerId, usd } = await pair(sender, { windowSeconds: 300 });
    const stoppedAt = (await freeze(sender, true)).body.now;
    clock.advance(3_600_000);
    const q = await pay(sender, address, usd);
    const got = await incoming(receiver, customerId);
    const approved = await call(ctx, 'POST', `/transactions/${got.id}/approve`, { auth: receiver.auth, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ status: 'COMPLETED', updatedAt: clock.now().toISOString() });
    expect(await tx(sender, q.transactionId)).toMatchObject({ status: 'COMPLETED', updatedAt: stoppedAt });

    const q2 = await pay(sender, address, usd);
    const list = await call(ctx, 'GET', '/transactions', { auth: receiver.auth, query: { customerId, type: 'INCOMING', status: 'PENDING' } });
    const rejected = await call(ctx, 'POST', `/transactions/${list.body.data[0].id}/reject`, { auth: receiver.auth, body: { reason: 'no' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await tx(sender, q2.transactionId)).toMatchObject({ status: 'REJECTED', refund: { status: 'COMPLETED' } });
    await freeze(sender, false);
  });
});

describe('freezing', () => {
  it('a frozen clock keeps a quote PENDING while real time passes; unfrozen, it runs on from where it stopped', async () => {
    const p = await platform();
    const q = await quote(p);
    const frozen = await freeze(p, true);
    expect(frozen.status).toBe(200);
    expect(frozen.body).toEqual({ now: clock.now().toISOString(), frozen: true });
    const stoppedAt = frozen.body.now;
    clock.advance(3_600_000);
    await drainPayments(ctx);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: p.auth })).body.status).toBe('PENDING');
    expect(await now(p)).toEqual({ now: stoppedAt, frozen: true });
    // A quote made now carries the stopped time.
    expect((await quote(p)).createdAt).toBe(stoppedAt);

    // Advancing a frozen clock moves it, and runs what falls due.
    const moved = await advance(p, 60);
    expect(moved.body).toEqual({ now: new Date(Date.parse(stoppedAt) + 60_000).toISOString(), frozen: true, stepsRun: 0 });

    const running = await freeze(p, false);
    expect(running.body).toEqual({ now: moved.body.now, frozen: false });
    await drainPayments(ctx);
    clock.advance(239_000);
    await drainPayments(ctx);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: p.auth })).body.status).toBe('PENDING');
    clock.advance(1_000);
    await drainPayments(ctx);
    const t = await tx(p, q.transactionId);
    expect(t).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    expect(t.updatedAt).toBe(q.expiresAt);
    // Freezing twice, or unfreezing a running clock, changes nothing.
    expect((await freeze(p, false)).body.frozen).toBe(false);
    await freeze(p, true);
    expect((await freeze(p, true)).body).toEqual(await now(p));
    await freeze(p, false);
  });
});

describe('limits and access', () => {
  it('seconds must be an integer from 1 to 2,592,000; a PRODUCTION token gets 403; VIEW may read but not move it', async () => {
    const p = await platform();
    for (const seconds of [0, -5, 2_592_001, 1.5]) expectError(await advance(p, seconds), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds: 10, extra: true } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'POST', '/sandbox/clock', { auth: p.auth, body: {} }), 400, 'INVALID_INPUT');
    expect((await advance(p, 2_592_000)).status).toBe(200);
    const production = await p.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', '/sandbox/clock', { auth: production }), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', '/sandbox/clock/advance', { auth: production, body: { seconds: 60 } }), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', '/sandbox/clock', { auth: production, body: { frozen: true } }), 403, 'FORBIDDEN');
    const viewer = await p.token(['VIEW']);
    expect((await call(ctx, 'GET', '/sandbox/clock', { auth: viewer })).status).toBe(200);
    expectError(await call(ctx, 'POST', '/sandbox/clock/advance', { auth: viewer, body: { seconds: 60 } }), 403, 'FORBIDDEN');
    // PRODUCTION objects keep real time.
    expect(Date.parse((await now(p)).now)).toBe(clock.now().getTime() + 2_592_000_000);
  });

  it('the clock survives a restart: it is kept in the database', async () => {
    const p = await platform();
    await advance(p, 600);
    await freeze(p, true);
    const row = await ctx.container.db.executor().selectFrom('sandbox_clocks').selectAll().where('platform_id', '=', p.platformId).executeTakeFirstOrThrow();
    expect(Number(row.frozen_at_ms)).toBe(clock.now().getTime() + 600_000);
    expect(Number(row.offset_ms)).toBe(600_000);
    ctx.container.sandbox.clocks.forget(p.platformId);
    expect(await now(p)).toEqual({ now: new Date(clock.now().getTime() + 600_000).toISOString(), frozen: true });
    await freeze(p, false);
  });
});

describe('races', () => {
  /** Executes n 003 payouts; returns their transaction ids. */
  async function payouts(p: TestPlatform, n: number) {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const q = await quote(p, '003');
      expect((await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: p.auth })).body.status).toBe('PROCESSING');
      ids.push(q.transactionId);
    }
    return ids;
  }
  async function completedOnce(p: TestPlatform, ids: string[]) {
    for (const id of ids) {
      const history = await ctx.container.services.transactions.history({ platformId: p.platformId, environment: 'SANDBOX' }, id);
      expect(history.map((h) => `${h.from}→${h.to}`)).toEqual(['PENDING→PROCESSING', 'PROCESSING→COMPLETED']);
    }
  }

  it('two concurrent advances: every step runs once', async () => {
    const p = await platform();
    const ids = await payouts(p, 4);
    const [a, b] = await Promise.all([advance(p, 400), advance(p, 400)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // 4 completions and 4 quote expiries, each run by one of the two.
    expect(a.body.stepsRun + b.body.stepsRun).toBe(8);
    await completedOnce(p, ids);
    expect((await now(p)).now).toBe(new Date(clock.now().getTime() + 800_000).toISOString());
  });

  it('an advance racing the payment worker (jobs.claimNext): every step runs once', async () => {
    const p = await platform();
    const ids = await payouts(p, 4);
    const [r, drained] = await Promise.all([advance(p, 400), drainPayments(ctx)]);
    expect(r.body.stepsRun + drained).toBe(8);
    await completedOnce(p, ids);
  });

  it('two nodes over one database: an advance on one, the worker and an advance on the other; every step runs once', async () => {
    const p = await platform();
    const ids = await payouts(p, 4);
    // A second node: its own job queue (node id), clock cache and engine, over the same database.
    const other = await createContainer(ctx.config, { db: ctx.container.db, clock });
    let drained = 0;
    const drain = async () => {
      while (await other.payments.engine.processNext()) drained++;
    };
    const [r, , s] = await Promise.all([advance(p, 400), drain(), other.sandbox.clock.advance({ platformId: p.platformId, environment: 'SANDBOX' }, 1)]);
    expect(r.body.stepsRun + s.stepsRun + drained).toBe(8);
    await completedOnce(p, ids);
    // The other node reads the same clock.
    other.sandbox.clocks.forget(p.platformId);
    expect(await other.sandbox.clock.get({ platformId: p.platformId, environment: 'SANDBOX' })).toEqual(await now(p));
    other.fx.stop();
  });
});

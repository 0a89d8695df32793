/**
 * The sandbox's test helpers (POST /sandbox/transactions/{id}/complete, /fail, /return,
 * /approval-timeout), each compared side by side with the rail's own outcome (a suffix pattern or
 * a timed job): the same statuses, webhooks, history and ledger legs. Time is a manual clock.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import type { Scope } from '../src/common/scope.js';
import { SANDBOX_LONG_PAYMENT_MS, SANDBOX_RETURN_MS } from '../src/rails/sandbox.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import {
  balance,
  drainPayments,
  drainWebhooks,
  externalAccount,
  fundedCustomer,
  getTransaction,
  quoteFromAccount,
  webhookReceiver,
  webhookStatuses,
} from './helpers/payments.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
let receiver: WebhookReceiver;
let scope: Scope;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  ctx = await testContext({ clock });
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
  receiver = await webhookReceiver(ctx, () => clock.now().getTime());
});
afterAll(async () => {
  await receiver.close();
  for (const r of receivers) await r.close();
});
afterEach(() => expectLedgerBalanced(ctx));

/** A USD → EUR payout of 20,000 to an IBAN ending in `suffix`, executed; returns the transaction and the payer's account. */
async function payout(suffix: string) {
  const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 50_000);
  const destination = await externalAccount(ctx, 'IBAN', suffix, { customerId: customer.id });
  const quote = await quoteFromAccount(ctx, accounts.USD.id, destination.id, 20_000);
  expect(quote.status).toBe(201);
  const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
  expect(executed.status).toBe(200);
  return { id: quote.body.transactionId as string, payer: accounts.USD.id as string };
}

/** The ledger legs of a transaction with account ids replaced by the order they first appear in: the shape of the money movement. */
async function legs(id: string, s: Scope = scope) {
  const { transfers } = await ctx.container.ledger.transfersOf(s, id);
  const names = new Map<string, number>();
  const name = (a: string) => (names.has(a) ? names.get(a)! : (names.set(a, names.size), names.size - 1));
  return transfers.map((t) => ({
    phase: t.phase,
    code: t.code,
    currency: t.currency,
    amount: t.amount,
    debit: name(t.debitAccountId),
    credit: name(t.creditAccountId),
  }));
}

/** What the two sides must share: status, reason, refund shape, webhooks, history steps, ledger legs and the payer's balance. */
async function outcome(id: string, payer: string) {
  const tx = await getTransaction(ctx, id);
  const history = (await ctx.container.services.transactions.history(scope, id)).map((h) => `${h.from}→${h.to}`);
  return {
    status: tx.status,
    failureReason: tx.failureReason,
    refund: tx.refund ? { status: tx.refund.status, reason: tx.refund.reason, settled: tx.refund.settledAt !== null } : undefined,
    settled: tx.settledAt !== null,
    hooks: await webhookStatuses(ctx, receiver, id),
    history,
    legs: await legs(id),
    balance: await balance(ctx, payer),
  };
}

const helper = (action: string, id: string, body?: unknown, auth?: string) => call(ctx, 'POST', `/sandbox/transactions/${id}/${action}`, { auth, body });

describe('complete', () => {
  it('a 003 payout completed by the helper ends as the timed step ends it; the pending step later does nothing', async () => {
    const timed = await payout('003');
    clock.advance(SANDBOX_LONG_PAYMENT_MS);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    const byRail = await outcome(timed.id, timed.payer);

    const forced = await payout('003');
    const res = await helper('complete', forced.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: forced.id, status: 'COMPLETED' });
    expect(res.body.settledAt).toBe(clock.now().toISOString());
    const byHelper = await outcome(forced.id, forced.payer);
    expect(byHelper).toEqual(byRail);
    expect(byHelper).toMatchObject({
      status: 'COMPLETED',
      hooks: ['PROCESSING', 'COMPLETED'],
      history: ['PENDING→PROCESSING', 'PROCESSING→COMPLETED'],
      balance: 30_000,
    });
    const causes = (await ctx.container.services.transactions.history(scope, forced.id)).map((h) => h.cause);
    expect(causes[1]).toMatch(/test helper/);

    // The 003 job still pending for this payout runs and changes nothing.
    clock.advance(SANDBOX_LONG_PAYMENT_MS);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    expect(await outcome(forced.id, forced.payer)).toEqual(byHelper);

    // Completing again: 409, nothing changes.
    const again = expectError(await helper('complete', forced.id), 409, 'TRANSACTION_NOT_PROCESSING');
    expect(again.details).toMatchObject({ transactionId: forced.id, status: 'COMPLETED' });
    expect(await outcome(forced.id, forced.payer)).toEqual(byHelper);
  });
});

describe('fail', () => {
  it('a 003 payout failed by the helper ends as a 004 payout does (refunded); the pending step later does nothing', async () => {
    const bySuffix = await payout('004');
    const rail = await outcome(bySuffix.id, bySuffix.payer);

    const forced = await payout('003');
    const res = await helper('fail', forced.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    // A 004 payout fails in the request that started it (nothing reserved stays); the helper voids the reservation.
    const mine = await outcome(forced.id, forced.payer);
    expect({ ...mine, legs: undefined }).toEqual({ ...rail, legs: undefined });
    expect(mine).toMatchObject({ hooks: ['PROCESSING', 'FAILED'], balance: 50_000 });

    clock.advance(SANDBOX_LONG_PAYMENT_MS);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    expect(await outcome(forced.id, forced.payer)).toEqual(mine);
    expectError(await helper('fail', forced.id, {}), 409, 'TRANSACTION_NOT_PROCESSING');
  });

  it('records the failureReason given; without a body the default; the reservation is voided either way', async () => {
    const timed = await payout('003');
    const forced = await payout('003');
    expect((await helper('fail', timed.id, { failureReason: 'PAY_REQUEST_FAILED' })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAY_REQUEST_FAILED',
    });
    expect((await helper('fail', forced.id)).status).toBe(200);
    const a = await outcome(timed.id, timed.payer);
    const b = await outcome(forced.id, forced.payer);
    expect(a.legs).toEqual(b.legs);
    expect(a.legs.map((l) => l.phase)).toContain('VOID_PENDING');
    expect(b.failureReason).toBe('OFFRAMP_FAILED');
  });

  it('refuses a failureReason outside the spec’s list (400) and changes nothing', async () => {
    const p = await payout('003');
    expectError(await helper('fail', p.id, { failureReason: 'BANK_ON_FIRE' }), 400, 'INVALID_INPUT');
    expectError(await helper('fail', p.id, { failureReason: 'OFFRAMP_FAILED', extra: 1 }), 400, 'INVALID_INPUT');
    expect((await getTransaction(ctx, p.id)).status).toBe('PROCESSING');
    await helper('complete', p.id);
    await drainWebhooks(ctx);
  });
});

describe('return', () => {
  it('a completed payout returned by the helper ends as a 005 payout does after its timed return', async () => {
    const timed = await payout('005');
    clock.advance(SANDBOX_RETURN_MS);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    const byRail = await outcome(timed.id, timed.payer);

    const forced = await payout('000');
    expect((await getTransaction(ctx, forced.id)).status).toBe('COMPLETED');
    const res = await helper('return', forced.id, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      failureReason: 'COUNTERPARTY_POST_TX_FAILED',
      refund: { status: 'COMPLETED', reason: 'PAYMENT_RETURNED' },
    });
    const byHelper = await outcome(forced.id, forced.payer);
    expect(byHelper).toEqual(byRail);
    expect(byHelper).toMatchObject({ hooks: ['PROCESSING', 'COMPLETED', 'FAILED'], balance: 50_000 });

    expectError(await helper('return', forced.id, {}), 409, 'TRANSACTION_NOT_COMPLETED');
    expect(await outcome(forced.id, forced.payer)).toEqual(byHelper);
  });

  it('a 005 payout returned early: its timed return later does nothing', async () => {
    const p = await payout('005');
    expect((await helper('return', p.id, { failureReason: 'OFFRAMP_FAILED' })).body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
    const before = await outcome(p.id, p.payer);
    clock.advance(SANDBOX_RETURN_MS);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    expect(await outcome(p.id, p.payer)).toEqual(before);
    expect(before.legs.filter((l) => l.code === 'REFUND').length).toBeGreaterThan(0);
  });

  it('a PROCESSING payout cannot be returned (409), nor completed twice', async () => {
    const p = await payout('003');
    const res = expectError(await helper('return', p.id, {}), 409, 'TRANSACTION_NOT_COMPLETED');
    expect(res.details).toMatchObject({ status: 'PROCESSING' });
    expect((await getTransaction(ctx, p.id)).status).toBe('PROCESSING');
    await helper('complete', p.id);
    await drainWebhooks(ctx);
  });
});

describe('approval-timeout', () => {
  async function receivingPlatform() {
    const p = await ctx.newPlatform('Receiving');
    const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
    const r = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
    receivers.push(r);
    const settings = { webhookEndpoint: r.url, incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: [], windowSeconds: 300 } };
    expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: settings })).status).toBe(200);
    return { p, r, domain: config.umaDomain as string };
  }
  async function arrival(p: TestPlatform, domain: string, local: string) {
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: {
        platformCustomerId: `in-${local}`,
        customerType: 'INDIVIDUAL',
        fullName: 'Rita Receiver',
        currencies: ['USD'],
        umaAddress: `$${local}@${domain}`,
      },
    });
    expect(c.status).toBe(201);
    const r = await call(ctx, 'POST', '/sandbox/uma/receive', {
      auth: p.auth,
      body: { receiverUmaAddress: c.body.umaAddress, currencyCode: 'USD', currencyAmount: 5_000 },
    });
    expect(r.body.status).toBe('PENDING');
    await drainWebhooks(ctx);
    return r.body.id as string;
  }
  async function state(p: TestPlatform, r: WebhookReceiver, id: string) {
    await drainWebhooks(ctx);
    const tx = (await call(ctx, 'GET', `/transactions/${id}`, { auth: p.auth })).body;
    const history = (await ctx.container.services.transactions.history({ platformId: p.platformId, environment: 'SANDBOX' }, id)).map(
      (h) => `${h.from}→${h.to}`,
    );
    const hooks = r
      .accepted()
      .filter((e) => e.transaction?.id === id)
      .map((e) => e.transaction.status);
    return { status: tx.status, failureReason: tx.failureReason, history, hooks, legs: await legs(id, { platformId: p.platformId, environment: 'SANDBOX' }) };
  }

  it('fails the payment as its deadline job does; the job later does nothing', async () => {
    const { p, r, domain } = await receivingPlatform();
    const timed = await arrival(p, domain, 'late.one');
    clock.advance(300_000);
    while (await ctx.container.incoming.processNext());
    const byJob = await state(p, r, timed);

    const forced = await arrival(p, domain, 'late.two');
    const res = await helper('approval-timeout', forced, undefined, p.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    const byHelper = await state(p, r, forced);
    expect(byHelper).toEqual(byJob);
    expect(byHelper).toMatchObject({ hooks: ['PENDING', 'FAILED'], history: ['PENDING→FAILED'], legs: [] });

    clock.advance(300_000);
    expect(await ctx.container.incoming.processNext()).toBe(true);
    expect(await state(p, r, forced)).toEqual(byHelper);
    expectError(await helper('approval-timeout', forced, undefined, p.auth), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expectError(await call(ctx, 'POST', `/transactions/${forced}/approve`, { auth: p.auth, body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
  });

  it('answers 409 for a payment that needs no approval, and the other helpers 409 for an incoming payment', async () => {
    const p = await payout('003');
    expectError(await helper('approval-timeout', p.id), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    const { p: platform, domain } = await receivingPlatform();
    const id = await arrival(platform, domain, 'waiting.one');
    expectError(await helper('complete', id, undefined, platform.auth), 409, 'TRANSACTION_NOT_PROCESSING');
    expectError(await helper('return', id, {}, platform.auth), 409, 'TRANSACTION_NOT_COMPLETED');
    expect((await call(ctx, 'GET', `/transactions/${id}`, { auth: platform.auth })).body.status).toBe('PENDING');
    expect((await call(ctx, 'POST', `/transactions/${id}/approve`, { auth: platform.auth, body: {} })).body.status).toBe('COMPLETED');
    await helper('complete', p.id);
    await drainWebhooks(ctx);
  });
});

describe('access', () => {
  it('another platform’s transaction and an unknown id are 404; a PRODUCTION token is 403; VIEW alone is 403', async () => {
    const p = await payout('003');
    const other = await ctx.newPlatform('Other');
    for (const action of ['complete', 'fail', 'return', 'approval-timeout']) {
      const body = action === 'fail' || action === 'return' ? {} : undefined;
      expectError(await helper(action, p.id, body, other.auth), 404, 'TRANSACTION_NOT_FOUND');
      expectError(await helper(action, 'Transaction:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11', body), 404, 'TRANSACTION_NOT_FOUND');
      expectError(await helper(action, p.id, body, await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION')), 403, 'FORBIDDEN');
      expectError(await helper(action, p.id, body, await ctx.platform.token(['VIEW'])), 403, 'FORBIDDEN');
    }
    expect((await getTransaction(ctx, p.id)).status).toBe('PROCESSING');
    await helper('complete', p.id);
    await drainWebhooks(ctx);
  });
});

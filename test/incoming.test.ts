/**
 * Incoming UMA payments simulated with POST /sandbox/uma/receive: landing in the internal
 * account, missing payer data, the approval flow (approved, rejected, timed out, webhook not
 * deliverable), the default UMA deposit account and the sandbox suffixes. Time is a manual
 * clock; approval deadlines run from the incoming worker's durable jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { accountBody, createAccount } from './helpers/external-accounts.js';
import { balance, drainPayments, drainWebhooks } from './helpers/payments.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
const receivers: WebhookReceiver[] = [];
afterAll(async () => {
  for (const r of receivers) await r.close();
});

beforeAll(async () => {
  ctx = await testContext({ clock });
});

/** A platform with a verifying webhook receiver as its endpoint and the given incoming settings. */
async function platformWith(settings: Record<string, unknown>, opts: { endpoint?: boolean } = {}) {
  const p = await ctx.newPlatform('Receiving');
  const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
  const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
  receivers.push(receiver);
  const body = { ...settings, ...(opts.endpoint === false ? {} : { webhookEndpoint: receiver.url }) };
  expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body })).status).toBe(200);
  return { p, receiver, domain: config.umaDomain as string };
}

async function customer(p: TestPlatform, domain: string, local: string, currencies = ['USD']) {
  const r = await call(ctx, 'POST', '/customers', {
    auth: p.auth,
    body: {
      platformCustomerId: `in-${Math.random().toString(36).slice(2)}`,
      customerType: 'INDIVIDUAL',
      fullName: 'Rita Receiver',
      currencies,
      umaAddress: `$${local}@${domain}`,
    },
  });
  expect(r.status).toBe(201);
  const accounts = await call(ctx, 'GET', '/customers/internal-accounts', { auth: p.auth, query: { customerId: r.body.id } });
  return { ...r.body, account: accounts.body.data.find((a: any) => a.balance.currency.code === currencies[0]) };
}

function receive(p: TestPlatform, body: Record<string, unknown>, auth = p.auth) {
  return call(ctx, 'POST', '/sandbox/uma/receive', { auth, body: { currencyCode: 'USD', currencyAmount: 5_000, ...body } });
}

/** Statuses of one transaction's INCOMING_PAYMENT webhooks, after delivering every due one. */
async function hooks(receiver: WebhookReceiver, id: string) {
  await drainWebhooks(ctx);
  expect(receiver.requests.every((r) => r.verified)).toBe(true);
  return receiver
    .accepted()
    .filter((e) => e.transaction?.id === id)
    .map((e) => {
      expect(e.type).toBe('INCOMING_PAYMENT');
      return e;
    });
}

async function drainIncoming() {
  while (await ctx.container.incoming.processNext());
}

describe('POST /sandbox/uma/receive without approval', () => {
  it('lands in the internal account: INCOMING, COMPLETED, sender data as counterpartyInformation', async () => {
    const { p, receiver, domain } = await platformWith({ requiredPayerDataFields: ['FULL_NAME'] });
    const rita = await customer(p, domain, 'rita');
    const r = await receive(p, {
      receiverUmaAddress: rita.umaAddress,
      senderUmaAddress: '$sam@wallet.example.com',
      senderCustomerInfo: { FULL_NAME: 'Sam Sender', NATIONALITY: 'FR' },
      description: 'rent',
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      type: 'INCOMING',
      status: 'COMPLETED',
      customerId: rita.id,
      platformCustomerId: rita.platformCustomerId,
      description: 'rent',
      fees: 0,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: '$sam@wallet.example.com', currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: rita.account.id, currency: 'USD' },
      counterpartyInformation: { FULL_NAME: 'Sam Sender', NATIONALITY: 'FR' },
    });
    expect(r.body).not.toHaveProperty('failureReason');
    expect(r.body.receivedAmount.amount).toBe(5_000);
    expect(r.body.settledAt).toBe(r.body.updatedAt);
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(5_000);
    expect((await hooks(receiver, r.body.id)).map((e) => e.transaction.status)).toEqual(['COMPLETED']);
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body.status).toBe('COMPLETED');
    await expectLedgerBalanced(ctx);
  });

  it('refuses bad input and changes nothing', async () => {
    const { p, domain } = await platformWith({ requiredPayerDataFields: ['FULL_NAME', 'BIRTH_DATE'] });
    const rita = await customer(p, domain, 'rita.bad');
    const count = async () => (await call(ctx, 'GET', '/transactions', { auth: p.auth })).body.totalCount;
    const missing = expectError(
      await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: { FULL_NAME: 'Sam' } }),
      400,
      'MISSING_MANDATORY_USER_INFO',
    );
    expect(missing.details).toEqual({ field: 'senderCustomerInfo', missingFields: ['BIRTH_DATE'] });
    const info = { FULL_NAME: 'Sam', BIRTH_DATE: '1980-01-01' };
    expect(
      expectError(await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info, currencyCode: 'EUR' }), 400, 'INVALID_INPUT').details
        .fields[0].field,
    ).toBe('currencyCode');
    expectError(await receive(p, { receiverUmaAddress: `$nobody@${domain}`, senderCustomerInfo: info }), 404, 'UMA_ADDRESS_NOT_FOUND');
    expectError(await receive(p, { receiverUmaAddress: 'rita', senderCustomerInfo: info }), 400, 'INVALID_INPUT');
    expectError(await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info, currencyAmount: 0 }), 400, 'INVALID_INPUT');
    expectError(await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info, extra: 1 }), 400, 'INVALID_INPUT');
    // Another platform's customer is not reachable through this sandbox tool.
    expectError(await receive(ctx.platform, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info }), 404, 'UMA_ADDRESS_NOT_FOUND');
    expectError(await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info }, await p.token(['VIEW'])), 403, 'FORBIDDEN');
    expectError(
      await receive(p, { receiverUmaAddress: rita.umaAddress, senderCustomerInfo: info }, await p.token(['TRANSACT'], 'PRODUCTION')),
      403,
      'FORBIDDEN',
    );
    expect(await count()).toBe(0);
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
  });
});

describe('approval', () => {
  const approval = { incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: ['FULL_NAME', 'BIRTH_DATE'], windowSeconds: 300 } };

  it('PENDING webhook with requestedReceiverCustomerInfoFields; approve completes it', async () => {
    const { p, receiver, domain } = await platformWith(approval);
    const rita = await customer(p, domain, 'rita.approve');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    expect(r.body.status).toBe('PENDING');
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
    const [pending] = await hooks(receiver, r.body.id);
    expect(pending.transaction.status).toBe('PENDING');
    expect(pending.requestedReceiverCustomerInfoFields).toEqual(['FULL_NAME', 'BIRTH_DATE']);
    const approve = (body: unknown, auth = p.auth) => call(ctx, 'POST', `/transactions/${r.body.id}/approve`, { auth, body });
    expect(expectError(await approve({ receiverCustomerInfo: { FULL_NAME: 'Rita R' } }), 400, 'MISSING_MANDATORY_USER_INFO').details.missingFields).toEqual([
      'BIRTH_DATE',
    ]);
    expectError(await approve({ receiverCustomerInfo: { FULL_NAME: 'Rita R', BIRTH_DATE: '1990-01-01' } }, await p.token(['VIEW'])), 403, 'FORBIDDEN');
    expectError(await approve({ receiverCustomerInfo: { FULL_NAME: 'Rita R', BIRTH_DATE: '1990-01-01' } }, ctx.platform.auth), 404, 'TRANSACTION_NOT_FOUND');
    const ok = await approve({ receiverCustomerInfo: { FULL_NAME: 'Rita R', BIRTH_DATE: '1990-01-01' } });
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('COMPLETED');
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(5_000);
    expectError(await approve({}), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/reject`, { auth: p.auth, body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expect((await hooks(receiver, r.body.id)).map((e) => e.transaction.status)).toEqual(['PENDING', 'COMPLETED']);
    // The deadline passing later changes nothing.
    clock.advance(301_000);
    await drainIncoming();
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body.status).toBe('COMPLETED');
    await expectLedgerBalanced(ctx);
  });

  it('reject: REJECTED, nothing lands, the reason is in the history', async () => {
    const { p, receiver, domain } = await platformWith(approval);
    const rita = await customer(p, domain, 'rita.reject');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    const res = await call(ctx, 'POST', `/transactions/${r.body.id}/reject`, { auth: p.auth, body: { reason: 'unknown sender' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('REJECTED');
    expect(res.body).not.toHaveProperty('failureReason');
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
    expect((await hooks(receiver, r.body.id)).map((e) => e.transaction.status)).toEqual(['PENDING', 'REJECTED']);
    const history = await ctx.container.services.transactions.history({ platformId: p.platformId, environment: 'SANDBOX' }, r.body.id);
    expect(history.at(-1)).toMatchObject({ from: 'PENDING', to: 'REJECTED' });
    expect(history.at(-1)!.cause).toContain('unknown sender');
    expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/reject`, { auth: p.auth, body: { reason: '' } }), 400, 'INVALID_INPUT');
    await expectLedgerBalanced(ctx);
  });

  it('no answer within the window: FAILED PAYMENT_APPROVAL_TIMED_OUT', async () => {
    const { p, receiver, domain } = await platformWith(approval);
    const rita = await customer(p, domain, 'rita.late');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    await drainWebhooks(ctx);
    clock.advance(299_000);
    await drainIncoming();
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body.status).toBe('PENDING');
    clock.advance(1_000);
    await drainIncoming();
    const tx = (await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body;
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT' });
    expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/approve`, { auth: p.auth, body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expect((await hooks(receiver, r.body.id)).map((e) => e.transaction.status)).toEqual(['PENDING', 'FAILED']);
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it('an answer at the deadline is refused even before the deadline job ran; the job then fails the payment', async () => {
    const { p, receiver, domain } = await platformWith(approval);
    const rita = await customer(p, domain, 'rita.closed');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    await drainWebhooks(ctx);
    clock.advance(300_000);
    const body = { receiverCustomerInfo: { FULL_NAME: 'Rita R', BIRTH_DATE: '1990-01-01' } };
    const late = expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/approve`, { auth: p.auth, body }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expect(late.details).toMatchObject({ status: 'PENDING', approvalDeadline: new Date(Date.parse(r.body.createdAt) + 300_000).toISOString() });
    expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/reject`, { auth: p.auth, body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
    await drainIncoming();
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
    });
    expect((await hooks(receiver, r.body.id)).map((e) => e.transaction.status)).toEqual(['PENDING', 'FAILED']);
    await expectLedgerBalanced(ctx);
  });

  it('approval webhook not deliverable: FAILED PAYMENT_APPROVAL_WEBHOOK_ERROR (failing endpoint, or none)', async () => {
    const { p, receiver, domain } = await platformWith(approval);
    receiver.respondWith(500);
    const rita = await customer(p, domain, 'rita.down');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    await drainWebhooks(ctx);
    clock.advance(300_000);
    await drainIncoming();
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR',
    });

    const none = await platformWith(approval, { endpoint: false });
    const sam = await customer(none.p, none.domain, 'sam.none');
    const r2 = await receive(none.p, { receiverUmaAddress: sam.umaAddress });
    expect(r2.body).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_WEBHOOK_ERROR' });
    await expectLedgerBalanced(ctx);
  });

  it('concurrent answers: exactly one wins, the rest get 409', async () => {
    const { p, domain } = await platformWith({ incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: [] } });
    const rita = await customer(p, domain, 'rita.race');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => call(ctx, 'POST', `/transactions/${r.body.id}/approve`, { auth: p.auth })),
      ...Array.from({ length: 3 }, () => call(ctx, 'POST', `/transactions/${r.body.id}/reject`, { auth: p.auth, body: {} })),
    ]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    const final = (await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body.status;
    expect(final).toBe(ok[0].body.status);
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(final === 'COMPLETED' ? 5_000 : 0);
    await expectLedgerBalanced(ctx);
  });

  it('approve on a transaction that never asked: 409', async () => {
    const { p, domain } = await platformWith({});
    const rita = await customer(p, domain, 'rita.plain');
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    expect(r.body.status).toBe('COMPLETED');
    expectError(await call(ctx, 'POST', `/transactions/${r.body.id}/approve`, { auth: p.auth, body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    expectError(
      await call(ctx, 'POST', '/transactions/Transaction:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11/approve', { auth: p.auth, body: {} }),
      404,
      'TRANSACTION_NOT_FOUND',
    );
  });
});

describe('default UMA deposit account', () => {
  it('the funds are paid out to it, through the rail, with its own outcome', async () => {
    const { p, receiver, domain } = await platformWith({});
    const rita = await customer(p, domain, 'rita.deposit');
    const flagged = await depositAccount(p, rita.id, '000');
    expect(flagged.status).toBe(201);
    const r = await receive(p, { receiverUmaAddress: rita.umaAddress });
    expect(r.body.status).toBe('COMPLETED');
    const out = (await call(ctx, 'GET', '/transactions', { auth: p.auth, query: { customerId: rita.id, type: 'OUTGOING' } })).body.data;
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      status: 'COMPLETED',
      destination: { destinationType: 'ACCOUNT', accountId: flagged.body.id },
      sentAmount: { amount: 5_000 },
    });
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(0);
    await drainWebhooks(ctx);
    expect(
      receiver
        .accepted()
        .filter((e) => e.transaction?.id === out[0].id)
        .map((e) => [e.type, e.transaction.status]),
    ).toEqual([
      ['OUTGOING_PAYMENT', 'PROCESSING'],
      ['OUTGOING_PAYMENT', 'COMPLETED'],
    ]);

    // A deposit account whose payouts fail (sandbox 004): the money comes back to the internal account.
    const failing = await depositAccount(p, rita.id, '004');
    const r2 = await receive(p, { receiverUmaAddress: rita.umaAddress, currencyAmount: 700 });
    expect(r2.body.status).toBe('COMPLETED');
    const out2 = (await call(ctx, 'GET', '/transactions', { auth: p.auth, query: { customerId: rita.id, type: 'OUTGOING' } })).body.data[0];
    expect(out2).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', destination: { accountId: failing.body.id } });
    expect(await balance(ctx, rita.account.id, p.auth)).toBe(700);
    await drainPayments(ctx);
    await expectLedgerBalanced(ctx);
  });
});

describe('sandbox UMA suffixes', () => {
  it('003 asks for approval, 004 and 005 fail on arrival', async () => {
    const { p, receiver, domain } = await platformWith({ incomingPaymentApproval: { requestedReceiverCustomerInfoFields: [] } });
    const a = await receive(p, { receiverUmaAddress: (await customer(p, domain, 'ask003')).umaAddress });
    expect(a.body.status).toBe('PENDING');
    expect((await hooks(receiver, a.body.id))[0].requestedReceiverCustomerInfoFields).toEqual([]);
    expect((await call(ctx, 'POST', `/transactions/${a.body.id}/approve`, { auth: p.auth, body: {} })).body.status).toBe('COMPLETED');
    expect((await receive(p, { receiverUmaAddress: (await customer(p, domain, 'fail004')).umaAddress })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAY_REQUEST_FAILED',
    });
    expect((await receive(p, { receiverUmaAddress: (await customer(p, domain, 'payee005')).umaAddress })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'MISSING_MANDATORY_PAYEE_DATA',
    });
    await expectLedgerBalanced(ctx);
  });
});

/** A US bank account of the customer, flagged as its default UMA deposit account. */
async function depositAccount(p: TestPlatform, customerId: string, suffix: string) {
  const r = await createAccount(ctx, accountBody('US_ACCOUNT', suffix, undefined, { customerId, defaultUmaDepositAccount: true }), { auth: p.auth });
  expect(r.status).toBe(201);
  expect(r.body.defaultUmaDepositAccount).toBe(true);
  return r;
}

/**
 * UMA payments between platforms hosted by this Corridor: platform A's customer pays platform
 * B's customer by UMA address in another currency. Both sides see their transaction, both get
 * their webhooks, both ledgers verify; B's approval settings, payer data, lookup expiry, the
 * default UMA deposit account and the sandbox suffixes shape the outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { accountBody, createAccount } from './helpers/external-accounts.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, drainWebhooks, fundedCustomer } from './helpers/payments.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { holdTransaction } from './helpers/held-transaction.js';

const clock = manualClock(new Date());
let ctx: TestContext;
const receivers: WebhookReceiver[] = [];
let aHooks: WebhookReceiver;
afterAll(async () => {
  for (const r of receivers) await r.close();
});

async function hooksFor(p: TestPlatform) {
  const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
  const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
  receivers.push(receiver);
  expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: receiver.url } })).status).toBe(200);
  return { receiver, domain: config.umaDomain as string };
}

beforeAll(async () => {
  ctx = await testContext({ clock });
  aHooks = (await hooksFor(ctx.platform)).receiver;
});

const SENDER_INFO = { FULL_NAME: 'Ada Lovelace', NATIONALITY: 'GB' };

/** Platform B with its settings, a receiver of its webhooks and a customer receiving EUR. */
async function platformB(settings: Record<string, unknown>, local = `bea${Math.random().toString(36).slice(2, 8)}`) {
  const b = await ctx.newPlatform('Beta');
  const { receiver, domain } = await hooksFor(b);
  expect((await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY'], ...settings } })).status).toBe(
    200,
  );
  const bea = await call(ctx, 'POST', '/customers', {
    auth: b.auth,
    body: { platformCustomerId: `b-${local}`, customerType: 'INDIVIDUAL', fullName: 'Bea Receiver', currencies: ['EUR'], umaAddress: `$${local}@${domain}` },
  });
  expect(bea.status).toBe(201);
  const accounts = await call(ctx, 'GET', '/customers/internal-accounts', { auth: b.auth, query: { customerId: bea.body.id } });
  return { b, receiver, bea: bea.body, eurAccount: accounts.body.data[0].id as string };
}

/** A's funded USD customer, a lookup of `address` and a quote paying it 10000 USD cents. */
async function quoteTo(address: string, extra: Record<string, unknown> = {}) {
  const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 100_000);
  const lookup = await call(ctx, 'GET', `/receiver/uma/${address}`, { query: { sendingCurrency: 'USD' } });
  expect(lookup.status).toBe(200);
  const quote = await call(ctx, 'POST', '/quotes', {
    body: {
      source: { sourceType: 'ACCOUNT', accountId: accounts.USD.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: address, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      lookupId: lookup.body.id,
      senderCustomerInfo: SENDER_INFO,
      description: 'dinner',
      ...extra,
    },
  });
  return { customer, usd: accounts.USD.id as string, lookup: lookup.body, quote };
}

async function incomingOf(b: TestPlatform, customerId: string) {
  const list = await call(ctx, 'GET', '/transactions', { auth: b.auth, query: { customerId, type: 'INCOMING' } });
  expect(list.body.data).toHaveLength(1);
  return list.body.data[0];
}

async function statuses(receiver: WebhookReceiver, id: string) {
  await drainWebhooks(ctx);
  expect(receiver.requests.every((r) => r.verified)).toBe(true);
  return receiver
    .accepted()
    .filter((e) => e.transaction?.id === id)
    .map((e) => `${e.type}:${e.transaction.status}`);
}

async function drainIncoming() {
  while (await ctx.container.incoming.processNext());
}

describe('A pays B by UMA address, USD → EUR', () => {
  it('completes on both sides: two transactions, two webhook streams, balanced ledgers', async () => {
    const { b, receiver, bea, eurAccount } = await platformB({});
    const { customer, usd, quote } = await quoteTo(bea.umaAddress);
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({
      status: 'PENDING',
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress, currency: 'EUR' },
      senderCustomerInfo: SENDER_INFO,
      sendingCurrency: { code: 'USD' },
      receivingCurrency: { code: 'EUR' },
    });
    const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    expect(executed.status).toBe(200);
    expect(executed.body.status).toBe('COMPLETED');
    const sent = (await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body;
    expect(sent).toMatchObject({
      type: 'OUTGOING',
      status: 'COMPLETED',
      customerId: customer.id,
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress },
    });
    expect(await balance(ctx, usd)).toBe(90_000);

    const got = await incomingOf(b, bea.id);
    expect(got).toMatchObject({
      status: 'COMPLETED',
      customerId: bea.id,
      fees: 0,
      description: 'dinner',
      counterpartyInformation: SENDER_INFO,
      source: { sourceType: 'UMA_ADDRESS', umaAddress: customer.umaAddress, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: eurAccount, currency: 'EUR' },
      sentAmount: { amount: 10_000, currency: { code: 'USD' } },
      receivedAmount: { amount: quote.body.totalReceivingAmount, currency: { code: 'EUR' } },
      exchangeRate: quote.body.exchangeRate,
    });
    // The sender's quote is not the receiver's to see: quoteId is left out.
    expect(got).not.toHaveProperty('quoteId');
    expect(await balance(ctx, eurAccount, b.auth)).toBe(quote.body.totalReceivingAmount);
    // Each platform sees only its own side.
    const text = JSON.stringify(got);
    for (const hidden of [ctx.platform.platformId, quote.body.id, quote.body.transactionId, usd]) expect(text).not.toContain(hidden);
    expectError(await call(ctx, 'GET', `/transactions/${got.id}`), 404, 'TRANSACTION_NOT_FOUND');
    expectError(await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`, { auth: b.auth }), 404, 'TRANSACTION_NOT_FOUND');
    expect(await statuses(aHooks, sent.id)).toEqual(['OUTGOING_PAYMENT:PROCESSING', 'OUTGOING_PAYMENT:COMPLETED']);
    expect(await statuses(receiver, got.id)).toEqual(['INCOMING_PAYMENT:COMPLETED']);
    await expectLedgerBalanced(ctx);
  });

  it("a customer of the sender's own platform: both sides in one platform, one ledger", async () => {
    const domain = (await call(ctx, 'GET', '/config')).body.umaDomain;
    const own = await call(ctx, 'POST', '/customers', {
      body: { platformCustomerId: 'own-receiver', customerType: 'INDIVIDUAL', fullName: 'Olga Own', currencies: ['EUR'], umaAddress: `$olga@${domain}` },
    });
    const { quote } = await quoteTo(own.body.umaAddress, { immediatelyExecute: true, senderCustomerInfo: undefined });
    expect(quote.body.status).toBe('COMPLETED');
    const got = await incomingOf(ctx.platform, own.body.id);
    expect(got).toMatchObject({ status: 'COMPLETED', receivedAmount: { amount: quote.body.totalReceivingAmount }, counterpartyInformation: {} });
    expect(await statuses(aHooks, got.id)).toEqual(['INCOMING_PAYMENT:COMPLETED']);
    await expectLedgerBalanced(ctx);
  });

  it('missing payer data, lookup rules and destination checks: 4xx and nothing created', async () => {
    const { bea } = await platformB({ incomingPaymentApproval: { requestedReceiverCustomerInfoFields: [] } });
    const countQuotes = async () => (await call(ctx, 'GET', '/quotes')).body.totalCount;
    const before = await countQuotes();
    const { lookup, quote } = await quoteTo(bea.umaAddress, { senderCustomerInfo: { FULL_NAME: 'Ada' } });
    expect(expectError(quote, 400, 'MISSING_MANDATORY_USER_INFO').details).toEqual({ field: 'senderCustomerInfo', missingFields: ['NATIONALITY'] });
    const { accounts } = await fundedCustomer(ctx, ['USD', 'GBP'], 10_000);
    const base = {
      source: { accountId: accounts.USD.id },
      destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress, currency: 'EUR' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1_000,
      lookupId: lookup.id,
      senderCustomerInfo: SENDER_INFO,
    };
    const post = (b: Record<string, unknown>) => call(ctx, 'POST', '/quotes', { body: { ...base, ...b } });
    const field = async (b: Record<string, unknown>) => expectError(await post(b), 400, 'INVALID_INPUT').details.fields[0].field;
    expect(await field({ lookupId: undefined })).toBe('lookupId');
    expect(await field({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress } })).toBe('destination.currency');
    expect(await field({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: bea.umaAddress, currency: 'GBP' } })).toBe('destination.currency');
    expect(await field({ destination: { destinationType: 'UMA_ADDRESS', currency: 'EUR' } })).toBe('destination.umaAddress');
    expect(await field({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: 'bea', currency: 'EUR' } })).toBe('destination.umaAddress');
    expect(await field({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: '$other@example.com', currency: 'EUR' } })).toBe('lookupId');
    expect(await field({ source: { sourceType: 'REALTIME_FUNDING', customerId: accounts.USD.customerId, currency: 'USD' } })).toBe('source.sourceType');
    expectError(await post({ lookupId: 'Lookup:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' }), 404, 'LOOKUP_NOT_FOUND');
    // Another platform's lookup does not exist for this caller.
    const other = await ctx.newPlatform('Gamma');
    const foreign = await call(ctx, 'GET', `/receiver/uma/${bea.umaAddress}`, { auth: other.auth });
    expectError(await post({ lookupId: foreign.body.id }), 404, 'LOOKUP_NOT_FOUND');
    // The receiver's limits (from its lookup).
    const limited = await platformB({ currencies: [{ currencyCode: 'EUR', maxAmount: 500 }] });
    const l2 = (await call(ctx, 'GET', `/receiver/uma/${limited.bea.umaAddress}`)).body;
    const tooMuch = expectError(
      await post({ destination: { destinationType: 'UMA_ADDRESS', umaAddress: limited.bea.umaAddress, currency: 'EUR' }, lookupId: l2.id }),
      400,
      'AMOUNT_OUTSIDE_LIMITS',
    );
    expect(tooMuch.details).toMatchObject({ receiver: true, maxAmount: 500, currency: 'EUR' });
    // Expiry: 5 minutes.
    clock.advance(5 * 60_000);
    expect(expectError(await post({}), 400, 'LOOKUP_EXPIRED').details.lookupId).toBe(lookup.id);
    expect(await countQuotes()).toBe(before);
  });
});

describe('B asks for approval', () => {
  const approval = { incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: ['FULL_NAME'], windowSeconds: 120 } };

  it('approved: both complete; the receiver information reaches the sender', async () => {
    const { b, receiver, bea, eurAccount } = await platformB(approval);
    const { usd, quote } = await quoteTo(bea.umaAddress);
    expect((await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`)).body.status).toBe('PROCESSING');
    expect(await balance(ctx, usd)).toBe(90_000);
    const got = await incomingOf(b, bea.id);
    expect(got.status).toBe('PENDING');
    await drainWebhooks(ctx);
    expect(receiver.accepted().find((e) => e.transaction?.id === got.id).requestedReceiverCustomerInfoFields).toEqual(['FULL_NAME']);
    const ok = await call(ctx, 'POST', `/transactions/${got.id}/approve`, { auth: b.auth, body: { receiverCustomerInfo: { FULL_NAME: 'Bea Receiver' } } });
    expect(ok.body.status).toBe('COMPLETED');
    const sent = (await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body;
    expect(sent).toMatchObject({ status: 'COMPLETED', counterpartyInformation: { FULL_NAME: 'Bea Receiver' } });
    expect((await call(ctx, 'GET', `/quotes/${quote.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(ctx, eurAccount, b.auth)).toBe(quote.body.totalReceivingAmount);
    expect(await statuses(aHooks, sent.id)).toEqual(['OUTGOING_PAYMENT:PROCESSING', 'OUTGOING_PAYMENT:COMPLETED']);
    expect(await statuses(receiver, got.id)).toEqual(['INCOMING_PAYMENT:PENDING', 'INCOMING_PAYMENT:COMPLETED']);
    // A cannot answer for B.
    expectError(await call(ctx, 'POST', `/transactions/${quote.body.transactionId}/approve`, { body: {} }), 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    await expectLedgerBalanced(ctx);
  });

  it('rejected: B REJECTED, A REJECTED and refunded', async () => {
    const { b, receiver, bea, eurAccount } = await platformB(approval);
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    const got = await incomingOf(b, bea.id);
    expect((await call(ctx, 'POST', `/transactions/${got.id}/reject`, { auth: b.auth, body: { reason: 'not expected' } })).body.status).toBe('REJECTED');
    const sent = (await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body;
    expect(sent).toMatchObject({ status: 'REJECTED', refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' } });
    expect((await call(ctx, 'GET', `/quotes/${quote.body.id}`)).body.status).toBe('FAILED');
    expect(await balance(ctx, usd)).toBe(100_000);
    expect(await balance(ctx, eurAccount, b.auth)).toBe(0);
    expect(await statuses(aHooks, sent.id)).toEqual(['OUTGOING_PAYMENT:PROCESSING', 'OUTGOING_PAYMENT:REJECTED']);
    expect(await statuses(receiver, got.id)).toEqual(['INCOMING_PAYMENT:PENDING', 'INCOMING_PAYMENT:REJECTED']);
    await expectLedgerBalanced(ctx);
  });

  it('timed out: both FAILED PAYMENT_APPROVAL_TIMED_OUT, A refunded', async () => {
    const { b, receiver, bea } = await platformB(approval);
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    const got = await incomingOf(b, bea.id);
    await drainWebhooks(ctx);
    clock.advance(120_000);
    await drainIncoming();
    expect((await call(ctx, 'GET', `/transactions/${got.id}`, { auth: b.auth })).body).toMatchObject({
      status: 'FAILED',
      failureReason: 'PAYMENT_APPROVAL_TIMED_OUT',
    });
    const sent = (await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body;
    expect(sent).toMatchObject({ status: 'FAILED', failureReason: 'PAYMENT_APPROVAL_TIMED_OUT', refund: { status: 'COMPLETED' } });
    expect(await balance(ctx, usd)).toBe(100_000);
    expect(await statuses(receiver, got.id)).toEqual(['INCOMING_PAYMENT:PENDING', 'INCOMING_PAYMENT:FAILED']);
    expect(await statuses(aHooks, sent.id)).toEqual(['OUTGOING_PAYMENT:PROCESSING', 'OUTGOING_PAYMENT:FAILED']);
    await expectLedgerBalanced(ctx);
  });
});

describe('concurrent answers to one UMA payment', () => {
  it('one approve or reject wins, the rest get 409; both sides agree and nothing is paid twice', async () => {
    const { b, bea, eurAccount } = await platformB({ incomingPaymentApproval: { required: true } });
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    const got = await incomingOf(b, bea.id);
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => call(ctx, 'POST', `/transactions/${got.id}/approve`, { auth: b.auth })),
      ...Array.from({ length: 4 }, () => call(ctx, 'POST', `/transactions/${got.id}/reject`, { auth: b.auth, body: {} })),
    ]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, 'TRANSACTION_NOT_AWAITING_APPROVAL');
    const outcome = ok[0]!.body.status as string;
    expect(['COMPLETED', 'REJECTED']).toContain(outcome);
    expect((await call(ctx, 'GET', `/transactions/${got.id}`, { auth: b.auth })).body.status).toBe(outcome);
    expect((await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body.status).toBe(outcome);
    expect(await balance(ctx, usd)).toBe(outcome === 'COMPLETED' ? 90_000 : 100_000);
    expect(await balance(ctx, eurAccount, b.auth)).toBe(outcome === 'COMPLETED' ? quote.body.totalReceivingAmount : 0);
    await expectLedgerBalanced(ctx);
  });
});

describe('a sender failed by an operator while B decides', () => {
  it("B's approval cannot land money the sender no longer sends", async () => {
    const { b, bea, eurAccount } = await platformB({ incomingPaymentApproval: { required: true } });
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    await ctx.container.payments.engine.operate(
      quote.body.transactionId,
      { kind: 'FAIL', reason: 'OFFRAMP_FAILED', refund: 'COMPLETED' },
      'operator failed it',
    );
    expect(await balance(ctx, usd)).toBe(100_000);
    const got = await incomingOf(b, bea.id);
    const answer = await call(ctx, 'POST', `/transactions/${got.id}/approve`, { auth: b.auth });
    expect(answer.body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect(await balance(ctx, eurAccount, b.auth)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it("an operator failing the sender while B's approval runs: the approval waits for it and lands nothing", async () => {
    const { b, bea, eurAccount } = await platformB({ incomingPaymentApproval: { required: true } });
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
    const got = await incomingOf(b, bea.id);
    // The operator's database transaction fails (refunds) the sender's payment and stays open.
    const operator = await holdTransaction(ctx.container.db, () =>
      ctx.container.payments.engine.operate(quote.body.transactionId, { kind: 'FAIL', reason: 'OFFRAMP_FAILED', refund: 'COMPLETED' }, 'operator failed it'),
    );
    // B approves meanwhile: it reads the sender's payment as still in flight (the failure is not committed).
    const answer = call(ctx, 'POST', `/transactions/${got.id}/approve`, { auth: b.auth });
    await operator.blocking(answer);
    await operator.release();
    expect((await answer).body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect((await call(ctx, 'GET', `/transactions/${quote.body.transactionId}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED' });
    expect(await balance(ctx, usd)).toBe(100_000);
    expect(await balance(ctx, eurAccount, b.auth)).toBe(0);
    await expectLedgerBalanced(ctx);
  });
});

describe('routing and sandbox outcomes', () => {
  it("B's customer with a default UMA deposit account: the EUR are paid out to it", async () => {
    const { b, bea, eurAccount } = await platformB({});
    const iban = await createAccount(ctx, accountBody('IBAN', '000', undefined, { customerId: bea.id, defaultUmaDepositAccount: true }), { auth: b.auth });
    expect(iban.status).toBe(201);
    const { quote } = await quoteTo(bea.umaAddress, { immediatelyExecute: true });
    expect(quote.body.status).toBe('COMPLETED');
    expect((await incomingOf(b, bea.id)).status).toBe('COMPLETED');
    const out = (await call(ctx, 'GET', '/transactions', { auth: b.auth, query: { customerId: bea.id, type: 'OUTGOING' } })).body.data;
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      status: 'COMPLETED',
      destination: { accountId: iban.body.id, currency: 'EUR' },
      sentAmount: { amount: quote.body.totalReceivingAmount },
    });
    expect(await balance(ctx, eurAccount, b.auth)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it('receiver suffix 004: the delivery fails, A is refunded with PAY_REQUEST_FAILED', async () => {
    const { b, bea } = await platformB({}, 'fails004');
    const { usd, quote } = await quoteTo(bea.umaAddress);
    expect((await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`)).body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect(await balance(ctx, usd)).toBe(100_000);
    expect(await incomingOf(b, bea.id)).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    await expectLedgerBalanced(ctx);
  });

  it("B's terms tightened between quote and execute (payer data, currency, limits): FAILED PAY_REQUEST_FAILED, refunded, nothing arrives", async () => {
    const { b, bea } = await platformB({});
    const changes: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY', 'BIRTH_DATE'] }, { requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY'] }],
      [{ currencies: [{ currencyCode: 'EUR', enabled: false }] }, { currencies: [{ currencyCode: 'EUR', enabled: true }] }],
      [{ currencies: [{ currencyCode: 'EUR', maxAmount: 100 }] }, { currencies: [{ currencyCode: 'EUR', maxAmount: null }] }],
    ];
    for (const [tighten, restore] of changes) {
      const { usd, quote } = await quoteTo(bea.umaAddress);
      expect(quote.status).toBe(201);
      expect((await call(ctx, 'PATCH', '/config', { auth: b.auth, body: tighten })).status).toBe(200);
      const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
      expect(executed.body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
      expect(await balance(ctx, usd)).toBe(100_000);
      expect((await call(ctx, 'PATCH', '/config', { auth: b.auth, body: restore })).status).toBe(200);
    }
    expect((await call(ctx, 'GET', '/transactions', { auth: b.auth, query: { customerId: bea.id } })).body.data).toEqual([]);
    await expectLedgerBalanced(ctx);
  });

  it('a receiver that disappears between quote and execute: FAILED PAY_REQUEST_FAILED, refunded', async () => {
    const { b, bea } = await platformB({});
    const { usd, quote } = await quoteTo(bea.umaAddress);
    await call(ctx, 'DELETE', `/customers/${bea.id}`, { auth: b.auth });
    expect((await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`)).body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect(await balance(ctx, usd)).toBe(100_000);
    await expectLedgerBalanced(ctx);
  });
});

/**
 * POST /sandbox/send funds a JIT (REALTIME_FUNDING) quote: by quoteId or by the reference of its
 * payment instructions; the right amount runs the payment with the destination's pattern, a wrong
 * amount fails it with FUNDING_AMOUNT_MISMATCH; expired or already funded quotes get clear errors.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import type { Scope } from '../src/common/scope.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { drainPayments, externalAccount, fundedCustomer, quoteFromAccount, webhookReceiver, webhookStatuses } from './helpers/payments.js';
import type { WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
let receiver: WebhookReceiver;
let scope: Scope;

beforeAll(async () => {
  ctx = await testContext({ clock });
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
  receiver = await webhookReceiver(ctx, () => clock.now().getTime());
});
afterAll(() => receiver.close());
afterEach(() => expectLedgerBalanced(ctx));

async function jitQuote(suffix = '000', currency = 'USD', amount = 10_000) {
  const { customer } = await fundedCustomer(ctx, ['USD'], 0);
  const destination = await externalAccount(ctx, 'CLABE', suffix, { customerId: customer.id });
  const res = await call(ctx, 'POST', '/quotes', {
    body: {
      source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency },
      destination: { accountId: destination.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

const send = (body: Record<string, unknown>, auth?: string) => call(ctx, 'POST', '/sandbox/send', { body, auth });

describe('POST /sandbox/send', () => {
  it('by quoteId: the quote executes and completes (default destination)', async () => {
    const q = await jitQuote();
    const res = await send({ quoteId: q.id, currencyCode: 'USD' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: q.transactionId, type: 'OUTGOING', status: 'COMPLETED', quoteId: q.id, sentAmount: { amount: 10_000 } });
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED');
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual(['PROCESSING', 'COMPLETED']);
    // The money came from outside (FUNDING) and left through PAYOUTS_IN_FLIGHT.
    const funding = await ctx.container.ledger.balance(scope, await ctx.container.ledger.systemAccount(scope, 'FUNDING', 'USD'));
    expect(funding!.posted).toBeLessThanOrEqual(-10_000n);
    await expectLedgerBalanced(ctx);
  });

  it('by the payment reference, with the exact amount given; the destination pattern applies (003: about 6 minutes)', async () => {
    const q = await jitQuote('003');
    const reference = q.paymentInstructions[0].accountOrWalletInfo.reference;
    const res = await send({ reference, currencyCode: 'USD', currencyAmount: q.totalSendingAmount });
    expect(res.body.status).toBe('PROCESSING');
    clock.advance(6 * 60_000);
    await drainPayments(ctx);
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual(['PROCESSING', 'COMPLETED']);
    await expectLedgerBalanced(ctx);
  });

  it('a different amount fails the transaction with FUNDING_AMOUNT_MISMATCH and sends the payment back', async () => {
    const q = await jitQuote();
    const res = await send({ quoteId: q.id, currencyCode: 'USD', currencyAmount: 9_999 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'FAILED',
      failureReason: 'FUNDING_AMOUNT_MISMATCH',
      refund: { status: 'COMPLETED', reason: 'FUNDING_AMOUNT_MISMATCH' },
    });
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH' });
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual(['FAILED']);
    expectError(await send({ quoteId: q.id, currencyCode: 'USD' }), 409, 'QUOTE_NOT_PENDING');
    await expectLedgerBalanced(ctx);
  });

  it('an already funded quote is 409; an expired one 400 QUOTE_EXPIRED', async () => {
    const q = await jitQuote();
    expect((await send({ quoteId: q.id, currencyCode: 'USD' })).status).toBe(200);
    expect(expectError(await send({ quoteId: q.id, currencyCode: 'USD' }), 409, 'QUOTE_NOT_PENDING').message).toMatch(/already funded/);
    const late = await jitQuote();
    clock.advance(15 * 60_000);
    expectError(await send({ quoteId: late.id, currencyCode: 'USD' }), 400, 'QUOTE_EXPIRED');
    await drainPayments(ctx);
    expectError(await send({ quoteId: late.id, currencyCode: 'USD' }), 400, 'QUOTE_EXPIRED');
    expect((await call(ctx, 'GET', `/quotes/${late.id}`)).body.status).toBe('EXPIRED');
    await expectLedgerBalanced(ctx);
  });

  it('refuses what does not match: currency, unknown reference, quotes funded from an account, both or neither id', async () => {
    const q = await jitQuote();
    expect(expectError(await send({ quoteId: q.id, currencyCode: 'EUR' }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('currencyCode');
    expectError(await send({ reference: 'CRD0000000000', currencyCode: 'USD' }), 404, 'QUOTE_NOT_FOUND');
    expect(expectError(await send({ currencyCode: 'USD' }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('quoteId');
    expectError(await send({ quoteId: q.id, reference: 'x', currencyCode: 'USD' }), 400, 'INVALID_INPUT');
    expectError(await send({ quoteId: q.id, currencyCode: 'USD', extra: 1 }), 400, 'INVALID_INPUT');
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const funded = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000)).body;
    expectError(await send({ quoteId: funded.id, currencyCode: 'USD' }), 400, 'QUOTE_NOT_REALTIME_FUNDED');
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
  });

  it('a destination deactivated since the quote: 400 QUOTE_ACCOUNT_INACTIVE, nothing paid, the quote still PENDING', async () => {
    const q = await jitQuote();
    await call(ctx, 'DELETE', `/customers/external-accounts/${q.destination.accountId}`);
    const err = expectError(await send({ quoteId: q.id, currencyCode: 'USD' }), 400, 'QUOTE_ACCOUNT_INACTIVE');
    expect(err.details).toMatchObject({ quoteId: q.id, field: 'destination.accountId', status: 'INACTIVE' });
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual([]);
  });

  it('is sandbox only and needs TRANSACT', async () => {
    const q = await jitQuote();
    expectError(await send({ quoteId: q.id, currencyCode: 'USD' }, await ctx.platform.token(['VIEW'])), 403, 'FORBIDDEN');
    expectError(await send({ quoteId: q.id, currencyCode: 'USD' }, await ctx.platform.token(['TRANSACT'], 'PRODUCTION')), 403, 'FORBIDDEN');
  });
});

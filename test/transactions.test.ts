/** GET /transactions/{id} and GET /transactions: fields, filters, pagination, scope, history. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterEach(() => expectLedgerBalanced(ctx));

describe('GET /transactions', () => {
  it('filters by customer, platformCustomerId, status, type and time; newest first, paginated', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 100_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const failing = await externalAccount(ctx, 'US_ACCOUNT', '004', { customerId: customer.id });
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const start = new Date().toISOString();
    const ids: string[] = [];
    ids.push(
      (await call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 100 } })).body
        .id,
    );
    ids.push(
      (await call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: failing.id }, amount: 100 } })).body
        .id,
    );
    ids.push(
      (await call(ctx, 'POST', '/transfer-in', { body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 100 } })).body.id,
    );
    ids.push((await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000)).body.transactionId);
    const q = (query: Record<string, string | number>) => call(ctx, 'GET', '/transactions', { query });
    const idsOf = (r: { body: { data: Array<{ id: string }> } }) => r.body.data.map((t) => t.id);
    expect(idsOf(await q({ customerId: customer.id }))).toEqual([...ids].reverse());
    expect(idsOf(await q({ platformCustomerId: customer.platformCustomerId }))).toEqual([...ids].reverse());
    expect(idsOf(await q({ customerId: customer.id, status: 'FAILED' }))).toEqual([ids[1]]);
    expect(idsOf(await q({ customerId: customer.id, status: 'PENDING' }))).toEqual([ids[3]]);
    expect(idsOf(await q({ customerId: customer.id, type: 'INCOMING' }))).toEqual([ids[2]]);
    expect((await q({ customerId: customer.id, createdAfter: start })).body.totalCount).toBe(4);
    expect((await q({ customerId: customer.id, createdBefore: start })).body.totalCount).toBe(0);
    const p1 = await q({ customerId: customer.id, limit: 3 });
    expect(p1.body).toMatchObject({ hasMore: true, totalCount: 4 });
    const p2 = await q({ customerId: customer.id, limit: 3, cursor: p1.body.nextCursor });
    expect(idsOf(p2)).toEqual([ids[0]]);
    expectError(await q({ customerId: customer.id, limit: 3, cursor: `${p1.body.nextCursor}x` }), 400, 'INVALID_INPUT');
    expectError(await q({ type: 'SIDEWAYS' }), 400, 'INVALID_INPUT');
    expectError(await q({ sort: 'asc' }), 400, 'INVALID_INPUT');
  });

  it('a transaction has every field of the spec that has a value; another platform sees none', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const iban = await externalAccount(ctx, 'IBAN', '002', { customerId: customer.id });
    const quote = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000, { description: 'gift' })).body;
    await call(ctx, 'POST', `/quotes/${quote.id}/execute`);
    const tx = (await call(ctx, 'GET', `/transactions/${quote.transactionId}`)).body;
    for (const field of [
      'id',
      'status',
      'type',
      'source',
      'destination',
      'customerId',
      'platformCustomerId',
      'sentAmount',
      'receivedAmount',
      'createdAt',
      'updatedAt',
      'description',
      'counterpartyInformation',
      'reconciliationInstructions',
      'exchangeRate',
      'fees',
      'quoteId',
      'paymentInstructions',
      'refund',
      'rateDetails',
      'failureReason',
    ]) {
      expect(tx, field).toHaveProperty(field);
    }
    // A failed payment was never settled: settledAt is left out, not null (D11).
    expect(tx).not.toHaveProperty('settledAt');
    expect(tx).toMatchObject({
      status: 'FAILED',
      failureReason: 'QUOTE_EXECUTION_FAILED',
      quoteId: quote.id,
      exchangeRate: quote.exchangeRate,
      fees: quote.feesIncluded,
      rateDetails: quote.rateDetails,
    });
    expect(tx.sentAmount).toEqual({ amount: 1_000, currency: { code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 } });
    expect(tx.receivedAmount.currency.code).toBe('EUR');
    const history = await ctx.container.services.transactions.history({ platformId: ctx.platform.platformId, environment: 'SANDBOX' }, tx.id);
    expect(history.map((h) => [h.from, h.to])).toEqual([
      ['PENDING', 'PROCESSING'],
      ['PROCESSING', 'FAILED'],
    ]);
    expect(history.every((h) => h.cause.length > 0 && h.at)).toBe(true);
    const other = await ctx.newPlatform('Other');
    expectError(await call(ctx, 'GET', `/transactions/${tx.id}`, { auth: other.auth }), 404, 'TRANSACTION_NOT_FOUND');
    expect((await call(ctx, 'GET', '/transactions', { auth: other.auth })).body.totalCount).toBe(0);
    expectError(await call(ctx, 'GET', '/transactions/Transaction:nope'), 400, 'INVALID_INPUT');
  });
});

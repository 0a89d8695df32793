import { beforeAll, describe, expect, it } from 'vitest';
import { CURRENCY_CODES } from '../src/common/currencies.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { customerWithAccounts, expectLedgerBalanced, fund } from './helpers/ledger.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

describe('internal accounts of customers', () => {
  it('opens one account per enabled currency with the customer, balance 0', async () => {
    const { customer, accounts } = await customerWithAccounts(ctx, ['USD', 'EUR', 'BTC']);
    expect(Object.keys(accounts).sort()).toEqual(['BTC', 'EUR', 'USD']);
    for (const a of Object.values(accounts)) {
      expect(a.id).toMatch(/^InternalAccount:/);
      expect(a.customerId).toBe(customer.id);
      expect(a.balance.amount).toBe(0);
      expect(a.fundingPaymentInstructions).toHaveLength(1);
      expect(a.fundingPaymentInstructions[0].isPlatformAccount).toBe(false);
    }
    expect(accounts.USD.balance.currency).toEqual({ code: 'USD', name: 'US Dollar', symbol: '$', decimals: 2 });
  });

  it('gives fiat accounts bank details with a unique reference, crypto accounts their own address', async () => {
    const a = await customerWithAccounts(ctx, ['USD', 'USDC', 'BTC']);
    const b = await customerWithAccounts(ctx, ['USD']);
    const usd = a.accounts.USD.fundingPaymentInstructions[0];
    expect(usd.accountOrWalletInfo).toMatchObject({
      accountType: 'US_ACCOUNT',
      routingNumber: '021000021',
      accountCategory: 'CHECKING',
      paymentRails: ['ACH', 'WIRE'],
    });
    expect(usd.accountOrWalletInfo.reference).toMatch(/^CRD[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(usd.instructionsNotes).toContain(usd.accountOrWalletInfo.reference);
    expect(b.accounts.USD.fundingPaymentInstructions[0].accountOrWalletInfo.reference).not.toBe(usd.accountOrWalletInfo.reference);
    expect(a.accounts.USDC.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'SOLANA_WALLET', assetType: 'USDC' });
    expect(a.accounts.BTC.fundingPaymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'LAYER2_WALLET', assetType: 'BTC' });
    expect(a.accounts.BTC.fundingPaymentInstructions[0].accountOrWalletInfo.address).toMatch(/^sparkrt1/);
  });

  it('PATCH adds an account for a new currency and deactivates an empty removed one', async () => {
    const { customer, accounts } = await customerWithAccounts(ctx, ['USD', 'EUR']);
    const patched = await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'GBP'] } });
    expect(patched.status).toBe(200);
    const list = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: customer.id } });
    expect(list.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual(['GBP', 'USD']);
    expect(list.body.totalCount).toBe(2);
    // The removed account still answers by id, without pay-in instructions; re-adding brings it back.
    const eur = await call(ctx, 'GET', `/internal-accounts/${accounts.EUR.id}`);
    expect(eur.status).toBe(200);
    expect(eur.body.fundingPaymentInstructions).toEqual([]);
    expectError(await fund(ctx, accounts.EUR.id, 100), 400, 'INTERNAL_ACCOUNT_INACTIVE');
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR'] } });
    const again = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: customer.id, currency: 'EUR' } });
    expect(again.body.data.map((a: any) => a.id)).toEqual([accounts.EUR.id]);
    await expectLedgerBalanced(ctx);
  });

  it('refuses to remove a currency whose account holds money, and changes nothing', async () => {
    const { customer, accounts } = await customerWithAccounts(ctx, ['USD', 'EUR']);
    expect((await fund(ctx, accounts.EUR.id, 1)).status).toBe(200);
    const res = await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', currencies: ['USD'], fullName: 'Changed Name' } });
    const body = expectError(res, 400, 'INTERNAL_ACCOUNT_NOT_EMPTY');
    expect(body.details).toMatchObject({ field: 'currencies', currency: 'EUR', accountId: accounts.EUR.id, balance: 1 });
    const after = await call(ctx, 'GET', `/customers/${customer.id}`);
    expect(after.body.currencies).toEqual(['USD', 'EUR']);
    expect(after.body.fullName).toBe('Ada Lovelace');
    await expectLedgerBalanced(ctx);
  });

  it('lists newest first with filters, pagination and totalCount', async () => {
    const { customer } = await customerWithAccounts(ctx, ['USD', 'EUR', 'GBP']);
    const p1 = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: customer.id, limit: 2 } });
    expect(p1.body).toMatchObject({ hasMore: true, totalCount: 3 });
    const p2 = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: customer.id, limit: 2, cursor: p1.body.nextCursor } });
    expect(p2.body.hasMore).toBe(false);
    const ids = [...p1.body.data, ...p2.body.data].map((a: any) => a.id);
    expect(ids).toEqual([...ids].sort().reverse());
    const usd = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: customer.id, currency: 'USD' } });
    expect(usd.body.data).toHaveLength(1);
    expectError(await call(ctx, 'GET', '/customers/internal-accounts', { query: { currency: 'XXX' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/customers/internal-accounts', { query: { limit: 101 } }), 400, 'INVALID_INPUT');
  });
});

describe('platform internal accounts', () => {
  it('has one per supported currency, marked as the platform account', async () => {
    const res = await call(ctx, 'GET', '/platform/internal-accounts', { query: { limit: 100 } });
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(CURRENCY_CODES.length);
    expect(res.body.data.map((a: any) => a.balance.currency.code).sort()).toEqual([...CURRENCY_CODES].sort());
    for (const a of res.body.data) {
      expect(a).not.toHaveProperty('customerId');
      for (const i of a.fundingPaymentInstructions) expect(i.isPlatformAccount).toBe(true);
    }
    const again = await call(ctx, 'GET', '/platform/internal-accounts', { query: { currency: 'EUR' } });
    expect(again.body.data).toHaveLength(1);
    // Platform accounts never show among customers' accounts.
    const customers = await call(ctx, 'GET', '/customers/internal-accounts', { query: { limit: 100 } });
    expect(customers.body.data.every((a: any) => a.customerId !== null)).toBe(true);
  });

  it('opens them once under concurrent first reads', async () => {
    const other = await ctx.newPlatform('Concurrent');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(ctx, 'GET', '/platform/internal-accounts', { auth: other.auth, query: { limit: 100 } })),
    );
    for (const r of results) expect(r.body.totalCount).toBe(CURRENCY_CODES.length);
  });
});

describe('sandbox funding', () => {
  it('credits the account from the sandbox funding account and returns the new balance', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['USD']);
    const res = await fund(ctx, accounts.USD.id, 12_345);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(accounts.USD.id);
    expect(res.body.balance.amount).toBe(12_345);
    expect((await fund(ctx, accounts.USD.id, 100_000_000_000)).body.balance.amount).toBe(100_000_012_345);
    const got = await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`);
    expect(got.body.balance.amount).toBe(100_000_012_345);
    await expectLedgerBalanced(ctx);
  });

  it('funds platform accounts too', async () => {
    const list = await call(ctx, 'GET', '/platform/internal-accounts', { query: { currency: 'GBP' } });
    const res = await fund(ctx, list.body.data[0].id, 500);
    expect(res.body).toMatchObject({ balance: { amount: 500 } });
    expect(res.body).not.toHaveProperty('customerId');
    await expectLedgerBalanced(ctx);
  });

  it('validates the amount and the account, naming the field', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['USD']);
    for (const amount of [0, -1, 100_000_000_001, 1.5, '100']) {
      const body = expectError(await fund(ctx, accounts.USD.id, amount as number), 400, 'INVALID_INPUT');
      expect(body.details.fields[0].field).toBe('amount');
    }
    const extra = expectError(
      await call(ctx, 'POST', `/sandbox/internal-accounts/${accounts.USD.id}/fund`, { body: { amount: 1, note: 'x' } }),
      400,
      'INVALID_INPUT',
    );
    expect(extra.details.fields[0].field).toBe('note');
    expectError(await fund(ctx, 'InternalAccount:0190b2a0-0000-7000-8000-000000000000', 1), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await fund(ctx, 'Customer:0190b2a0-0000-7000-8000-000000000000', 1), 400, 'INVALID_INPUT');
    expect((await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`)).body.balance.amount).toBe(0);
  });

  it('needs TRANSACT, a SANDBOX token, and refuses a deleted customer', async () => {
    const { customer, accounts } = await customerWithAccounts(ctx, ['USD']);
    const view = await ctx.platform.token(['VIEW']);
    expectError(await fund(ctx, accounts.USD.id, 1, view), 403, 'FORBIDDEN');
    const manage = await ctx.platform.token(['MANAGE']);
    expectError(await fund(ctx, accounts.USD.id, 1, manage), 403, 'FORBIDDEN');
    const production = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    expectError(await fund(ctx, accounts.USD.id, 1, production), 403, 'FORBIDDEN');
    expect((await call(ctx, 'GET', '/customers/internal-accounts', { auth: view })).status).toBe(200);
    await call(ctx, 'DELETE', `/customers/${customer.id}`);
    expectError(await fund(ctx, accounts.USD.id, 1), 410, 'CUSTOMER_DELETED');
  });

  it('replays with the same Idempotency-Key instead of funding twice', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['EUR']);
    const headers = { 'idempotency-key': `fund-${accounts.EUR.id}` };
    const first = await call(ctx, 'POST', `/sandbox/internal-accounts/${accounts.EUR.id}/fund`, { body: { amount: 700 }, headers });
    const second = await call(ctx, 'POST', `/sandbox/internal-accounts/${accounts.EUR.id}/fund`, { body: { amount: 700 }, headers });
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await call(ctx, 'GET', `/internal-accounts/${accounts.EUR.id}`)).body.balance.amount).toBe(700);
    await expectLedgerBalanced(ctx);
  });
});

describe('tenant isolation', () => {
  it("hides another platform's and environment's accounts (404) and lists", async () => {
    const { accounts } = await customerWithAccounts(ctx, ['USD']);
    const other = await ctx.newPlatform('Other');
    expectError(await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`, { auth: other.auth }), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await fund(ctx, accounts.USD.id, 1, other.auth), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    const list = await call(ctx, 'GET', '/customers/internal-accounts', { auth: other.auth });
    expect(list.body.totalCount).toBe(0);
    const production = await ctx.platform.token(['VIEW'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`, { auth: production }), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    const prodPlatform = await call(ctx, 'GET', '/platform/internal-accounts', { auth: production, query: { currency: 'USD' } });
    expect(prodPlatform.body.data[0].fundingPaymentInstructions).toEqual([]);
    expect(prodPlatform.body.data[0].id).not.toBe((await call(ctx, 'GET', '/platform/internal-accounts', { query: { currency: 'USD' } })).body.data[0].id);
  });
});

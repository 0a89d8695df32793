import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { accountBody, countAccounts, createAccount, newCustomer } from './helpers/external-accounts.js';
import { fundedCustomer, quoteFromAccount } from './helpers/payments.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

describe('owners', () => {
  it('without customerId the platform owns the account; /platform/external-accounts lists it', async () => {
    const body = accountBody('US_ACCOUNT', '000', undefined, { platformAccountId: 'ops-usd-1' });
    const res = await createAccount(ctx, body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ customerId: null, platformAccountId: 'ops-usd-1' });
    const viaPlatform = accountBody('IBAN', '000', 'DE');
    viaPlatform.accountInfo.platformAccountId = 'ops-eur-1';
    const p = await createAccount(ctx, viaPlatform, { path: '/platform/external-accounts' });
    expect(p.status).toBe(201);
    expect(p.body).toMatchObject({ customerId: null, platformAccountId: 'ops-eur-1' });
    expect(p.body.accountInfo.platformAccountId).toBeUndefined();
    const list = await call(ctx, 'GET', '/platform/external-accounts');
    expect(list.body.data.map((a: any) => a.id)).toEqual([p.body.id, res.body.id]);
    expect((await call(ctx, 'GET', `/platform/external-accounts/${p.body.id}`)).status).toBe(200);
    // A platform account is not a customer's account, and vice versa.
    expectError(await call(ctx, 'GET', `/customers/external-accounts/${p.body.id}`), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    const customers = await call(ctx, 'GET', '/customers/external-accounts', { query: { limit: 100 } });
    expect(customers.body.data.some((a: any) => a.id === p.body.id)).toBe(false);
  });

  it('refuses the customerId and default flag on the platform route, and conflicting platformAccountIds', async () => {
    const customerId = await newCustomer(ctx);
    const err = expectError(
      await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId }, { path: '/platform/external-accounts' }),
      400,
      'INVALID_INPUT',
    );
    expect(err.details.fields[0].field).toBe('customerId');
    const flag = expectError(await createAccount(ctx, { ...accountBody('US_ACCOUNT'), defaultUmaDepositAccount: true }), 400, 'INVALID_INPUT');
    expect(flag.details.fields[0].field).toBe('defaultUmaDepositAccount');
    const both = accountBody('US_ACCOUNT', '000', undefined, { platformAccountId: 'a' });
    both.accountInfo.platformAccountId = 'b';
    expect(expectError(await createAccount(ctx, both), 400, 'INVALID_INPUT').details.fields[0].field).toBe('platformAccountId');
  });

  it('checks the customer: unknown 404, deleted 410', async () => {
    expectError(
      await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId: 'Customer:0190b2a0-0000-7000-8000-000000000000' }),
      404,
      'CUSTOMER_NOT_FOUND',
    );
    const customerId = await newCustomer(ctx);
    await call(ctx, 'DELETE', `/customers/${customerId}`);
    expectError(await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId }), 410, 'CUSTOMER_DELETED');
  });
});

describe('defaultUmaDepositAccount', () => {
  it('keeps at most one per customer: a new default clears the old', async () => {
    const customerId = await newCustomer(ctx);
    const a = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId, defaultUmaDepositAccount: true });
    expect(a.body.defaultUmaDepositAccount).toBe(true);
    const b = await createAccount(ctx, { ...accountBody('IBAN', '000', 'DE'), customerId, defaultUmaDepositAccount: true });
    expect(b.body.defaultUmaDepositAccount).toBe(true);
    expect((await call(ctx, 'GET', `/customers/external-accounts/${a.body.id}`)).body.defaultUmaDepositAccount).toBe(false);
    const other = await newCustomer(ctx);
    const c = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId: other, defaultUmaDepositAccount: true });
    expect(c.body.defaultUmaDepositAccount).toBe(true);
    expect((await call(ctx, 'GET', `/customers/external-accounts/${b.body.id}`)).body.defaultUmaDepositAccount).toBe(true);
  });

  it('ends with exactly one default when many requests set one at once', async () => {
    const customerId = await newCustomer(ctx);
    const results = await Promise.all(
      Array.from({ length: 12 }, () => createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId, defaultUmaDepositAccount: true })),
    );
    for (const r of results) expect([201, 400]).toContain(r.status);
    const list = await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, limit: 100 } });
    expect(list.body.data.filter((a: any) => a.defaultUmaDepositAccount)).toHaveLength(1);
  });
});

describe('reading, listing and deactivating', () => {
  it('lists newest first with filters and pagination', async () => {
    const customerId = await newCustomer(ctx);
    const ids = [];
    for (const t of ['US_ACCOUNT', 'GBP_ACCOUNT', 'US_ACCOUNT']) ids.push((await createAccount(ctx, { ...accountBody(t), customerId })).body.id);
    const p1 = await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, limit: 2 } });
    expect(p1.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(p1.body.data.map((a: any) => a.id)).toEqual([ids[2], ids[1]]);
    const p2 = await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, limit: 2, cursor: p1.body.nextCursor } });
    expect(p2.body.data.map((a: any) => a.id)).toEqual([ids[0]]);
    const usd = await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, currency: 'USD' } });
    expect(usd.body.totalCount).toBe(2);
    expectError(await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, cursor: 'forged' } }), 400, 'INVALID_INPUT');
  });

  it('DELETE deactivates (INACTIVE, no longer the default) and is repeatable', async () => {
    const customerId = await newCustomer(ctx);
    const a = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId, defaultUmaDepositAccount: true });
    const del = await call(ctx, 'DELETE', `/customers/external-accounts/${a.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: a.body.id, status: 'INACTIVE', defaultUmaDepositAccount: false });
    expect((await call(ctx, 'DELETE', `/customers/external-accounts/${a.body.id}`)).body.status).toBe('INACTIVE');
    const inactive = await call(ctx, 'GET', '/customers/external-accounts', { query: { customerId, status: 'INACTIVE' } });
    expect(inactive.body.data.map((x: any) => x.id)).toEqual([a.body.id]);
    const p = await createAccount(ctx, accountBody('US_ACCOUNT'), { path: '/platform/external-accounts' });
    expect((await call(ctx, 'DELETE', `/platform/external-accounts/${p.body.id}`)).body.status).toBe('INACTIVE');
    expectError(await call(ctx, 'DELETE', `/platform/external-accounts/${a.body.id}`), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
  });

  it('an INACTIVE account cannot be used for a new quote or transfer, an ACTIVE one can', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const active = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId: customer.id });
    const inactive = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId: customer.id });
    expect((await call(ctx, 'DELETE', `/customers/external-accounts/${inactive.body.id}`)).body.status).toBe('INACTIVE');
    expect((await quoteFromAccount(ctx, accounts.USD.id, active.body.id, 1_000)).status).toBe(201);
    const quote = expectError(await quoteFromAccount(ctx, accounts.USD.id, inactive.body.id, 1_000), 400, 'INVALID_INPUT');
    expect(quote.details.fields).toEqual([expect.objectContaining({ field: 'destination.accountId', message: expect.stringContaining('INACTIVE') })]);
    const transfer = (accountId: string) =>
      call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId }, amount: 100 } });
    expect(expectError(await transfer(inactive.body.id), 400, 'INVALID_INPUT').details.fields[0].field).toBe('destination.accountId');
    expect((await transfer(active.body.id)).status).toBe(201);
  });
});

describe('permissions and tenant isolation', () => {
  it('a VIEW token reads but cannot write; nothing is stored', async () => {
    const view = await ctx.platform.token(['VIEW']);
    const before = await countAccounts(ctx);
    expectError(await createAccount(ctx, accountBody('US_ACCOUNT'), { auth: view }), 403, 'FORBIDDEN');
    expectError(await createAccount(ctx, accountBody('US_ACCOUNT'), { auth: view, path: '/platform/external-accounts' }), 403, 'FORBIDDEN');
    const a = await createAccount(ctx, accountBody('US_ACCOUNT'));
    expectError(await call(ctx, 'DELETE', `/customers/external-accounts/${a.body.id}`, { auth: view }), 403, 'FORBIDDEN');
    expect((await call(ctx, 'GET', '/platform/external-accounts', { auth: view })).status).toBe(200);
    expect(await countAccounts(ctx)).toBe(before + 1);
  });

  it("another platform's or environment's accounts and customers do not exist (404)", async () => {
    const customerId = await newCustomer(ctx);
    const a = await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId });
    const other = await ctx.newPlatform('Other');
    expectError(await call(ctx, 'GET', `/customers/external-accounts/${a.body.id}`, { auth: other.auth }), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await call(ctx, 'DELETE', `/customers/external-accounts/${a.body.id}`, { auth: other.auth }), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await createAccount(ctx, { ...accountBody('US_ACCOUNT'), customerId }, { auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
    expect((await call(ctx, 'GET', '/customers/external-accounts', { auth: other.auth, query: { customerId } })).body.totalCount).toBe(0);
    const production = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', `/customers/external-accounts/${a.body.id}`, { auth: production }), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expect((await call(ctx, 'GET', `/customers/external-accounts/${a.body.id}`)).body.status).toBe('ACTIVE');
  });

  it('PRODUCTION validates the same, refuses test networks and does not simulate verification', async () => {
    const production = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
    const ok = await createAccount(ctx, accountBody('US_ACCOUNT', '105'), { auth: production });
    expect(ok.status).toBe(201);
    expect(ok.body.beneficiaryVerificationStatus).toBe('UNSUPPORTED');
    const bad = accountBody('US_ACCOUNT');
    bad.accountInfo.routingNumber = '021000022';
    expect(expectError(await createAccount(ctx, bad, { auth: production }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('accountInfo.routingNumber');
    const wallet = accountBody('EVM_WALLET');
    expect(expectError(await createAccount(ctx, wallet, { auth: production }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('cryptoNetwork');
    expect((await createAccount(ctx, { ...wallet, cryptoNetwork: 'BASE_MAINNET' }, { auth: production })).status).toBe(201);
  });
});

/**
 * POST /transfer-out and /transfer-in beyond the sandbox patterns (payments-sandbox.test.ts):
 * same currency only, pullable sources of the same owner, balances, scope, permissions, fees.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer } from './helpers/payments.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

const out = (source: string, destination: string, amount: number, auth?: string) =>
  call(ctx, 'POST', '/transfer-out', { auth, body: { source: { accountId: source }, destination: { accountId: destination }, amount } });
const pull = (source: string, destination: string, amount: number, auth?: string) =>
  call(ctx, 'POST', '/transfer-in', { auth, body: { source: { accountId: source }, destination: { accountId: destination }, amount } });

describe('transfer-out', () => {
  it('pays out every field of the Transaction; the balance drops by the amount', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const res = await call(ctx, 'POST', '/transfer-out', {
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 3_000, description: 'payroll' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'COMPLETED',
      type: 'OUTGOING',
      customerId: customer.id,
      platformCustomerId: customer.platformCustomerId,
      source: { sourceType: 'ACCOUNT', accountId: accounts.USD.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: bank.id, currency: 'USD', paymentRail: 'ACH' },
      sentAmount: { amount: 3_000, currency: { code: 'USD' } },
      receivedAmount: { amount: 3_000 },
      description: 'payroll',
      exchangeRate: 1,
      fees: 0,
      paymentInstructions: [],
      counterpartyInformation: { FULL_NAME: 'Ada Lovelace' },
      reconciliationInstructions: { reference: expect.stringMatching(/^CRD/) },
    });
    // No quote, no rate, no failure: left out, not null (D11).
    for (const member of ['quoteId', 'rateDetails', 'failureReason']) expect(res.body).not.toHaveProperty(member);
    expect(await balance(ctx, accounts.USD.id)).toBe(7_000);
    await expectLedgerBalanced(ctx);
  });

  it('refuses a currency mismatch, more than the balance, inactive accounts; nothing changes', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD', 'EUR'], 1_000);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    expect(expectError(await out(accounts.USD.id, iban.id, 500), 400, 'INVALID_INPUT').details.fields[0].field).toBe('destination.accountId');
    expectError(await out(accounts.USD.id, bank.id, 1_001), 400, 'INSUFFICIENT_FUNDS');
    expect(expectError(await out(accounts.USD.id, bank.id, 0), 400, 'INVALID_INPUT').details.fields[0].field).toBe('amount');
    await call(ctx, 'DELETE', `/customers/external-accounts/${bank.id}`);
    expect(expectError(await out(accounts.USD.id, bank.id, 100), 400, 'INVALID_INPUT').details.fields[0].field).toBe('destination.accountId');
    expect(await balance(ctx, accounts.USD.id)).toBe(1_000);
    const txs = await call(ctx, 'GET', '/transactions', { query: { customerId: customer.id } });
    expect(txs.body.totalCount).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it("another platform's accounts are 404; VIEW is 403", async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 1_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const other = await ctx.newPlatform('Other');
    expectError(await out(accounts.USD.id, bank.id, 100, other.auth), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await out(accounts.USD.id, bank.id, 100, await ctx.platform.token(['VIEW'])), 403, 'FORBIDDEN');
    expectError(await pull(bank.id, accounts.USD.id, 100, other.auth), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expect(await balance(ctx, accounts.USD.id)).toBe(1_000);
  });
});

describe('transfer-in', () => {
  it('credits the internal account; INCOMING with the recipient as customer', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const res = await pull(bank.id, accounts.USD.id, 12_345);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: 'INCOMING',
      status: 'COMPLETED',
      customerId: customer.id,
      source: { accountId: bank.id },
      destination: { accountId: accounts.USD.id },
      receivedAmount: { amount: 12_345 },
    });
    expect(await balance(ctx, accounts.USD.id)).toBe(12_345);
    await expectLedgerBalanced(ctx);
  });

  it('only from a pullable account of the same owner and currency', async () => {
    const a = await fundedCustomer(ctx, ['USD', 'GBP'], 0);
    const b = await fundedCustomer(ctx, ['USD'], 0);
    const gbp = await externalAccount(ctx, 'GBP_ACCOUNT', '000', { customerId: a.customer.id });
    const bankOfB = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: b.customer.id });
    const bankOfA = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: a.customer.id });
    const field = async (res: Promise<{ status: number; body: any }>) => expectError(await res, 400, 'INVALID_INPUT').details.fields[0].field;
    expect(await field(pull(gbp.id, a.accounts.GBP.id, 100))).toBe('source.accountId'); // not pullable
    expect(await field(pull(bankOfB.id, a.accounts.USD.id, 100))).toBe('source.accountId'); // another owner
    expect(await field(pull(bankOfA.id, a.accounts.GBP.id, 100))).toBe('source.accountId'); // currency
    expect(await balance(ctx, a.accounts.USD.id)).toBe(0);
    await expectLedgerBalanced(ctx);
  });
});

/**
 * Fees per corridor from the operator's fee schedule (FEES_FILE, docs/pricing.md) through the API
 * and the ledger: the service's fixed fee and variable rate (sending minor units) and the
 * counterparty's fixed fee (receiving minor units) in the quote, its rateDetails and the payment's
 * ledger transfers; the same-currency rule on transfers; the fees refunded with a failed payout.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/common/scope.js';
import type { SystemCode } from '../src/ledger/index.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer, quoteFromAccount, webhookReceiver, webhookStatuses } from './helpers/payments.js';
import type { WebhookReceiver } from './helpers/webhook-receiver.js';

const feesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-fees-')), 'fees.json');
fs.writeFileSync(
  feesFile,
  JSON.stringify({
    corridors: [
      { from: 'USD', to: 'EUR', serviceFixedFee: 25, serviceVariableRate: '0.002', counterpartyFixedFee: 10 },
      { from: '*', to: '*', serviceVariableRate: '0.01' },
    ],
    sameCurrency: { serviceFixedFee: 5 },
  }),
);

let ctx: TestContext;
let receiver: WebhookReceiver;
let scope: Scope;
beforeAll(async () => {
  ctx = await testContext({ env: { FEES_FILE: feesFile } });
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
  receiver = await webhookReceiver(ctx);
});
afterAll(() => receiver.close());
afterEach(() => expectLedgerBalanced(ctx));

/** The posted balance of a system account of the platform. */
async function system(code: SystemCode, currency: string): Promise<bigint> {
  return (await ctx.container.ledger.balance(scope, await ctx.container.ledger.systemAccount(scope, code, currency)))!.posted;
}

describe('a corridor with every kind of fee (USD → EUR: 0.25 USD + 0.2 %, counterparty 0.10 EUR)', () => {
  it('prices the quote, shows the fees in feesIncluded and rateDetails, and books them at execute', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 50_000);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const feesBefore = await system('FEES', 'USD');
    const inFlightBefore = await system('PAYOUTS_IN_FLIGHT', 'EUR');
    const res = await quoteFromAccount(ctx, accounts.USD.id, iban.id, 10_000);
    expect(res.status).toBe(201);
    // V = ceil(10000 × 0.002) = 20; converted 10000 − 25 − 20 = 9955; floor(9955 × 0.92) − 10 = 9158 − 10
    expect(res.body).toMatchObject({ totalSendingAmount: 10_000, feesIncluded: 45, totalReceivingAmount: 9_148 });
    expect(res.body.rateDetails).toEqual({
      serviceApiFixedFee: 25,
      serviceApiVariableFeeRate: 0.002,
      serviceApiVariableFeeAmount: 20,
      counterpartyFixedFee: 10,
      serviceApiMultiplier: 9_980, // 10000 msats per cent × (1 − 0.002)
      counterpartyMultiplier: 0.000092, // 0.92 EUR cents per USD cent / 10000 msats
    });
    // Locking the receiving side finds the same price: 9999 would deliver only 9147.
    const locked = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 9_148, { lockedCurrencySide: 'RECEIVING' })).body;
    expect(locked).toMatchObject({ totalSendingAmount: 10_000, totalReceivingAmount: 9_148, feesIncluded: 45 });

    const executed = await call(ctx, 'POST', `/quotes/${res.body.id}/execute`);
    expect(executed.body.status).toBe('COMPLETED');
    expect(await webhookStatuses(ctx, receiver, res.body.transactionId)).toEqual(['PROCESSING', 'COMPLETED']);
    expect((await call(ctx, 'GET', `/transactions/${res.body.transactionId}`)).body).toMatchObject({
      fees: 45,
      sentAmount: { amount: 10_000 },
      receivedAmount: { amount: 9_148 },
    });
    expect(await balance(ctx, accounts.USD.id)).toBe(40_000);
    expect((await system('FEES', 'USD')) - feesBefore).toBe(45n);
    // What leaves for the rail: the amount received plus the counterparty's fee, which it keeps.
    expect((await system('PAYOUTS_IN_FLIGHT', 'EUR')) - inFlightBefore).toBe(9_158n);
  });

  it('refuses an amount that does not cover the fees, naming the smallest one', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 1_000);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    // 37: converted 37 − 25 − 1 = 11, floor(10.12) − 10 = 0; 38: converted 12 → 11 − 10 = 1
    expect(expectError(await quoteFromAccount(ctx, accounts.USD.id, iban.id, 37), 400, 'AMOUNT_TOO_SMALL').details).toMatchObject({ minimumAmount: 38 });
    expect((await quoteFromAccount(ctx, accounts.USD.id, iban.id, 38)).body.totalReceivingAmount).toBe(1);
  });

  it('a failed payout gives the fees back with the rest (sandbox 004)', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 50_000);
    const failing = await externalAccount(ctx, 'IBAN', '004', { customerId: customer.id });
    const feesBefore = await system('FEES', 'USD');
    const q = (await quoteFromAccount(ctx, accounts.USD.id, failing.id, 10_000)).body;
    expect((await call(ctx, 'POST', `/quotes/${q.id}/execute`)).body.status).toBe('FAILED');
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual(['PROCESSING', 'FAILED']);
    expect(await balance(ctx, accounts.USD.id)).toBe(50_000);
    expect(await system('FEES', 'USD')).toBe(feesBefore);
  });
});

describe('other corridors and transfers', () => {
  it('a corridor without its own rule takes the wildcard rule (USD → MXN: 1 %)', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const clabe = await externalAccount(ctx, 'CLABE', '000', { customerId: customer.id });
    const q = (await quoteFromAccount(ctx, accounts.USD.id, clabe.id, 10_000)).body;
    // V = 100; converted 9900 × 18.50 = 183150 MXN cents
    expect(q).toMatchObject({ feesIncluded: 100, totalReceivingAmount: 183_150 });
    expect(q.rateDetails).toMatchObject({ serviceApiFixedFee: 0, serviceApiVariableFeeRate: 0.01, serviceApiVariableFeeAmount: 100, counterpartyFixedFee: 0 });
  });

  it('transfers pay the same-currency rule (0.05 USD), out of the amount', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const feesBefore = await system('FEES', 'USD');
    const out = await call(ctx, 'POST', '/transfer-out', {
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 1_000 },
    });
    expect(out.body).toMatchObject({ status: 'COMPLETED', fees: 5, sentAmount: { amount: 1_000 }, receivedAmount: { amount: 995 }, exchangeRate: 1 });
    expect(await balance(ctx, accounts.USD.id)).toBe(9_000);
    const pulled = await call(ctx, 'POST', '/transfer-in', {
      body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 1_000 },
    });
    expect(pulled.body).toMatchObject({ status: 'COMPLETED', fees: 5, sentAmount: { amount: 1_000 }, receivedAmount: { amount: 995 } });
    expect(await webhookStatuses(ctx, receiver, pulled.body.id, 'INCOMING_PAYMENT')).toEqual(['PROCESSING', 'COMPLETED']);
    expect(await balance(ctx, accounts.USD.id)).toBe(9_995);
    expect((await system('FEES', 'USD')) - feesBefore).toBe(10n);
    expect(
      expectError(
        await call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 5 } }),
        400,
        'AMOUNT_TOO_SMALL',
      ).details,
    ).toMatchObject({ field: 'amount', minimumAmount: 6 });
  });
});

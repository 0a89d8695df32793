/**
 * Concurrency through the API (Promise.all over app.inject): 200 executes and 200 transfers
 * against one balance never overdraw it and leave it exact; 50 executes of one quote: one wins.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

const N = 200;
const COVERED = 120;

describe('concurrent payments against one balance', () => {
  it(`${N} parallel executes: exactly ${COVERED} succeed, the rest are INSUFFICIENT_FUNDS, the balance ends exact`, async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const quotes: Array<{ id: string; totalSendingAmount: number }> = [];
    for (let i = 0; i < N; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => quoteFromAccount(ctx, accounts.USD.id, iban.id, 700)));
      quotes.push(...batch.map((r) => r.body));
    }
    await call(ctx, 'POST', `/sandbox/internal-accounts/${accounts.USD.id}/fund`, { body: { amount: COVERED * 700 + 699 } });
    const results = await Promise.all(quotes.map((q) => call(ctx, 'POST', `/quotes/${q.id}/execute`)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(COVERED);
    for (const r of results) if (r.status !== 200) expect([r.status, r.body.code]).toEqual([400, 'INSUFFICIENT_FUNDS']);
    expect(await balance(ctx, accounts.USD.id)).toBe(699);
    await expectLedgerBalanced(ctx);
  });

  it(`${N} parallel transfer-outs: exactly ${COVERED} succeed, the balance ends at zero`, async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], COVERED * 30);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const results = await Promise.all(
      Array.from({ length: N }, () =>
        call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 30 } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(COVERED);
    for (const r of results) if (r.status !== 201) expect(r.body.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(ctx, accounts.USD.id)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it('50 concurrent executes of one quote: exactly one 200, the others 409 QUOTE_NOT_PENDING', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 100_000);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const q = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000)).body;
    const results = await Promise.all(Array.from({ length: 50 }, () => call(ctx, 'POST', `/quotes/${q.id}/execute`)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expect([r.status, r.body.code]).toEqual([409, 'QUOTE_NOT_PENDING']);
    expect(await balance(ctx, accounts.USD.id)).toBe(99_000);
    await expectLedgerBalanced(ctx);
  });
});

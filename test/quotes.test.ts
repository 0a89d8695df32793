/**
 * POST/GET /quotes and execute: the three funding modes, validation (the D2 error naming the
 * field, nothing changed), scope and permissions, execute's rules (once, before expiry, within
 * the balance, not for JIT), idempotency, the expiry job, the platform's currency settings, lists.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced, fund } from './helpers/ledger.js';
import { balance, drainPayments, externalAccount, fundedCustomer, quoteFromAccount, webhookReceiver, webhookStatuses } from './helpers/payments.js';
import type { WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
let receiver: WebhookReceiver;
const MIN = 60_000;

beforeAll(async () => {
  ctx = await testContext({ clock });
  receiver = await webhookReceiver(ctx, () => clock.now().getTime());
});
afterAll(() => receiver.close());
// Every test, whether it moved money or refused to, leaves a ledger that verifies.
afterEach(() => expectLedgerBalanced(ctx));

async function count(table: 'quotes' | 'transactions'): Promise<number> {
  const r = await ctx.container.db
    .executor()
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function setup(amount = 100_000) {
  const { customer, accounts } = await fundedCustomer(ctx, ['USD'], amount);
  const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
  return { customer, usd: accounts.USD.id as string, iban: iban.id as string };
}

describe('creating quotes', () => {
  it('prefunded from an internal account: PENDING, 5 minutes, a PENDING transaction, no payment instructions', async () => {
    const { customer, usd, iban } = await setup();
    const res = await quoteFromAccount(ctx, usd, iban, 10_000, {
      description: 'rent',
      purposeOfPayment: 'SELF',
      senderCustomerInfo: { FULL_NAME: 'Ada Lovelace' },
    });
    expect(res.status).toBe(201);
    const q = res.body;
    expect(q).toMatchObject({
      status: 'PENDING',
      source: { sourceType: 'ACCOUNT', accountId: usd, customerId: customer.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: iban, currency: 'EUR', paymentRail: 'SEPA' },
      sendingCurrency: { code: 'USD', decimals: 2 },
      receivingCurrency: { code: 'EUR', decimals: 2 },
      totalSendingAmount: 10_000,
      feesIncluded: 30,
      totalReceivingAmount: 9172, // (10000 − 30) × 0.92, rounded down
      exchangeRate: 1.08695652174,
      paymentInstructions: [],
      description: 'rent',
      purposeOfPayment: 'SELF',
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 10_000,
      counterpartyInformation: { FULL_NAME: 'Ada Lovelace' },
    });
    expect(q.rateDetails).toMatchObject({ serviceApiVariableFeeRate: 0.003, serviceApiVariableFeeAmount: 30, serviceApiFixedFee: 0, counterpartyFixedFee: 0 });
    expect(new Date(q.expiresAt).getTime() - new Date(q.createdAt).getTime()).toBe(5 * MIN);
    const tx = (await call(ctx, 'GET', `/transactions/${q.transactionId}`)).body;
    expect(tx).toMatchObject({ status: 'PENDING', type: 'OUTGOING', quoteId: q.id, customerId: customer.id, fees: 30, description: 'rent' });
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body).toEqual(q);
  });

  it('RECEIVING lock: the smallest sending amount that delivers exactly the locked amount', async () => {
    const { usd, iban } = await setup();
    const q = (await quoteFromAccount(ctx, usd, iban, 9172, { lockedCurrencySide: 'RECEIVING' })).body;
    expect(q.totalReceivingAmount).toBe(9172);
    expect(q.totalSendingAmount).toBe(10_000);
    expect(q.totalSendingAmount - q.feesIncluded).toBeGreaterThan(0);
  });

  it('REALTIME_FUNDING (JIT): bank instructions with a unique reference, 15 minutes; also without sourceType', async () => {
    const { customer, iban } = await setup(0);
    for (const source of [
      { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'USD' },
      { customerId: customer.id, currency: 'USD' },
    ]) {
      const res = await call(ctx, 'POST', '/quotes', {
        body: { source, destination: { accountId: iban, currency: 'EUR' }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 5_000 },
      });
      expect(res.status).toBe(201);
      const q = res.body;
      expect(q.source).toEqual({ sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'USD' });
      expect(new Date(q.expiresAt).getTime() - new Date(q.createdAt).getTime()).toBe(15 * MIN);
      expect(q.paymentInstructions).toHaveLength(1);
      const info = q.paymentInstructions[0].accountOrWalletInfo;
      expect(info).toMatchObject({ accountType: 'US_ACCOUNT', routingNumber: expect.any(String), accountNumber: expect.any(String) });
      const tx = (await call(ctx, 'GET', `/transactions/${q.transactionId}`)).body;
      expect(info.reference).toBe(tx.reconciliationInstructions.reference);
      expect(tx.paymentInstructions).toEqual(q.paymentInstructions);
    }
  });

  it('REALTIME_FUNDING in BTC: a deposit address, 5 minutes', async () => {
    const { customer, iban } = await setup(0);
    const res = await call(ctx, 'POST', '/quotes', {
      body: {
        source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'BTC' },
        destination: { accountId: iban },
        lockedCurrencySide: 'RECEIVING',
        lockedCurrencyAmount: 5_000,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.paymentInstructions[0].accountOrWalletInfo).toMatchObject({ accountType: 'LAYER2_WALLET', assetType: 'BTC', address: expect.any(String) });
    expect(new Date(res.body.expiresAt).getTime() - new Date(res.body.createdAt).getTime()).toBe(5 * MIN);
  });

  it('refuses bad input with the field named, and changes nothing', async () => {
    const { customer, usd, iban } = await setup(50_000);
    const ibanInactive = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    await call(ctx, 'DELETE', `/customers/external-accounts/${ibanInactive.id}`);
    const notPullable = await externalAccount(ctx, 'GBP_ACCOUNT', '000', { customerId: customer.id });
    const ok = {
      source: { sourceType: 'ACCOUNT', accountId: usd },
      destination: { accountId: iban },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 1000,
    };
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ ...ok, source: { sourceType: 'ACCOUNT' } }, 'source.accountId'],
      [{ ...ok, source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id } }, 'source.currency'],
      [{ ...ok, source: { sourceType: 'REALTIME_FUNDING', currency: 'USD' } }, 'source.customerId'],
      [{ ...ok, source: { accountId: usd, currency: 'EUR' } }, 'source.currency'],
      [{ ...ok, source: { accountId: notPullable.id } }, 'source.accountId'],
      [{ ...ok, lockedCurrencyAmount: 0 }, 'lockedCurrencyAmount'],
      [{ ...ok, lockedCurrencyAmount: 9_000_000_000_000_001 }, 'lockedCurrencyAmount'],
      [{ ...ok, lockedCurrencyAmount: '1000' }, 'lockedCurrencyAmount'],
      [{ ...ok, lockedCurrencySide: 'BOTH' }, 'lockedCurrencySide'],
      [{ ...ok, purposeOfPayment: 'FUN' }, 'purposeOfPayment'],
      [{ ...ok, destination: { accountId: iban, currency: 'GBP' } }, 'destination.currency'],
      [{ ...ok, destination: { accountId: ibanInactive.id } }, 'destination.accountId'],
      [{ ...ok, amount: 5 }, 'amount'],
      [{ ...ok, source: { ...ok.source, memo: 'x' } }, 'source.memo'],
      [{ ...ok, source: { customerId: customer.id, currency: 'USD' }, immediatelyExecute: true }, 'immediatelyExecute'],
    ];
    const quotesBefore = await count('quotes');
    for (const [body, field] of cases) {
      const res = await call(ctx, 'POST', '/quotes', { body });
      const err = expectError(res, 400, 'INVALID_INPUT');
      expect(
        err.details.fields.map((f: { field: string }) => f.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    const tooSmall = expectError(await quoteFromAccount(ctx, usd, iban, 1), 400, 'AMOUNT_TOO_SMALL');
    expect(tooSmall.details).toMatchObject({ field: 'lockedCurrencyAmount', minimumAmount: expect.any(Number) });
    expectError(await quoteFromAccount(ctx, usd, iban, 9_000_000_000_000_000, { lockedCurrencySide: 'RECEIVING' }), 400, 'AMOUNT_TOO_LARGE');
    expect(await count('quotes')).toBe(quotesBefore);
    expect(await balance(ctx, usd)).toBe(50_000);
  });

  it("refuses an account whose customer was deleted (410 CUSTOMER_DELETED), as payer's or payee's; a platform's account has no owner to check", async () => {
    const payer = await setup(50_000);
    const payee = await fundedCustomer(ctx, ['EUR'], 0);
    const payeeIban = (await externalAccount(ctx, 'IBAN', '000', { customerId: payee.customer.id })).id as string;
    const platformIban = (await externalAccount(ctx, 'IBAN', '000')).id as string;
    await call(ctx, 'DELETE', `/customers/${payee.customer.id}`);
    const quotesBefore = await count('quotes');
    for (const immediatelyExecute of [false, true]) {
      const err = expectError(await quoteFromAccount(ctx, payer.usd, payeeIban, 1000, { immediatelyExecute }), 410, 'CUSTOMER_DELETED');
      expect(err.details).toMatchObject({ customerId: payee.customer.id });
    }
    const toPlatform = await quoteFromAccount(ctx, payer.usd, platformIban, 1000, { immediatelyExecute: true });
    expect(toPlatform.status, JSON.stringify(toPlatform.body)).toBe(201);
    await call(ctx, 'DELETE', `/customers/${payer.customer.id}`);
    expect(expectError(await quoteFromAccount(ctx, payer.usd, platformIban, 1000), 410, 'CUSTOMER_DELETED').details).toMatchObject({
      customerId: payer.customer.id,
    });
    expect(await count('quotes')).toBe(quotesBefore + 1);
    expect(await balance(ctx, payer.usd)).toBe(49_000);
  });

  it("another platform's ids do not exist (404); VIEW tokens cannot quote or execute (403)", async () => {
    const { usd, iban } = await setup();
    const other = await ctx.newPlatform('Other');
    expectError(await quoteFromAccount(ctx, usd, iban, 1000, {}, other.auth), 404, 'INTERNAL_ACCOUNT_NOT_FOUND');
    const mine = await fundedCustomer(ctx, ['USD'], 0, other.auth);
    expectError(await quoteFromAccount(ctx, mine.accounts.USD.id, iban, 1000, {}, other.auth), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    const q = (await quoteFromAccount(ctx, usd, iban, 1000)).body;
    expectError(await call(ctx, 'GET', `/quotes/${q.id}`, { auth: other.auth }), 404, 'QUOTE_NOT_FOUND');
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: other.auth }), 404, 'QUOTE_NOT_FOUND');
    expectError(await call(ctx, 'GET', `/transactions/${q.transactionId}`, { auth: other.auth }), 404, 'TRANSACTION_NOT_FOUND');
    const view = await ctx.platform.token(['VIEW']);
    expectError(await quoteFromAccount(ctx, usd, iban, 1000, {}, view), 403, 'FORBIDDEN');
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: view }), 403, 'FORBIDDEN');
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: view })).status).toBe(200);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
  });
});

describe('executing quotes', () => {
  it('only once: a second execute is 409 QUOTE_NOT_PENDING', async () => {
    const { usd, iban } = await setup();
    const q = (await quoteFromAccount(ctx, usd, iban, 10_000)).body;
    expect((await call(ctx, 'POST', `/quotes/${q.id}/execute`)).status).toBe(200);
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`), 409, 'QUOTE_NOT_PENDING');
    expect(await balance(ctx, usd)).toBe(90_000);
    await expectLedgerBalanced(ctx);
  });

  it('beyond the balance: 400 INSUFFICIENT_FUNDS, nothing moved, no webhook, the quote stays executable', async () => {
    const { usd, iban } = await setup(5_000);
    const q = (await quoteFromAccount(ctx, usd, iban, 10_000)).body;
    const res = await call(ctx, 'POST', `/quotes/${q.id}/execute`);
    expect(expectError(res, 400, 'INSUFFICIENT_FUNDS').details).toMatchObject({ accountId: usd, available: 5_000 });
    expect(await balance(ctx, usd)).toBe(5_000);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('PENDING');
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual([]);
    await fund(ctx, usd, 5_000);
    expect((await call(ctx, 'POST', `/quotes/${q.id}/execute`)).body.status).toBe('COMPLETED');
    expect(await balance(ctx, usd)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it('immediatelyExecute beyond the balance: 400 INSUFFICIENT_FUNDS, and neither the quote nor its transaction exists; within it, one row each with its whole history', async () => {
    const { usd, iban } = await setup(5_000);
    const [quotesBefore, transactionsBefore] = [await count('quotes'), await count('transactions')];
    const refused = await quoteFromAccount(ctx, usd, iban, 10_000, { immediatelyExecute: true });
    expect(expectError(refused, 400, 'INSUFFICIENT_FUNDS').details).toMatchObject({ accountId: usd, available: 5_000 });
    expect([await count('quotes'), await count('transactions')]).toEqual([quotesBefore, transactionsBefore]);
    expect(await balance(ctx, usd)).toBe(5_000);
    const paid = await quoteFromAccount(ctx, usd, iban, 5_000, { immediatelyExecute: true });
    expect(paid.body.status).toBe('COMPLETED');
    expect([await count('quotes'), await count('transactions')]).toEqual([quotesBefore + 1, transactionsBefore + 1]);
    const history = await ctx.container.db
      .executor()
      .selectFrom('transaction_history')
      .select(['from_status', 'to_status'])
      .where('transaction_id', '=', paid.body.transactionId)
      .orderBy('id')
      .execute();
    expect(history).toEqual([
      { from_status: 'PENDING', to_status: 'PROCESSING' },
      { from_status: 'PROCESSING', to_status: 'COMPLETED' },
    ]);
    expect(await webhookStatuses(ctx, receiver, paid.body.transactionId)).toEqual(['PROCESSING', 'COMPLETED']);
    expect((await call(ctx, 'GET', `/quotes/${paid.body.id}`)).body.status).toBe('COMPLETED');
    expect(await balance(ctx, usd)).toBe(0);
  });

  it('never after expiresAt (400 QUOTE_EXPIRED); the expiry job marks quote and transaction EXPIRED with a webhook', async () => {
    const { usd, iban } = await setup();
    const q = (await quoteFromAccount(ctx, usd, iban, 10_000)).body;
    clock.advance(5 * MIN);
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`), 400, 'QUOTE_EXPIRED');
    expect(await balance(ctx, usd)).toBe(100_000);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    const tx = (await call(ctx, 'GET', `/transactions/${q.transactionId}`)).body;
    expect(tx).toMatchObject({ status: 'EXPIRED', failureReason: 'QUOTE_EXPIRED' });
    expect(await webhookStatuses(ctx, receiver, q.transactionId)).toEqual(['EXPIRED']);
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`), 400, 'QUOTE_EXPIRED');
    await expectLedgerBalanced(ctx);
  });

  it('an executed quote is left alone by its expiry job', async () => {
    const { usd, iban } = await setup();
    const q = (await quoteFromAccount(ctx, usd, iban, 10_000)).body;
    await call(ctx, 'POST', `/quotes/${q.id}/execute`);
    clock.advance(5 * MIN);
    await drainPayments(ctx);
    expect((await call(ctx, 'GET', `/quotes/${q.id}`)).body.status).toBe('COMPLETED');
  });

  it('re-checks the accounts: deactivated since the quote (400 QUOTE_ACCOUNT_INACTIVE) or a customer deleted since (410); nothing moves', async () => {
    const { customer, usd, iban } = await setup();
    const q = (await quoteFromAccount(ctx, usd, iban, 10_000)).body;
    await call(ctx, 'DELETE', `/customers/external-accounts/${iban}`);
    const inactive = expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`), 400, 'QUOTE_ACCOUNT_INACTIVE');
    expect(inactive.details).toMatchObject({ quoteId: q.id, field: 'destination.accountId', accountId: iban, status: 'INACTIVE' });
    // A pull-funded quote whose bank account was deactivated.
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const iban2 = (await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id })).id as string;
    const pulled = (await quoteFromAccount(ctx, bank.id, iban2, 10_000)).body;
    await call(ctx, 'DELETE', `/customers/external-accounts/${bank.id}`);
    expect(expectError(await call(ctx, 'POST', `/quotes/${pulled.id}/execute`), 400, 'QUOTE_ACCOUNT_INACTIVE').details).toMatchObject({
      field: 'source.accountId',
      accountId: bank.id,
    });
    // The payee (another customer) deleted, then the payer deleted.
    const payee = await fundedCustomer(ctx, ['EUR'], 0);
    const payeeIban = (await externalAccount(ctx, 'IBAN', '000', { customerId: payee.customer.id })).id as string;
    const toPayee = (await quoteFromAccount(ctx, usd, payeeIban, 10_000)).body;
    await call(ctx, 'DELETE', `/customers/${payee.customer.id}`);
    expect(expectError(await call(ctx, 'POST', `/quotes/${toPayee.id}/execute`), 410, 'CUSTOMER_DELETED').details).toMatchObject({
      customerId: payee.customer.id,
    });
    const own = (await quoteFromAccount(ctx, usd, iban2, 10_000)).body;
    expect(await balance(ctx, usd)).toBe(100_000);
    await call(ctx, 'DELETE', `/customers/${customer.id}`);
    expect(expectError(await call(ctx, 'POST', `/quotes/${own.id}/execute`), 410, 'CUSTOMER_DELETED').details).toMatchObject({ customerId: customer.id });
    for (const quote of [q, pulled, toPayee, own]) {
      expect((await call(ctx, 'GET', `/quotes/${quote.id}`)).body.status).toBe('PENDING');
      expect(await webhookStatuses(ctx, receiver, quote.transactionId)).toEqual([]);
    }
    const available = await ctx.container.ledger.balance({ platformId: ctx.platform.platformId, environment: 'SANDBOX' }, usd);
    expect(available).toMatchObject({ posted: 100_000n, available: 100_000n });
  });

  it('a JIT quote cannot be executed (400 QUOTE_REQUIRES_FUNDING)', async () => {
    const { customer, iban } = await setup(0);
    const q = (
      await call(ctx, 'POST', '/quotes', {
        body: {
          source: { customerId: customer.id, currency: 'USD' },
          destination: { accountId: iban },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 1000,
        },
      })
    ).body;
    expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`), 400, 'QUOTE_REQUIRES_FUNDING');
  });

  it('Idempotency-Key replays the first answer of create and execute', async () => {
    const { usd, iban } = await setup();
    const body = { source: { accountId: usd }, destination: { accountId: iban }, lockedCurrencySide: 'SENDING', lockedCurrencyAmount: 1_000 };
    const headers = { 'idempotency-key': `q-${Math.random()}` };
    const a = await call(ctx, 'POST', '/quotes', { body, headers });
    const b = await call(ctx, 'POST', '/quotes', { body, headers });
    expect(b.headers['idempotent-replayed']).toBe('true');
    expect(b.body).toEqual(a.body);
    const key = { 'idempotency-key': `x-${Math.random()}` };
    const e1 = await call(ctx, 'POST', `/quotes/${a.body.id}/execute`, { headers: key });
    const e2 = await call(ctx, 'POST', `/quotes/${a.body.id}/execute`, { headers: key });
    expect([e1.status, e2.status]).toEqual([200, 200]);
    expect(e2.body).toEqual(e1.body);
    expect(await balance(ctx, usd)).toBe(99_000);
    await expectLedgerBalanced(ctx);
  });
});

describe("the platform's currency settings", () => {
  it('a disabled currency and amounts outside min/max are refused', async () => {
    const { usd, iban } = await setup();
    await call(ctx, 'PATCH', '/config', { body: { currencies: [{ currencyCode: 'EUR', enabled: false }] } });
    expect(expectError(await quoteFromAccount(ctx, usd, iban, 1_000), 400, 'CURRENCY_NOT_ENABLED').details).toMatchObject({ currency: 'EUR' });
    await call(ctx, 'PATCH', '/config', {
      body: {
        currencies: [
          { currencyCode: 'EUR', enabled: true },
          { currencyCode: 'USD', minAmount: 500, maxAmount: 5_000 },
        ],
      },
    });
    expect(expectError(await quoteFromAccount(ctx, usd, iban, 6_000), 400, 'AMOUNT_OUTSIDE_LIMITS').details).toMatchObject({
      currency: 'USD',
      maxAmount: 5_000,
    });
    expectError(await quoteFromAccount(ctx, usd, iban, 400), 400, 'AMOUNT_OUTSIDE_LIMITS');
    expect((await quoteFromAccount(ctx, usd, iban, 5_000)).status).toBe(201);
    await call(ctx, 'PATCH', '/config', { body: { currencies: [{ currencyCode: 'USD', minAmount: null, maxAmount: null }] } });
  });
});

describe('GET /quotes', () => {
  it('filters by customer, status and creation time, newest first, paginated', async () => {
    const { customer, usd, iban } = await setup();
    const from = clock.now().toISOString();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await quoteFromAccount(ctx, usd, iban, 1_000 + i)).body.id);
    }
    await call(ctx, 'POST', `/quotes/${ids[1]}/execute`);
    const page1 = await call(ctx, 'GET', '/quotes', { query: { customerId: customer.id, limit: 2 } });
    expect(page1.body).toMatchObject({ totalCount: 5, hasMore: true });
    expect(page1.body.data.map((q: { id: string }) => q.id)).toEqual([ids[4], ids[3]]);
    const page2 = await call(ctx, 'GET', '/quotes', { query: { customerId: customer.id, limit: 2, cursor: page1.body.nextCursor } });
    expect(page2.body.data.map((q: { id: string }) => q.id)).toEqual([ids[2], ids[1]]);
    const completed = await call(ctx, 'GET', '/quotes', { query: { customerId: customer.id, status: 'COMPLETED' } });
    expect(completed.body.data.map((q: { id: string }) => q.id)).toEqual([ids[1]]);
    const pending = await call(ctx, 'GET', '/quotes', { query: { customerId: customer.id, status: 'PENDING', createdAfter: from } });
    expect(pending.body.totalCount).toBe(4);
    const before = await call(ctx, 'GET', '/quotes', { query: { customerId: customer.id, createdBefore: from } });
    expect(before.body.totalCount).toBe(0);
    expectError(await call(ctx, 'GET', '/quotes', { query: { status: 'DONE' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/quotes', { query: { limit: 101 } }), 400, 'INVALID_INPUT');
  });
});

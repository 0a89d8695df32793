/**
 * The spec's sandbox test patterns, suffix by suffix: quote destinations (002–007 and the default),
 * transfer-out (the same table) and transfer-in sources (002–005 and the default). Time is a
 * manual clock; timed outcomes run from the payment worker's durable jobs. Each case checks the
 * API answer, the webhook sequence a verifying receiver saw, the balances and the ledger.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import type { Scope } from '../src/common/scope.js';
import { SANDBOX_LONG_PAYMENT_MS, SANDBOX_PENDING_FAILURE_MS, SANDBOX_RETURN_MS } from '../src/rails/sandbox.js';
import { call, testContext, type TestContext } from './helpers/context.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import {
  balance,
  drainPayments,
  externalAccount,
  fundedCustomer,
  getTransaction,
  quoteFromAccount,
  webhookReceiver,
  webhookStatuses,
} from './helpers/payments.js';
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

interface Case {
  suffix: string;
  /** status in the execute (or transfer) answer */
  first: string;
  /** clock advance after which the timed step has run */
  advanceMs?: number;
  final: string;
  hooks: string[];
  reason: string | null;
  refund?: { status: string; reason: string };
  /** whether the payer has the money back at the end */
  moneyBack: boolean;
}

const PAYOUT_CASES: Case[] = [
  { suffix: '000', first: 'COMPLETED', final: 'COMPLETED', hooks: ['PROCESSING', 'COMPLETED'], reason: null, moneyBack: false },
  {
    suffix: '002',
    first: 'FAILED',
    final: 'FAILED',
    hooks: ['PROCESSING', 'FAILED'],
    reason: 'QUOTE_EXECUTION_FAILED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
    moneyBack: true,
  },
  {
    suffix: '003',
    first: 'PROCESSING',
    advanceMs: SANDBOX_LONG_PAYMENT_MS,
    final: 'COMPLETED',
    hooks: ['PROCESSING', 'COMPLETED'],
    reason: null,
    moneyBack: false,
  },
  {
    suffix: '004',
    first: 'FAILED',
    final: 'FAILED',
    hooks: ['PROCESSING', 'FAILED'],
    reason: 'OFFRAMP_FAILED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
    moneyBack: true,
  },
  {
    suffix: '005',
    first: 'COMPLETED',
    advanceMs: SANDBOX_RETURN_MS,
    final: 'FAILED',
    hooks: ['PROCESSING', 'COMPLETED', 'FAILED'],
    reason: 'COUNTERPARTY_POST_TX_FAILED',
    refund: { status: 'COMPLETED', reason: 'PAYMENT_RETURNED' },
    moneyBack: true,
  },
  {
    suffix: '006',
    first: 'FAILED',
    final: 'FAILED',
    hooks: ['PROCESSING', 'FAILED'],
    reason: 'PAY_REQUEST_FAILED',
    refund: { status: 'COMPLETED', reason: 'TRANSACTION_FAILED' },
    moneyBack: true,
  },
  {
    suffix: '007',
    first: 'FAILED',
    final: 'FAILED',
    hooks: ['PROCESSING', 'FAILED'],
    reason: 'OFFRAMP_FAILED',
    refund: { status: 'FAILED', reason: 'TRANSACTION_FAILED' },
    moneyBack: false,
  },
];

/** Checks the end state of a payment against its case. */
async function expectOutcome(c: Case, transactionId: string, payer: { accountId: string; before: number; sent: number }, type = 'OUTGOING_PAYMENT') {
  if (c.advanceMs !== undefined) {
    // Just before the timed step nothing has happened yet.
    clock.advance(c.advanceMs - 1000);
    await drainPayments(ctx);
    expect((await getTransaction(ctx, transactionId)).status).toBe(c.first);
    clock.advance(1000);
    expect(await drainPayments(ctx)).toBeGreaterThanOrEqual(1);
  }
  const tx = await getTransaction(ctx, transactionId);
  expect(tx.status).toBe(c.final);
  // No failure reason: left out, not null (D11).
  if (c.reason === null) expect(tx).not.toHaveProperty('failureReason');
  else expect(tx.failureReason).toBe(c.reason);
  if (c.refund) {
    expect(tx.refund).toMatchObject(c.refund);
    expect(tx.refund.reference).toMatch(/^CRD[0-9A-Z]{10}$/);
    if (c.refund.status === 'COMPLETED') expect(tx.refund.settledAt).toEqual(expect.any(String));
    else expect(tx.refund).not.toHaveProperty('settledAt');
  } else {
    expect(tx.refund).toBeUndefined();
  }
  if (c.final === 'COMPLETED') expect(tx.settledAt).toBe(tx.updatedAt);
  expect(await webhookStatuses(ctx, receiver, transactionId, type)).toEqual(c.hooks);
  expect(await balance(ctx, payer.accountId)).toBe(c.moneyBack ? payer.before : payer.before - payer.sent);
  await expectLedgerBalanced(ctx);
}

describe('quote destinations (USD internal account → EUR IBAN)', () => {
  for (const c of PAYOUT_CASES) {
    it(`suffix ${c.suffix}: ${c.hooks.join(' → ')}${c.reason ? ` (${c.reason})` : ''}`, async () => {
      const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 50_000);
      const destination = await externalAccount(ctx, 'IBAN', c.suffix, { customerId: customer.id });
      const inFlightBefore = (await ctx.container.ledger.balance(scope, await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'EUR')))!.posted;
      const quote = await quoteFromAccount(ctx, accounts.USD.id, destination.id, 20_000);
      expect(quote.status).toBe(201);
      const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
      expect(executed.status).toBe(200);
      expect(executed.body.status).toBe(c.first);
      if (c.first === 'PROCESSING') {
        // Reserved at once: the balance is down while the payout travels.
        expect(await balance(ctx, accounts.USD.id)).toBe(30_000);
        expect((await getTransaction(ctx, quote.body.transactionId)).settledAt).toBe(new Date(clock.now().getTime() + c.advanceMs!).toISOString());
      }
      await expectOutcome(c, quote.body.transactionId, { accountId: accounts.USD.id, before: 50_000, sent: 20_000 });
      const quoteAfter = await call(ctx, 'GET', `/quotes/${quote.body.id}`);
      expect(quoteAfter.body.status).toBe(c.final);
      const inFlightAfter = (await ctx.container.ledger.balance(scope, await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'EUR')))!.posted;
      // 007: the payout failed and so did its refund: the money is visible in flight.
      const delivered = c.final === 'COMPLETED' || c.suffix === '007' ? BigInt(quote.body.totalReceivingAmount) : 0n;
      expect(inFlightAfter - inFlightBefore).toBe(delivered);
    });
  }
});

describe('transfer-out follows the same destination table (USD internal → US bank account)', () => {
  for (const c of PAYOUT_CASES) {
    it(`suffix ${c.suffix}: ${c.hooks.join(' → ')}`, async () => {
      const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 9_000);
      const destination = await externalAccount(ctx, 'US_ACCOUNT', c.suffix, { customerId: customer.id });
      const res = await call(ctx, 'POST', '/transfer-out', {
        body: { source: { accountId: accounts.USD.id }, destination: { accountId: destination.id }, amount: 2_500 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'OUTGOING', status: c.first, exchangeRate: 1, fees: 0 });
      expect(res.body).not.toHaveProperty('quoteId');
      expect(res.body.sentAmount.amount).toBe(2_500);
      expect(res.body.receivedAmount.amount).toBe(2_500);
      await expectOutcome(c, res.body.id, { accountId: accounts.USD.id, before: 9_000, sent: 2_500 });
    });
  }
});

const PULL_CASES: Case[] = [
  { suffix: '000', first: 'COMPLETED', final: 'COMPLETED', hooks: ['PROCESSING', 'COMPLETED'], reason: null, moneyBack: false },
  { suffix: '002', first: 'FAILED', final: 'FAILED', hooks: ['PROCESSING', 'FAILED'], reason: 'PAY_REQUEST_FAILED', moneyBack: true },
  { suffix: '003', first: 'FAILED', final: 'FAILED', hooks: ['PROCESSING', 'FAILED'], reason: 'PAY_REQUEST_FAILED', moneyBack: true },
  { suffix: '004', first: 'FAILED', final: 'FAILED', hooks: ['PROCESSING', 'FAILED'], reason: 'PAY_REQUEST_FAILED', moneyBack: true },
  {
    suffix: '005',
    first: 'PROCESSING',
    advanceMs: SANDBOX_PENDING_FAILURE_MS,
    final: 'FAILED',
    hooks: ['PROCESSING', 'FAILED'],
    reason: 'PAY_REQUEST_FAILED',
    moneyBack: true,
  },
];

describe('transfer-in sources (US bank account, ACH pull → USD internal account)', () => {
  for (const c of PULL_CASES) {
    it(`suffix ${c.suffix}: ${c.hooks.join(' → ')}${c.reason ? ` (${c.reason})` : ''}`, async () => {
      const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 1_000);
      const source = await externalAccount(ctx, 'US_ACCOUNT', c.suffix, { customerId: customer.id });
      const res = await call(ctx, 'POST', '/transfer-in', {
        body: { source: { accountId: source.id }, destination: { accountId: accounts.USD.id }, amount: 4_000 },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ type: 'INCOMING', status: c.first, customerId: customer.id });
      if (c.first === 'PROCESSING') expect(await balance(ctx, accounts.USD.id)).toBe(1_000); // not spendable before it arrives
      // For a pull, "money back" means nothing arrived: the balance ends where it began.
      await expectOutcome(
        { ...c, moneyBack: !c.moneyBack },
        res.body.id,
        { accountId: accounts.USD.id, before: 1_000 + 4_000, sent: 4_000 },
        'INCOMING_PAYMENT',
      );
    });
  }
});

describe('quotes funded by pulling from an external account', () => {
  it('convert instantly and apply the destination pattern (000 completes, 004 fails)', async () => {
    for (const [suffix, status] of [
      ['000', 'COMPLETED'],
      ['004', 'FAILED'],
    ] as const) {
      const { customer } = await fundedCustomer(ctx, ['USD'], 0);
      const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
      const destination = await externalAccount(ctx, 'CLABE', suffix, { customerId: customer.id });
      const quote = await quoteFromAccount(ctx, bank.id, destination.id, 10_000);
      expect(quote.status).toBe(201);
      expect(quote.body.source).toMatchObject({ sourceType: 'ACCOUNT', accountId: bank.id, customerId: customer.id, currency: 'USD' });
      const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`);
      expect(executed.body.status).toBe(status);
      expect(await webhookStatuses(ctx, receiver, quote.body.transactionId)).toEqual(['PROCESSING', status]);
    }
    await expectLedgerBalanced(ctx);
  });

  it('immediatelyExecute creates and executes in one call, from an internal account or by a pull', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const destination = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    const quote = await quoteFromAccount(ctx, accounts.USD.id, destination.id, 10_000, { immediatelyExecute: true });
    expect(quote.status).toBe(201);
    expect(quote.body.status).toBe('COMPLETED');
    expect(await balance(ctx, accounts.USD.id)).toBe(0);
    expect(await webhookStatuses(ctx, receiver, quote.body.transactionId)).toEqual(['PROCESSING', 'COMPLETED']);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const failing = await externalAccount(ctx, 'IBAN', '006', { customerId: customer.id });
    const pulled = await quoteFromAccount(ctx, bank.id, failing.id, 5_000, { immediatelyExecute: true });
    expect(pulled.status).toBe(201);
    expect(pulled.body).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect(await webhookStatuses(ctx, receiver, pulled.body.transactionId)).toEqual(['PROCESSING', 'FAILED']);
    expect((await getTransaction(ctx, pulled.body.transactionId)).refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
  });
});

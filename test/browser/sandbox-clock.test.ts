/**
 * The sandbox clock on Sandbox tools and the test helpers on a transaction's page: a 003 payout
 * completed by advancing the clock 6 minutes, the clock frozen and unfrozen, and a payout
 * completed then returned with the helpers. Real time plays no part: nothing waits for a delay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { sandboxIdentifier } from '../../src/identifiers/sandbox-fixtures.js';
import { signIn, startHarness, watchProblems, type Harness } from './harness.js';

describe('the sandbox clock and test helpers in the dashboard', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let customerId: string;
  let sourceId: string;

  async function must(method: string, path: string, body?: unknown) {
    const res = await h.api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** A $20.00 payout to a new CLABE ending in 003 (6 minutes in PROCESSING), executed at once. */
  async function payout003(): Promise<string> {
    const clabe = sandboxIdentifier('CLABE', '003');
    const account = await must('POST', '/customers/external-accounts', {
      customerId,
      currency: clabe.currency,
      accountInfo: {
        ...clabe.accountInfo,
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bea Martínez', address: { line1: 'Av. Reforma 222', postalCode: '06600', country: 'MX' } },
      },
    });
    const quote = await must('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: sourceId },
      destination: { destinationType: 'ACCOUNT', accountId: account.id },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 2_000,
      immediatelyExecute: true,
    });
    expect(quote.status).not.toBe('EXPIRED');
    const tx = await must('GET', `/transactions/${quote.transactionId}`);
    expect(tx.status).toBe('PROCESSING');
    return quote.transactionId;
  }

  beforeAll(async () => {
    h = await startHarness({ SANDBOX_TIME_SCALE: '1' });
    const customer = await must('POST', '/customers', {
      platformCustomerId: 'clock-1',
      customerType: 'INDIVIDUAL',
      fullName: 'Bea Martínez',
      currencies: ['USD'],
    });
    customerId = customer.id;
    const accounts = await must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(customerId)}`);
    sourceId = accounts.data[0].id;
    await must('POST', `/sandbox/internal-accounts/${encodeURIComponent(sourceId)}/fund`, { amount: 100_000 });
    context = await h.context();
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    problems = watchProblems(page);
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  it('advances the clock 6 minutes from Sandbox tools: the 003 payout completes; freezes and unfreezes it', async () => {
    const id = await payout003();
    await page.goto('/dashboard/sandbox');
    const card = page.getByTestId('sandbox-clock');
    await card.getByTestId('clock-now').waitFor();
    const before = Date.parse((await card.getByTestId('clock-now').textContent())!);
    expect(await card.getByTestId('clock-state').textContent()).toBe('Running');
    // 6 minutes is the jump offered first.
    await card.getByRole('button', { name: 'Advance' }).click();
    await expect.poll(async () => card.getByTestId('clock-steps').textContent()).toMatch(/timed steps? ran/);
    await expect.poll(async () => Date.parse((await card.getByTestId('clock-now').textContent())!) - before).toBeGreaterThanOrEqual(360_000);
    const tx = await must('GET', `/transactions/${id}`);
    expect(tx.status).toBe('COMPLETED');

    await card.getByRole('button', { name: 'Freeze' }).click();
    await expect.poll(() => card.getByTestId('clock-state').textContent()).toBe('Frozen');
    expect((await must('GET', '/sandbox/clock')).frozen).toBe(true);
    await card.getByRole('button', { name: 'Unfreeze' }).click();
    await expect.poll(() => card.getByTestId('clock-state').textContent()).toBe('Running');
    expect(problems).toEqual([]);
  });

  it('completes a payout, then returns it, with the helpers of its page', async () => {
    const id = await payout003();
    await page.goto(`/dashboard/transactions/${encodeURIComponent(id)}`);
    const helpers = page.getByTestId('sandbox-helpers');
    await helpers.waitFor();
    await helpers.getByRole('button', { name: 'Complete now' }).click();
    await expect.poll(() => page.getByTestId('transaction-status').textContent()).toBe('COMPLETED');
    await helpers.getByRole('button', { name: 'Return the payout' }).click();
    await expect.poll(() => page.getByTestId('transaction-status').textContent()).toBe('FAILED');
    const tx = await must('GET', `/transactions/${id}`);
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'COUNTERPARTY_POST_TX_FAILED', refund: { reason: 'PAYMENT_RETURNED' } });
    // A failed payment has no next step: no helpers.
    expect(await helpers.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});

/**
 * Payments through the dashboard, as a user follows them: the integrator's backend creates a
 * customer, an external account and a JIT quote through the API; the user funds an account and
 * simulates payments from Sandbox tools, then follows each one in Transactions to its end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { sandboxIdentifier } from '../../src/identifiers/sandbox-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { signIn, startHarness, watchProblems, type Harness } from './harness.js';

/** A link of the side navigation (Sandbox tools carries a "sandbox" badge in its name). */
const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('link', { name: name === 'Sandbox tools' ? /^Sandbox tools/ : name, exact: true });
/** The text of a labelled field of the transaction page ("Sent", "Exchange rate", …). */
const field = (page: Page, label: string) => page.getByTestId(`field-${label}`);
const text = async (l: Locator) => (await l.textContent())?.replace(/\s+/g, ' ').trim();

describe('payments in the dashboard', () => {
  let h: Harness;
  let receiver: WebhookReceiver;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let bea: { id: string; umaAddress: string };
  let quote: any;

  async function must(method: string, path: string, body?: unknown) {
    const res = await h.api(method, path, body);
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  beforeAll(async () => {
    // Sandbox delays 36 times shorter: the 6-minute payment (suffix 003) takes 10 s.
    h = await startHarness({ SANDBOX_TIME_SCALE: '36' });
    receiver = await startWebhookReceiver();
    // The integrator's backend: webhook endpoint, a customer with a UMA address, where she pays to.
    const config = await must('PATCH', '/config', { webhookEndpoint: `${receiver.url}/corridor` });
    bea = await must('POST', '/customers', {
      platformCustomerId: 'bea-1',
      customerType: 'INDIVIDUAL',
      fullName: 'Bea Martínez',
      currencies: ['USD', 'EUR'],
      umaAddress: `$bea@${config.umaDomain}`,
    });
    const clabe = sandboxIdentifier('CLABE', '000');
    const account = await must('POST', '/customers/external-accounts', {
      customerId: bea.id,
      currency: clabe.currency,
      accountInfo: {
        ...clabe.accountInfo,
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bea Martínez', address: { line1: 'Av. Reforma 222', postalCode: '06600', country: 'MX' } },
      },
    });
    // A JIT quote: $250.00 from Bea's bank, paid out in pesos to her CLABE.
    quote = await must('POST', '/quotes', {
      source: { sourceType: 'REALTIME_FUNDING', customerId: bea.id, currency: 'USD' },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: 'MXN' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: 25_000,
      description: 'rent for May',
    });
    context = await h.context();
    context.setDefaultTimeout(10_000);
    page = await context.newPage();
    problems = watchProblems(page);
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await h?.close();
  });

  it('funds an internal account from Sandbox tools', async () => {
    await nav(page, 'Sandbox tools').click();
    await page.getByRole('heading', { name: 'Sandbox tools' }).waitFor();
    // Bea's USD account (the table also lists her EUR account and the platform's accounts).
    const usd = page.locator('[data-testid="account-row"][data-currency="USD"]').filter({ hasText: bea.id.slice(0, 17) });
    expect(await usd.getByTestId('account-balance').textContent()).toBe('$0.00');
    await usd.getByRole('button', { name: 'Fund USD account' }).click();
    await page.getByLabel(/^Amount in US Dollar/).fill('500');
    await page.getByRole('button', { name: 'Add funds' }).click();
    await expect.poll(() => page.getByTestId('funded-balance').textContent()).toBe('$500.00');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => usd.getByTestId('account-balance').textContent()).toBe('$500.00');
  });

  it('simulates the JIT payment of a quote and follows it to COMPLETED, with timeline, amounts, rate, fees and webhooks', async () => {
    const jit = page.getByTestId('simulation').filter({ hasText: 'Simulate a JIT payment' });
    await jit.getByLabel(/^Quote id or payment reference/).fill(quote.id);
    await jit.getByLabel(/^Currency/).fill('usd');
    await jit.getByRole('button', { name: 'Simulate' }).click();
    const result = jit.getByTestId('simulation-result');
    await result.waitFor();
    expect(await text(result)).toContain('COMPLETED');
    expect(await text(result)).toContain('$250.00');

    // The transaction is in the list, newest first.
    await nav(page, 'Transactions').click();
    const row = page.getByTestId('transaction-row').first();
    await row.waitFor();
    expect(await text(row)).toMatch(/^OUTGOING\s?COMPLETED\s?\$250\.00\s?MX\$[\d,]+\.\d\d\s?bea-1/);

    // Open it.
    await row.getByText('OUTGOING').click();
    await page.getByRole('heading', { name: 'Outgoing payment' }).waitFor();
    expect(page.url()).toContain(encodeURIComponent(quote.transactionId));
    expect(await page.getByTestId('transaction-status').textContent()).toBe('COMPLETED');
    const mxn = (minor: number) => `MX$${(minor / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(await text(field(page, 'Sent'))).toBe('$250.00');
    expect(await text(field(page, 'Received'))).toBe(mxn(quote.totalReceivingAmount));
    expect(quote.feesIncluded).toBeGreaterThan(0);
    expect(await text(field(page, 'Fees'))).toBe(`$${(quote.feesIncluded / 100).toFixed(2)}`);
    // exchangeRate is USD per MXN; the page shows it both ways round.
    const rate = /^1 MXN = (0\.\d+) USD ?1 USD = ([\d.]+) MXN$/.exec((await text(field(page, 'Exchange rate')))!);
    expect(rate, 'the exchange rate').not.toBeNull();
    expect(Number(rate![1])).toBeCloseTo(quote.exchangeRate, 6);
    expect(Number(rate![2])).toBeCloseTo(1 / quote.exchangeRate, 3);
    expect(await text(field(page, 'From'))).toBe("the payer's bank, with the payment instructions");
    expect(await text(field(page, 'Counterparty'))).toContain('Bea Martínez');
    expect(await text(field(page, 'Reference'))).toBe(quote.paymentInstructions[0].accountOrWalletInfo.reference);
    expect(await text(field(page, 'Description'))).toBe('rent for May');

    // The status timeline: created PENDING (waiting for the money), then what the webhooks reported.
    await expect.poll(() => page.getByTestId('timeline-step').allTextContents()).toHaveLength(3);
    const steps = await page.getByTestId('timeline-step').locator('.mantine-Timeline-itemTitle').allTextContents();
    expect(steps).toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);

    // Its webhook deliveries, both delivered to the endpoint.
    const deliveries = page.getByTestId('delivery-row');
    await expect.poll(() => deliveries.count()).toBe(2);
    for (const d of await deliveries.all()) {
      expect(await text(d)).toMatch(/^OUTGOING_PAYMENT\s?DELIVERED\s?1\s?200/);
    }
    const sent = receiver.requests.filter((r) => r.event?.transaction?.id === quote.transactionId).map((r) => r.event.transaction.status);
    expect(sent).toEqual(['PROCESSING', 'COMPLETED']);
    // Newest first: the COMPLETED event is on top.
    await deliveries.first().getByRole('button', { name: 'Details' }).click();
    expect(await page.getByTestId('delivery-event').textContent()).toContain('"status": "COMPLETED"');
  });

  it('refuses a second payment of the same quote and says why', async () => {
    await nav(page, 'Sandbox tools').click();
    const jit = page.getByTestId('simulation').filter({ hasText: 'Simulate a JIT payment' });
    await jit.getByLabel(/^Quote id or payment reference/).fill(quote.paymentInstructions[0].accountOrWalletInfo.reference);
    await jit.getByLabel(/^Currency/).fill('USD');
    await jit.getByRole('button', { name: 'Simulate' }).click();
    await expect.poll(() => jit.getByRole('alert').textContent()).toMatch(/already funded/);
  });

  it("simulates an incoming payment to a customer's UMA address and shows the INCOMING transaction", async () => {
    const incoming = page.getByTestId('simulation').filter({ hasText: 'Simulate an incoming payment' });
    await incoming.getByLabel(/^Customer's UMA address/).fill(bea.umaAddress);
    await incoming.getByLabel(/^Currency/).fill('EUR');
    await incoming.getByLabel(/^Amount/).fill('4250');
    await incoming.getByLabel(/^Sender's full name/).fill('Sam Sender');
    await incoming.getByRole('button', { name: 'Simulate' }).click();
    const result = incoming.getByTestId('simulation-result');
    await result.waitFor();
    expect(await text(result)).toContain('COMPLETED');
    expect(await text(result)).toContain('€42.50');

    await result.getByRole('link', { name: 'Follow it' }).click();
    await page.getByRole('heading', { name: 'Incoming payment' }).waitFor();
    expect(await page.getByTestId('transaction-status').textContent()).toBe('COMPLETED');
    expect(await text(field(page, 'Received'))).toBe('€42.50');
    expect(await text(field(page, 'Customer'))).toBe('bea-1');
    expect(await text(field(page, 'Counterparty'))).toBe('Sam Sender');
    await expect.poll(() => page.getByTestId('delivery-row').count()).toBe(1);
    expect(await text(page.getByTestId('delivery-row'))).toMatch(/^INCOMING_PAYMENT\s?DELIVERED/);

    await nav(page, 'Transactions').click();
    await page.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'INCOMING' }).click();
    await expect.poll(() => page.getByTestId('transaction-row').count()).toBe(1);
    expect(await text(page.getByTestId('transaction-row'))).toMatch(/^INCOMING\s?COMPLETED.*€42\.50\s?bea-1/);

    // The money landed in Bea's EUR account.
    await nav(page, 'Customers').click();
    await page.getByRole('link', { name: 'Bea Martínez' }).click();
    const eur = page.getByTestId('account-row').filter({ hasText: 'EUR' });
    await expect.poll(() => eur.getByTestId('account-balance').textContent()).toBe('€42.50');
  });

  it('charts the volume on the overview', async () => {
    await nav(page, 'Overview').click();
    await page.getByText('2 payments in the last 30 days').waitFor();
    await page.getByRole('combobox', { name: 'Volume currency' }).click();
    await page.getByRole('option', { name: 'USD' }).click();
    await expect.poll(() => page.getByTestId('volume-total').textContent()).toBe('$250.00 sent');
    await page.getByRole('combobox', { name: 'Volume currency' }).click();
    await page.getByRole('option', { name: 'EUR' }).click();
    await expect.poll(() => page.getByTestId('volume-total').textContent()).toBe('€42.50 sent');
  });

  it('filters transactions as the API does: by your customer id and by creation day', async () => {
    await nav(page, 'Transactions').click();
    const rows = page.getByTestId('transaction-row');
    await expect.poll(() => rows.count()).toBe(2);
    // The customer filter takes a Customer id or the platform's own id for the customer.
    await page.getByLabel('Customer').fill('bea-1');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Customer').fill('nobody-here');
    await page.getByText('No transaction matches these filters').waitFor();
    await page.getByLabel('Customer').fill(bea.id);
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Customer').fill('');
    const day = (offset: number) =>
      page.evaluate((o) => {
        const d = new Date(Date.now() + o * 86_400_000);
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      }, offset);
    await page.getByLabel('Created from').fill(await day(1));
    await page.getByText('No transaction matches these filters').waitFor();
    await page.getByLabel('Created from').fill(await day(0));
    await page.getByLabel('Created to').fill(await day(0));
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByLabel('Created to').fill(await day(-1));
    await page.getByText('No transaction matches these filters').waitFor();
    await page.getByLabel('Created to').fill('');
    await page.getByLabel('Created from').fill('');
    await expect.poll(() => rows.count()).toBe(2);
  });

  /** Bea pays `amount` US cents from her USD balance to a new CLABE account ending in the sandbox suffix, in one call. */
  async function payBeaByClabe(suffix: string, amount: number) {
    const usd = (await must('GET', `/customers/internal-accounts?customerId=${encodeURIComponent(bea.id)}&currency=USD`)).data[0];
    const clabe = sandboxIdentifier('CLABE', suffix);
    const account = await must('POST', '/customers/external-accounts', {
      customerId: bea.id,
      currency: clabe.currency,
      accountInfo: {
        ...clabe.accountInfo,
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bea Martínez', address: { line1: 'Av. Reforma 222', postalCode: '06600', country: 'MX' } },
      },
    });
    return must('POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: usd.id },
      destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: 'MXN' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      immediatelyExecute: true,
    });
  }

  it('shows the refund of a payment whose payout failed', async () => {
    const failed = await payBeaByClabe('004', 8_000);
    await page.goto(`/dashboard/transactions/${encodeURIComponent(failed.transactionId)}`);
    await page.getByRole('heading', { name: 'Outgoing payment' }).waitFor();
    expect(await page.getByTestId('transaction-status').textContent()).toBe('FAILED');
    await page.getByText('OFFRAMP_FAILED').waitFor();
    const refund = page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: 'Refund' }) });
    expect(await text(refund.getByTestId('field-Status'))).toBe('COMPLETED');
    expect(await text(refund.getByTestId('field-Reason'))).toBe('TRANSACTION_FAILED');
    expect(await text(refund.getByTestId('field-Reference'))).toMatch(/\S/);
    await expect
      .poll(() => page.getByTestId('timeline-step').locator('.mantine-Timeline-itemTitle').allTextContents())
      .toEqual(['PENDING', 'PROCESSING', 'FAILED']);
  });

  it('follows a payment still under way: the page updates itself until COMPLETED', { timeout: 60_000 }, async () => {
    const paying = await payBeaByClabe('003', 10_000);
    await page.goto(`/dashboard/transactions/${encodeURIComponent(paying.transactionId)}`);
    await page.getByRole('heading', { name: 'Outgoing payment' }).waitFor();
    expect(await page.getByTestId('transaction-status').textContent()).toBe('PROCESSING');
    // No reload from here on: the page itself goes to COMPLETED, timeline and webhooks included.
    await expect.poll(() => page.getByTestId('transaction-status').textContent(), { timeout: 25_000, interval: 500 }).toBe('COMPLETED');
    await expect
      .poll(() => page.getByTestId('timeline-step').locator('.mantine-Timeline-itemTitle').allTextContents(), { timeout: 10_000 })
      .toEqual(['PENDING', 'PROCESSING', 'COMPLETED']);
    await expect.poll(() => page.getByTestId('delivery-row').count(), { timeout: 10_000 }).toBe(2);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});

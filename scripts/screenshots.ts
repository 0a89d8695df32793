// Screenshots of the dashboard's main pages for the README: npx tsx scripts/screenshots.ts [name…]
// Starts the real server on a fresh SQLite data directory, fills it through the API as an
// integrator would, and photographs each page in Debian's Chromium (1280 px wide, and one phone).
// With names (customers, phone-overview, …) only those files are written; the walk is the same.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sandboxIdentifier } from '../src/identifiers/sandbox-fixtures.js';
import { ensureChromium } from './ensure-chromium.js';
import { startWebhookReceiver } from '../test/helpers/webhook-receiver.js';
import { signIn, startHarness, type Harness } from '../test/browser/harness.js';

const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

async function must(h: Harness, method: string, apiPath: string, body?: unknown) {
  const res = await h.api(method, apiPath, body);
  if (res.status >= 300) throw new Error(`${method} ${apiPath} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** An external account of a customer, from the published sandbox identifier ending in `suffix`. */
async function externalAccount(h: Harness, customerId: string, accountType: string, suffix: string, fullName: string) {
  const fixture = sandboxIdentifier(accountType, suffix);
  return must(h, 'POST', '/customers/external-accounts', {
    customerId,
    currency: fixture.currency,
    accountInfo: {
      ...fixture.accountInfo,
      beneficiary: {
        beneficiaryType: 'INDIVIDUAL',
        fullName,
        address: { line1: 'Av. Reforma 222', city: 'Ciudad de México', postalCode: '06600', country: 'MX' },
      },
    },
  });
}

/** Real sandbox payments, made as an integrator's backend makes them; returns the JIT one. */
async function payments(h: Harness, ada: { id: string }, grace: { id: string }) {
  const accounts = await must(h, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(ada.id)}`);
  const adaUsd = accounts.data.find((a: any) => a.balance.currency.code === 'USD');
  const toMexico = await externalAccount(h, ada.id, 'CLABE', '000', 'Ada Lovelace');
  const toMexicoFails = await externalAccount(h, ada.id, 'CLABE', '004', 'Ada Lovelace');
  const toUs = await externalAccount(h, ada.id, 'US_ACCOUNT', '000', 'Ada Lovelace');
  const graceMexico = await externalAccount(h, grace.id, 'CLABE', '000', 'Grace Hopper');
  const prefunded = (accountId: string, amount: number, description: string) =>
    must(h, 'POST', '/quotes', {
      source: { sourceType: 'ACCOUNT', accountId: adaUsd.id },
      destination: { destinationType: 'ACCOUNT', accountId, currency: 'MXN' },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      description,
      immediatelyExecute: true,
    });
  await prefunded(toMexico.id, 120_000, 'tuition, spring term');
  await prefunded(toMexicoFails.id, 8_000, 'gift'); // 004: the counterparty fails it; the money comes back
  await must(h, 'POST', '/transfer-out', { source: { accountId: adaUsd.id }, destination: { accountId: toUs.id }, amount: 20_000, description: 'to savings' });
  await must(h, 'POST', '/sandbox/uma/receive', {
    receiverUmaAddress: (await must(h, 'GET', `/customers/${encodeURIComponent(ada.id)}`)).umaAddress,
    currencyCode: 'EUR',
    currencyAmount: 7_500,
    senderUmaAddress: '$sam@wallet.example.com',
    senderCustomerInfo: { FULL_NAME: 'Sam Sender' },
    description: 'dinner',
  });
  const jit = await must(h, 'POST', '/quotes', {
    source: { sourceType: 'REALTIME_FUNDING', customerId: grace.id, currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: graceMexico.id, currency: 'MXN' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 35_000,
    description: 'rent for May',
  });
  await must(h, 'POST', '/sandbox/send', { quoteId: jit.id, currencyCode: 'USD' });
  // One more JIT quote, left for the Sandbox tools screenshot to pay in the browser.
  const waiting = await must(h, 'POST', '/quotes', {
    source: { sourceType: 'REALTIME_FUNDING', customerId: grace.id, currency: 'USD' },
    destination: { destinationType: 'ACCOUNT', accountId: graceMexico.id, currency: 'MXN' },
    lockedCurrencySide: 'SENDING',
    lockedCurrencyAmount: 5_000,
  });
  return { jit, waiting };
}

async function seed(h: Harness, receiverUrl: string) {
  // The webhook endpoint first, so every payment below reports its statuses to it.
  const config = await must(h, 'PATCH', '/config', { webhookEndpoint: `${receiverUrl}/corridor/webhooks` });
  const ada = await must(h, 'POST', '/customers', {
    platformCustomerId: 'cust-1001',
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    currencies: ['USD', 'EUR'],
    umaAddress: `$ada@${config.umaDomain}`,
    address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
  });
  const grace = await must(h, 'POST', '/customers', {
    platformCustomerId: 'cust-1002',
    customerType: 'INDIVIDUAL',
    fullName: 'Grace Hopper',
    currencies: ['USD'],
  });
  const acme = await must(h, 'POST', '/customers', {
    platformCustomerId: 'biz-2001',
    customerType: 'BUSINESS',
    currencies: ['USD', 'MXN'],
    businessInfo: { legalName: 'Acme Exports S.A. de C.V.', registrationNumber: 'AEX-991204', incorporationCountry: 'MX', website: 'https://acme.example' },
  });
  await must(h, 'POST', '/beneficial-owners', {
    customerId: acme.id,
    roles: ['UBO', 'DIRECTOR'],
    ownershipPercentage: 60,
    personalInfo: {
      firstName: 'María',
      lastName: 'González',
      birthDate: '1981-04-02',
      nationality: 'MX',
      address: { line1: 'Av. Reforma 222', city: 'Ciudad de México', postalCode: '06600', country: 'MX' },
      idType: 'PASSPORT',
      identifier: 'G12345678',
      countryOfIssuance: 'MX',
    },
  });
  const accounts = await must(h, 'GET', '/customers/internal-accounts?limit=100');
  const amounts: Record<string, number> = { USD: 1_250_050, EUR: 98_000, MXN: 4_500_000 };
  for (const a of accounts.data) {
    if (a.customerId === ada.id || a.customerId === acme.id)
      await must(h, 'POST', `/sandbox/internal-accounts/${a.id}/fund`, { amount: amounts[a.balance.currency.code] ?? 10_000 });
  }
  await must(h, 'POST', '/tokens', { name: 'payouts-service', permissions: ['VIEW', 'TRANSACT'] });
  await must(h, 'POST', '/tokens', { name: 'reporting (read only)', permissions: ['VIEW'] });
  await must(h, 'POST', '/webhooks/test', {});
  const paid = await payments(h, ada, grace);
  return { ada, acme, ...paid };
}

const only = process.argv.slice(2);

async function shot(page: Page, name: string) {
  if (only.length > 0 && !only.includes(name)) return;
  await page.waitForLoadState('networkidle');
  await page.mouse.move(0, 0); // no hover tooltip left over from the last click
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: false });
  process.stdout.write(`docs/screenshots/${name}.png\n`);
}

ensureChromium();
fs.mkdirSync(OUT, { recursive: true });
const h = await startHarness();
const receiver = await startWebhookReceiver();
try {
  const { acme, jit, waiting } = await seed(h, receiver.url);
  const context = await h.context({ width: 1280, height: 860 });
  const page = await context.newPage();

  await page.goto('/dashboard/');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await shot(page, 'sign-in');
  await signIn(page);
  await page.getByTestId('balance-card').first().waitFor();
  await page.getByTestId('volume-total').waitFor();
  await shot(page, 'overview');

  await page.goto('/dashboard/customers');
  await page.getByTestId('customers-table').waitFor();
  await shot(page, 'customers');

  await page.goto(`/dashboard/customers/${encodeURIComponent(acme.id)}`);
  await page.getByText('María González').waitFor();
  await shot(page, 'customer-detail');

  await page.goto('/dashboard/tokens');
  await page.getByTestId('tokens-table').waitFor();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByLabel('Name').fill('checkout-backend');
  await page.getByLabel(/^TRANSACT/).check();
  await page.getByRole('dialog').getByRole('button', { name: 'Create token' }).click();
  await page.getByTestId('new-client-secret').waitFor();
  await shot(page, 'tokens-secret-once');
  await page.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('token-row').first().waitFor();
  await shot(page, 'tokens');

  await page.goto('/dashboard/webhooks');
  await page.getByTestId('delivery-row').first().waitFor();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await page.getByTestId('test-result').waitFor();
  await shot(page, 'webhooks');

  await page.goto('/dashboard/transactions');
  await page.getByTestId('transaction-row').first().waitFor();
  await shot(page, 'transactions');

  await page.goto(`/dashboard/transactions/${encodeURIComponent(jit.transactionId)}`);
  await page.getByTestId('delivery-row').nth(1).waitFor();
  await shot(page, 'transaction-detail');

  await page.goto('/dashboard/sandbox');
  await page.getByTestId('accounts-table').first().waitFor();
  const simulate = page.getByTestId('simulation').filter({ hasText: 'Simulate a JIT payment' });
  await simulate.getByLabel(/^Quote id or payment reference/).fill(waiting.paymentInstructions[0].accountOrWalletInfo.reference);
  await simulate.getByLabel(/^Currency/).fill('USD');
  await simulate.getByRole('button', { name: 'Simulate' }).click();
  await simulate.getByTestId('simulation-result').waitFor();
  await simulate.scrollIntoViewIfNeeded();
  await shot(page, 'sandbox-tools');
  await context.close();

  const phone = await h.context({ width: 390, height: 844 });
  const mobile = await phone.newPage();
  await signIn(mobile);
  await mobile.getByTestId('balance-card').first().waitFor();
  await shot(mobile, 'phone-overview');
  await phone.close();
} finally {
  await receiver.close();
  await h.close();
}

// Screenshots of the dashboard's main pages for the README: npx tsx scripts/screenshots.ts
// Starts the real server on a fresh SQLite data directory, fills it through the API as an
// integrator would, and photographs each page in Debian's Chromium (1280 px wide, and one phone).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ensureChromium } from './ensure-chromium.js';
import { startWebhookReceiver } from '../test/helpers/webhook-receiver.js';
import { signIn, startHarness, type Harness } from '../test/browser/harness.js';

const OUT = path.resolve(import.meta.dirname, '../docs/screenshots');

async function must(h: Harness, method: string, apiPath: string, body?: unknown) {
  const res = await h.api(method, apiPath, body);
  if (res.status >= 300) throw new Error(`${method} ${apiPath} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function seed(h: Harness, receiverUrl: string) {
  const ada = await must(h, 'POST', '/customers', {
    platformCustomerId: 'cust-1001',
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    birthDate: '1990-12-10',
    nationality: 'GB',
    currencies: ['USD', 'EUR'],
    address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
  });
  await must(h, 'POST', '/customers', { platformCustomerId: 'cust-1002', customerType: 'INDIVIDUAL', fullName: 'Grace Hopper', currencies: ['USD'] });
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
    if (a.customerId === ada.id || a.customerId === acme.id) await must(h, 'POST', `/sandbox/internal-accounts/${a.id}/fund`, { amount: amounts[a.balance.currency.code] ?? 10_000 });
  }
  await must(h, 'POST', '/tokens', { name: 'payouts-service', permissions: ['VIEW', 'TRANSACT'] });
  await must(h, 'POST', '/tokens', { name: 'reporting (read only)', permissions: ['VIEW'] });
  await must(h, 'PATCH', '/config', { webhookEndpoint: `${receiverUrl}/corridor/webhooks` });
  await must(h, 'POST', '/webhooks/test', {});
  return { ada, acme };
}

async function shot(page: Page, name: string) {
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUT, `${name}.png`), fullPage: false });
  process.stdout.write(`docs/screenshots/${name}.png\n`);
}

ensureChromium();
fs.mkdirSync(OUT, { recursive: true });
const h = await startHarness();
const receiver = await startWebhookReceiver();
try {
  const { acme } = await seed(h, receiver.url);
  const context = await h.context({ width: 1280, height: 860 });
  const page = await context.newPage();

  await page.goto('/dashboard/');
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await shot(page, 'sign-in');
  await signIn(page);
  await page.getByTestId('balance-card').first().waitFor();
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
  await page.getByRole('heading', { name: 'Transactions' }).waitFor();
  await shot(page, 'transactions');

  await page.goto('/dashboard/sandbox');
  await page.getByTestId('accounts-table').first().waitFor();
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { cli } from '../helpers/server.js';
import { sandboxIdentifier } from '../../src/identifiers/sandbox-fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { ADMIN_EMAIL, API, signIn, startHarness, watchProblems, type Harness } from './harness.js';

/** A link of the side navigation. */
const nav = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

describe('the dashboard in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await startHarness();
    receiver = await startWebhookReceiver();
    context = await h.context();
    page = await context.newPage();
    problems = watchProblems(page);
  });

  afterAll(async () => {
    await context?.close();
    await receiver?.close();
    await h?.close();
  });

  it('serves the pages with a strict Content-Security-Policy and no inline script', async () => {
    const res = await fetch(`${h.baseUrl}/dashboard/customers`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    const html = await res.text();
    expect(html).toContain(`content="${nonce}"`);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    const asset = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)![1];
    const js = await fetch(`${h.baseUrl}${asset}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toContain('immutable');
  });

  // Six argon2 checks and a CLI run: a loaded machine needs more than the default 30 s.
  it('refuses a wrong password, then locks the account out after repeated failures', { timeout: 90_000 }, async () => {
    const made = cli(['user', 'create', '--platform', h.credentials.platformId, '--email', 'dev@example.com', '--role', 'DEVELOPER', '--json'], h.env);
    expect(made.status, made.stderr).toBe(0);
    const dev = JSON.parse(made.stdout);
    expect(dev).toMatchObject({ email: 'dev@example.com', role: 'DEVELOPER' });
    expect(dev.password.length).toBeGreaterThanOrEqual(24);

    const other = await h.context();
    const p = await other.newPage();
    await signIn(p, 'dev@example.com', 'not-the-password');
    await expect.poll(() => p.getByTestId('sign-in-error').textContent()).toContain('Wrong email or password');
    for (let i = 0; i < 4; i++) {
      await p.getByLabel(/^Password/).fill(`wrong-${i}`);
      const [answer] = await Promise.all([
        p.waitForResponse((r) => r.url().endsWith('/dashboard/api/session')),
        p.getByRole('button', { name: 'Sign in' }).click(),
      ]);
      expect(answer.status()).toBe(401);
    }
    await p.getByLabel(/^Password/).fill(dev.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => p.getByTestId('sign-in-error').textContent()).toMatch(/Too many wrong passwords\. Try again in \d+ seconds/);
    await expect(p.getByRole('navigation').count()).resolves.toBe(0);
    await other.close();
  });

  it('signs in; the environment is always visible and the sandbox is marked', async () => {
    // The first admin came with the bootstrap, in credentials.json; the server's output is not a
    // terminal, so it says where that file is and does not print the password.
    expect(h.credentials.dashboardEmail).toBe(ADMIN_EMAIL);
    expect(h.server.output()).toContain('credentials.json');
    expect(h.server.output()).not.toContain(h.credentials.dashboardPassword);
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.getByTestId('env-badge').textContent()).toBe('Sandbox');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'corridor_session')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });

  it('creates a token, shows its secret once with a copy button, and revokes it after confirmation', async () => {
    await nav(page, 'API tokens').click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('Name').fill('payouts-service');
    await page.getByLabel(/^MANAGE/).check();
    await page.getByRole('dialog').getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.getByTestId('new-client-secret').textContent())!;
    const clientId = (await page.getByTestId('new-client-id').textContent())!;
    expect(secret).toMatch(/^cs_/);
    expect(clientId).toMatch(/^corr_test_/);
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    const auth = `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
    const ping = await fetch(`${h.baseUrl}${API}/ping`, { headers: { authorization: auth } });
    expect(await ping.json()).toMatchObject({ environment: 'SANDBOX', permissions: ['VIEW', 'MANAGE'] });

    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByTestId('token-row').filter({ hasText: 'payouts-service' });
    await row.waitFor();
    expect(await page.getByText(secret).count()).toBe(0);
    await row.getByRole('button', { name: 'Revoke payouts-service' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await fetch(`${h.baseUrl}${API}/ping`, { headers: { authorization: auth } })).status).toBe(401);
  });

  it('sets the webhook URL, shows the public key and sends a test event with its result', async () => {
    await nav(page, 'Webhooks').click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByLabel('Webhook URL').fill(`${receiver.url}/corridor`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('endpoint-saved').waitFor();
    expect((await h.api('GET', '/config')).body.webhookEndpoint).toBe(`${receiver.url}/corridor`);
    expect(await page.getByText('BEGIN PUBLIC KEY').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Copy public key' }).waitFor();

    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByTestId('test-result');
    await result.waitFor();
    expect(await result.textContent()).toContain('Delivered');
    expect(await result.textContent()).toContain('answered 200');
    expect(receiver.requests.some((r) => r.event?.type === 'TEST')).toBe(true);

    const delivery = page.getByTestId('delivery-row').first();
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain('DELIVERED');
    await delivery.getByRole('button', { name: 'Details' }).click();
    await page.getByText('Attempt 1').waitFor();
    // The request sent and the receiver's answer of the attempt, then a resend as a new delivery.
    const drawer = page.getByRole('dialog');
    expect(await drawer.textContent()).toContain(`POST ${receiver.url}/corridor`);
    expect(await drawer.textContent()).toContain('"type": "TEST"');
    await drawer.getByRole('button', { name: 'Resend' }).click();
    await drawer.getByText('Queued again as a new delivery.').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('delivery-row').count(), { timeout: 10_000 }).toBe(2);
    await expect.poll(() => receiver.requests.filter((r) => r.event?.type === 'TEST').length, { timeout: 10_000 }).toBe(2);

    // The log's filters are the API's (type, status, transaction).
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'FAILED' }).click();
    await page.getByText('Nothing matches these filters.').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'DELIVERED' }).click();
    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'OUTGOING_PAYMENT' }).click();
    await page.getByText('Nothing matches these filters.').waitFor();
    await page.getByRole('combobox', { name: 'Event type' }).click();
    await page.getByRole('option', { name: 'TEST' }).click();
    await expect.poll(() => page.getByTestId('delivery-row').count(), { timeout: 10_000 }).toBe(2);
  });

  it('funds a customer account in the sandbox and shows the new balance, formatted in its currency', async () => {
    const made = await h.api('POST', '/customers', {
      platformCustomerId: 'browser-1',
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      currencies: ['USD'],
    });
    expect(made.status).toBe(201);
    await nav(page, 'Customers').click();
    await page.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    const account = page.getByTestId('account-row').filter({ hasText: 'USD' });
    expect(await account.getByTestId('account-balance').textContent()).toBe('$0.00');
    await account.getByRole('button', { name: 'Fund USD account' }).click();
    await page.getByLabel(/^Amount in US Dollar/).fill('1,250.5');
    await page.getByRole('button', { name: 'Add funds' }).click();
    await expect.poll(() => page.getByTestId('funded-balance').textContent()).toBe('$1,250.50');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => account.getByTestId('account-balance').textContent()).toBe('$1,250.50');

    await nav(page, 'Overview').click();
    const usd = page.getByTestId('balance-card').filter({ hasText: 'US Dollar' });
    await usd.waitFor();
    expect(await usd.textContent()).toContain('$1,250.50');
  });

  it('filters customers as the API does, by creation and update day too; the KYC status reads in full at 1280 px', async () => {
    await nav(page, 'Customers').click();
    const ada = page.getByRole('link', { name: 'Ada Lovelace' });
    await ada.waitFor();
    // The KYC badge is not cut to "APPR…" by the long UMA address beside it.
    const kyc = page.getByTestId('customers-table').getByText('APPROVED', { exact: true });
    expect(await kyc.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Days in the browser's time zone, as the date inputs take them.
    const day = (offset: number) =>
      page.evaluate((o) => {
        const d = new Date(Date.now() + o * 86_400_000);
        return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
      }, offset);
    await page.getByLabel('Created from').fill(await day(1));
    await page.getByText('No customer matches these filters').waitFor();
    await page.getByLabel('Created from').fill(await day(0));
    await ada.waitFor();
    await page.getByLabel('Updated to').fill(await day(-1));
    await page.getByText('No customer matches these filters').waitFor();
    await page.getByLabel('Updated to').fill(await day(0));
    await ada.waitFor();
    await page.getByLabel('Updated to').fill('');
    await page.getByLabel('Created from').fill('');
  });

  it('refuses a cookie-authenticated write without the CSRF token', async () => {
    const answer = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/customers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ platformCustomerId: 'csrf-probe', customerType: 'INDIVIDUAL' }),
      });
      return { status: res.status, body: await res.json() };
    }, API);
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('CSRF_TOKEN_INVALID');
    expect((await h.api('GET', '/customers?platformCustomerId=csrf-probe')).body.totalCount).toBe(0);
  });

  it('switches to production and back; sandbox tools exist only in the sandbox', async () => {
    await page.getByRole('banner').locator('label', { hasText: 'Production' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Production');
    await nav(page, 'Customers').click();
    await page.getByText('No customers yet').waitFor();
    // Sandbox tools are greyed out in production, and their page says how to get them back.
    expect(
      await page
        .getByRole('navigation')
        .getByRole('link', { name: /^Sandbox tools/ })
        .getAttribute('data-disabled'),
    ).toBe('true');
    await page.goto('/dashboard/sandbox');
    await page.getByText('Sandbox tools work in the sandbox only').waitFor();
    expect(await page.getByTestId('accounts-table').count()).toBe(0);
    await nav(page, 'Customers').click();
    await page.getByRole('banner').locator('label', { hasText: 'Sandbox' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Sandbox');
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  });

  it('works on a phone-width screen', async () => {
    const phone = await h.context({ width: 390, height: 844 });
    const p = await phone.newPage();
    const phoneProblems = watchProblems(p);
    p.setDefaultTimeout(10_000);
    await signIn(p);
    await p.getByRole('heading', { name: 'Overview' }).waitFor();
    // The environment switch is in view on a phone too, without opening the menu.
    const banner = p.getByRole('banner');
    expect(await banner.getByTestId('env-badge').isVisible()).toBe(true);
    await banner.locator('label', { hasText: 'Production' }).click({ timeout: 5_000 });
    await expect.poll(() => banner.getByTestId('env-badge').textContent()).toBe('Production');
    await banner.locator('label', { hasText: 'Sandbox' }).click();
    await expect.poll(() => banner.getByTestId('env-badge').textContent()).toBe('Sandbox');
    await p.getByRole('button', { name: 'Menu' }).click();
    await nav(p, 'Customers').click();
    await p.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    expect(phoneProblems).toEqual([]);
    await phone.close();
  });

  it('pages through a long list, newest first', async () => {
    for (let i = 1; i <= 21; i++) {
      const made = await h.api('POST', '/customers', {
        platformCustomerId: `paged-${String(i).padStart(2, '0')}`,
        customerType: 'INDIVIDUAL',
        fullName: `Paged Person ${i}`,
      });
      expect(made.status).toBe(201);
    }
    await page.goto('/dashboard/customers');
    const rows = page.getByTestId('customers-table').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByText('Page 1 · 22 items').waitFor();
    expect(await rows.first().textContent()).toContain('Paged Person 21');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 · 22 items').waitFor();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.last().textContent()).toContain('Ada Lovelace');
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('Page 1 · 22 items').waitFor();
    await expect.poll(() => rows.count()).toBe(20);
  });

  it('shows a business customer: KYC status, beneficial owners, documents, balances, external accounts, transactions', async () => {
    const acme = (
      await h.api('POST', '/customers', {
        platformCustomerId: 'biz-1',
        customerType: 'BUSINESS',
        currencies: ['USD', 'MXN'],
        businessInfo: { legalName: 'Acme Exports S.A.', registrationNumber: 'AEX-1', incorporationCountry: 'MX' },
      })
    ).body;
    expect(acme.id).toMatch(/^Customer:/);
    const owner = await h.api('POST', '/beneficial-owners', {
      customerId: acme.id,
      roles: ['UBO'],
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
    expect(owner.status).toBe(201);
    const clabe = sandboxIdentifier('CLABE', '000');
    const account = await h.api('POST', '/customers/external-accounts', {
      customerId: acme.id,
      currency: clabe.currency,
      accountInfo: {
        ...clabe.accountInfo,
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'María González', address: { line1: 'Av. Reforma 222', postalCode: '06600', country: 'MX' } },
      },
    });
    expect(account.status).toBe(201);
    const form = new FormData();
    form.set('documentHolder', acme.id);
    form.set('documentType', 'CERTIFICATE_OF_INCORPORATION');
    form.set('country', 'MX');
    form.set('file', new Blob([Buffer.from('%PDF-1.4\n%corridor test\n')], { type: 'application/pdf' }), 'incorporation.pdf');
    const upload = await fetch(`${h.baseUrl}${API}/documents`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${h.credentials.clientId}:${h.credentials.clientSecret}`).toString('base64')}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBe(201);

    await page.goto(`/dashboard/customers/${encodeURIComponent(acme.id)}`);
    await page.getByRole('heading', { name: 'Acme Exports S.A.' }).waitFor();
    const section = (title: string) => page.locator('.mantine-Card-root', { has: page.getByRole('heading', { name: title, exact: true }) });
    expect(await section('Details').textContent()).toContain('APPROVED'); // sandbox KYB: approved with its first UBO
    await section('Beneficial owners').getByText('María González').waitFor();
    expect(await section('Beneficial owners').textContent()).toContain('60%');
    await section('Documents').getByText('incorporation.pdf').waitFor();
    const href = await section('Documents').getByRole('link', { name: 'Download' }).getAttribute('href');
    const file = await page.evaluate(async (u) => {
      const r = await fetch(u!);
      return { status: r.status, type: r.headers.get('content-type') };
    }, href);
    expect(file).toMatchObject({ status: 200, type: expect.stringContaining('application/pdf') });
    await section('External accounts').getByText(/CLABE/).waitFor();
    await expect.poll(() => section('Internal balances').getByTestId('account-row').count()).toBe(2);
    expect(await section('Internal balances').locator('[data-testid="account-row"][data-currency="MXN"]').getByTestId('account-balance').textContent()).toBe(
      'MX$0.00',
    );
    await section('Transactions').getByText('No transactions for this customer').waitFor();
  });

  it('its forms work from the keyboard alone', async () => {
    const kb = await h.context();
    const p = await kb.newPage();
    p.setDefaultTimeout(10_000);
    const kbProblems = watchProblems(p);
    await p.goto('/dashboard/');
    const focused = (name: string) => p.getByLabel(name).evaluate((el) => el === document.activeElement);
    // The email field has the focus; Tab moves to the password, Enter signs in.
    await expect.poll(() => focused('Email')).toBe(true);
    await p.keyboard.type(ADMIN_EMAIL);
    await p.keyboard.press('Tab');
    await p.keyboard.type(h.credentials.dashboardPassword);
    await p.keyboard.press('Enter');
    await p.getByRole('heading', { name: 'Overview' }).waitFor();
    await nav(p, 'API tokens').focus();
    await p.keyboard.press('Enter');
    await p.getByRole('heading', { name: 'API tokens' }).waitFor();
    await p.getByRole('button', { name: 'Create token' }).focus();
    await p.keyboard.press('Enter');
    // The dialog focuses its first field; Enter submits it; then the focus is on copying the secret.
    await expect.poll(() => focused('Name')).toBe(true);
    await p.keyboard.type('keyboard-made');
    await p.keyboard.press('Enter');
    await p.getByTestId('new-client-secret').waitFor();
    await expect.poll(() => p.evaluate(() => document.activeElement?.textContent)).toBe('Copy secret');
    await p.keyboard.press('Escape');
    await p.getByRole('dialog').waitFor({ state: 'detached' });
    await p.getByTestId('token-row').filter({ hasText: 'keyboard-made' }).waitFor();
    expect(kbProblems).toEqual([]);
    await kb.close();
  });

  it('signs out: the session stops working at once', async () => {
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await page.evaluate(async (api) => (await fetch(`${api}/customers`)).status, API);
    expect(after).toBe(401);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(ADMIN_EMAIL).toBe(h.credentials.dashboardEmail);
  });
});

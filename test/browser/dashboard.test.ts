import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { cli } from '../helpers/server.js';
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

  it('refuses a wrong password, then locks the account out after repeated failures', async () => {
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
      const [answer] = await Promise.all([p.waitForResponse((r) => r.url().endsWith('/dashboard/api/session')), p.getByRole('button', { name: 'Sign in' }).click()]);
      expect(answer.status()).toBe(401);
    }
    await p.getByLabel(/^Password/).fill(dev.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => p.getByTestId('sign-in-error').textContent()).toMatch(/Too many wrong passwords\. Try again in \d+ seconds/);
    await expect(p.getByRole('navigation').count()).resolves.toBe(0);
    await other.close();
  });

  it('signs in; the environment is always visible and the sandbox is marked', async () => {
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
    await page.keyboard.press('Escape');
  });

  it('funds a customer account in the sandbox and shows the new balance, formatted in its currency', async () => {
    const made = await h.api('POST', '/customers', { platformCustomerId: 'browser-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace', currencies: ['USD'] });
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

  it('refuses a cookie-authenticated write without the CSRF token', async () => {
    const answer = await page.evaluate(async (api) => {
      const res = await fetch(`${api}/customers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ platformCustomerId: 'csrf-probe', customerType: 'INDIVIDUAL' }) });
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
    await page.getByRole('banner').locator('label', { hasText: 'Sandbox' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Sandbox');
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
  });

  it('works on a phone-width screen', async () => {
    const phone = await h.context({ width: 390, height: 844 });
    const p = await phone.newPage();
    const phoneProblems = watchProblems(p);
    await signIn(p);
    await p.getByRole('heading', { name: 'Overview' }).waitFor();
    await p.getByRole('button', { name: 'Menu' }).click();
    await nav(p, 'Customers').click();
    await p.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    expect(phoneProblems).toEqual([]);
    await phone.close();
  });

  it('signs out: the session stops working at once', async () => {
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await page.evaluate(async (api) => (await fetch(`${api}/customers`)).status, API);
    expect(after).toBe(401);
    expect(problems, problems.join('\n')).toEqual([]);
    expect(ADMIN_EMAIL).toBe(h.credentials.dashboardEmail);
  });
});

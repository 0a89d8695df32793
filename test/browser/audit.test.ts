import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { cli } from '../helpers/server.js';
import { signIn, startHarness, watchProblems, type Harness } from './harness.js';

const nav = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });

describe('the audit log page', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows an ADMIN who did what, from where and how it ended, newest first; other roles have no such page', { timeout: 90_000 }, async () => {
    const context = await h.context();
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // A write from the dashboard: switch to production and back.
    await page.getByRole('banner').locator('label', { hasText: 'Production' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Production');
    await page.getByRole('banner').locator('label', { hasText: 'Sandbox' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Sandbox');

    await nav(page, 'Audit log').click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    const rows = page.getByTestId('audit-table').locator('tbody tr');
    await rows.first().waitFor();
    const texts = await rows.allTextContents();
    expect(texts[0]).toContain('PUT /dashboard/api/session/environment');
    expect(texts[0]).toContain('admin@localhost');
    expect(texts[0]).toContain('127.0.0.1');
    expect(texts[0]).toContain('succeeded');
    expect(texts.at(-1)).toContain('dashboard sign-in');

    // The action filter.
    await page.getByLabel('Action starts with').fill('dashboard sign-in');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(async () => (await rows.allTextContents()).every((t) => t.includes('dashboard sign-in'))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();

    // A VIEWER sees no Audit log in the navigation.
    const made = cli(['user', 'create', '--platform', h.credentials.platformId, '--email', 'viewer@example.com', '--role', 'VIEWER', '--json'], h.env);
    expect(made.status, made.stderr).toBe(0);
    const viewerContext = await h.context();
    const viewerPage = await viewerContext.newPage();
    await signIn(viewerPage, 'viewer@example.com', JSON.parse(made.stdout).password);
    await viewerPage.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await nav(viewerPage, 'Customers').count()).toBe(1);
    expect(await nav(viewerPage, 'Audit log').count()).toBe(0);
    await viewerContext.close();
  });
});

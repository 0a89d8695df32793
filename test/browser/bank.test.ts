import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { newId } from '../../src/common/ids.js';
import { raiseException } from '../../src/rails/bank/exceptions.js';
import { signIn, startHarness, watchProblems, type Harness } from './harness.js';

describe('the Bank page', () => {
  let h: Harness;
  const fileId = newId('BankFile');

  beforeAll(async () => {
    h = await startHarness();
    // A file and an exception as the bank rails leave them (their making is tested in test/bank-rails.test.ts).
    const c = await createContainer(loadConfig(h.env));
    try {
      await c.db.tx(async (trx) => {
        await trx
          .insertInto('bank_files')
          .values({
            id: fileId,
            bank_id: 'browser-bank',
            format: 'NACHA',
            name: 'BROWSER-BANK-20261130-1.ach',
            sha256: 'b'.repeat(64),
            content: Buffer.from('101 021000021 1987654321\n'),
            window_at: '2026-11-30T10:15:00.000Z',
            effective_date: '2026-12-01',
            currency: 'USD',
            entry_count: 3,
            total_amount: 123_456n,
            status: 'UPLOADED',
            reason: null,
            built_at: '2026-11-30T10:15:01.000Z',
            uploaded_at: '2026-11-30T10:15:02.000Z',
            acknowledged_at: null,
          })
          .execute();
        await raiseException(trx, {
          bankId: 'browser-bank',
          kind: 'BALANCE_BREAK',
          currency: 'USD',
          amount: 10n,
          subjectId: 'STMT-1',
          details: { statementId: 'STMT-1' },
          now: new Date(Date.now() - 3 * 3600_000).toISOString(),
        });
      });
    } finally {
      await c.close();
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows an ADMIN in production the files with a download and the exceptions queue, and resolves an exception', { timeout: 90_000 }, async () => {
    const context = await h.context();
    const page = await context.newPage();
    const problems = watchProblems(page);
    await signIn(page);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('banner').locator('label', { hasText: 'Production' }).click();
    await expect.poll(() => page.getByTestId('env-badge').textContent()).toBe('Production');

    // Its name carries the "production" badge.
    await page.getByRole('navigation').getByRole('link', { name: /^Bank/ }).click();
    await page.getByRole('heading', { name: 'Bank' }).waitFor();
    const file = page.getByTestId('file-row').first();
    await file.waitFor();
    expect(await file.textContent()).toContain('BROWSER-BANK-20261130-1.ach');
    expect(await file.textContent()).toContain('1,234.56 USD');
    const href = await file.getByRole('link').getAttribute('href');
    const download = await page.request.get(href!);
    expect(download.status()).toBe(200);
    expect(await download.text()).toBe('101 021000021 1987654321\n');

    const exception = page.getByTestId('exception-row').first();
    expect(await exception.textContent()).toMatch(/BALANCE_BREAK.*browser-bank.*3 h 0 min/);
    await exception.getByRole('button', { name: 'Resolve' }).click();
    await page.getByTestId('resolve-note').fill('the bank booked a fee twice; corrected on the next statement');
    await page.getByTestId('resolve-submit').click();
    await page.getByText('No exception: the banks and the ledger agree').waitFor();
    await page.getByRole('radiogroup', { name: 'Exceptions shown' }).getByText('All').click();
    await expect.poll(() => page.getByTestId('exception-row').first().textContent()).toContain('note by admin@localhost: the bank booked a fee twice');
    expect(problems).toEqual([]);
    await context.close();
  });
});

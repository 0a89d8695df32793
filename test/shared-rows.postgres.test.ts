// No hot rows on PostgreSQL (docs/ledger.md): a payment takes no lock on a row every payment of its
// platform shares — the platform's own row and its system accounts. It neither updates them (their
// movements are deltas) nor checks a foreign key against them (a check locks the parent row FOR KEY
// SHARE). So while another transaction holds all of them FOR UPDATE, a payment still completes, and
// so does a new customer with their accounts.
// SQLite has no row locks (one writer at a time), so this file runs on PostgreSQL only.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testContext } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';
import { customerWithAccounts, expectLedgerBalanced } from './helpers/ledger.js';
import { externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';

describe('on PostgreSQL, with the rows every payment of a platform shares held FOR UPDATE', async () => {
  const ctx = await testContext();
  const db = ctx.container.db;
  const platformId = ctx.platform.platformId;

  /** Whether `request` has its answer while another transaction holds the platform row and its system accounts. */
  async function answeredWhileHeld<T>(request: () => Promise<T>): Promise<{ answeredWhileHeld: boolean; lockedAccounts: number; answer: T }> {
    let lockedAccounts = 0;
    const held = await holdTransaction(db, async () => {
      await sql`select id from platforms where id = ${platformId} for update`.execute(db.executor());
      const system = await sql`select id from ledger_accounts where platform_id = ${platformId} and kind = 'SYSTEM' for update`.execute(db.executor());
      lockedAccounts = system.rows.length;
    });
    let answered = false;
    const pending = request().finally(() => (answered = true));
    // Resolves once the request waits for the held rows, or once it has its answer without waiting.
    await held.blocking(pending);
    const answeredWhileHeld = answered;
    await held.release();
    return { answeredWhileHeld, lockedAccounts, answer: await pending };
  }

  it('a payment completes: it waits on no lock of the platform row or of the system accounts it moves', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 20_000);
    const destination = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id });
    // The first payment creates the system accounts it moves (FX liquidity in both currencies, payouts in flight, fees).
    expect((await quoteFromAccount(ctx, accounts.USD.id, destination.id, 10_000, { immediatelyExecute: true })).body.status).toBe('COMPLETED');
    const second = await answeredWhileHeld(() => quoteFromAccount(ctx, accounts.USD.id, destination.id, 10_000, { immediatelyExecute: true }));
    expect(second.lockedAccounts).toBeGreaterThanOrEqual(3);
    expect(second.answeredWhileHeld).toBe(true);
    expect(second.answer.body.status).toBe('COMPLETED');
    await expectLedgerBalanced(ctx);
  });

  it('a new customer and their accounts are created: they lock nothing of the platform row', async () => {
    const created = await answeredWhileHeld(() => customerWithAccounts(ctx, ['USD', 'EUR']));
    expect(created.answeredWhileHeld).toBe(true);
    expect(created.answer.customer.id).toMatch(/^Customer:/);
    expect(Object.keys(created.answer.accounts).sort()).toEqual(['EUR', 'USD']);
  });
});

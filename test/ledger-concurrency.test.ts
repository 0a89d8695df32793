import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/common/clock.js';
import { ApiError } from '../src/common/errors.js';
import type { Scope } from '../src/common/scope.js';
import type { Database } from '../src/db/database.js';
import { createLedger } from '../src/ledger/index.js';
import { call, testContext, type TestContext } from './helpers/context.js';
import { customerWithAccounts, expectLedgerBalanced, fund } from './helpers/ledger.js';
import { externalAccount } from './helpers/payments.js';

let ctx: TestContext;
let scope: Scope;
beforeAll(async () => {
  ctx = await testContext();
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
});

const N = 200;

async function balance(id: string): Promise<number> {
  return (await call(ctx, 'GET', `/internal-accounts/${id}`)).body.balance.amount;
}

describe(`${N} concurrent requests leave balances exact and the ledger balanced`, () => {
  it('funding one account', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['USD']);
    const results = await Promise.all(Array.from({ length: N }, (_, i) => fund(ctx, accounts.USD.id, i + 1)));
    expect(results.map((r) => r.status)).toEqual(Array(N).fill(200));
    expect(await balance(accounts.USD.id)).toBe((N * (N + 1)) / 2);
    await expectLedgerBalanced(ctx);
  });

  it('funding many accounts, first use of a currency included', async () => {
    const owners = await Promise.all(Array.from({ length: 10 }, () => customerWithAccounts(ctx, ['GBP', 'BTC'])));
    const ids = owners.flatMap((o) => [o.accounts.GBP.id as string, o.accounts.BTC.id as string]);
    const results = await Promise.all(Array.from({ length: N }, (_, i) => fund(ctx, ids[i % ids.length], 1000)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const id of ids) expect(await balance(id)).toBe((N / ids.length) * 1000);
    await expectLedgerBalanced(ctx);
  });

  it('debiting: exactly as many debits succeed as the balance covers, never below zero', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['EUR']);
    const covered = 120;
    await fund(ctx, accounts.EUR.id, covered * 7);
    const payouts = await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'EUR');
    const results = await Promise.allSettled(
      Array.from({ length: N }, (_, i) =>
        ctx.container.ledger.transfer(scope, {
          businessId: `Transaction:debit-${i}`,
          transfers: [{ debitAccountId: accounts.EUR.id, creditAccountId: payouts, amount: 7n, code: 'PAYOUT' }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(covered);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).code).toBe('INSUFFICIENT_FUNDS');
    expect(await balance(accounts.EUR.id)).toBe(0);
    await expectLedgerBalanced(ctx);
  });

  it('funding and debiting one account at once through the API: every refusal is INSUFFICIENT_FUNDS, the balance is exact', async () => {
    const { customer, accounts } = await customerWithAccounts(ctx, ['USD']);
    const id = accounts.USD.id as string;
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    // 100 funds of 50 and 100 transfer-outs of 80, interleaved: the debits ask 8000, at most 6500 ever arrives.
    const start = 1_500;
    await fund(ctx, id, start);
    const results = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        i % 2 === 0
          ? fund(ctx, id, 50)
          : call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: id }, destination: { accountId: bank.id }, amount: 80 } }),
      ),
    );
    const funds = results.filter((_, i) => i % 2 === 0);
    const debits = results.filter((_, i) => i % 2 === 1);
    expect(funds.map((r) => r.status)).toEqual(Array(N / 2).fill(200));
    const ok = debits.filter((r) => r.status === 201).length;
    for (const r of debits) if (r.status !== 201) expect([r.status, r.body.code]).toEqual([400, 'INSUFFICIENT_FUNDS']);
    expect(ok).toBeGreaterThanOrEqual(Math.floor(start / 80));
    expect(ok).toBeLessThanOrEqual(Math.floor((start + (N / 2) * 50) / 80));
    expect(await balance(id)).toBe(start + (N / 2) * 50 - ok * 80);
    expect((await ctx.container.ledger.balance(scope, id))?.debitsPending).toBe(0n);
    await expectLedgerBalanced(ctx);
  });

  it('a journal during which its system account becomes known to this process moves that account exactly once', async () => {
    const db = ctx.container.db;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A journal's system-account deltas that take a while to append (as on PostgreSQL, when the
    // queue has to be sent first), so that other work runs between their append and the updates.
    const slow: Database = {
      ...db,
      async append(s, params) {
        await db.append(s, params);
        if (s.sqlite.startsWith('insert into ledger_deltas')) await gate;
      },
    };
    const l = createLedger({ db: slow, clock: systemClock });
    const printer = await l.systemAccount(scope, 'SANDBOX_FUNDING', 'NOK');
    const fees = await ctx.container.ledger.systemAccount(scope, 'FEES', 'NOK'); // not yet known to l
    const journal = l.transfer(scope, {
      businessId: 'Transaction:first-use',
      transfers: [{ debitAccountId: printer, creditAccountId: fees, amount: 10n, code: 'FEE' }],
    });
    const known = l.systemAccount(scope, 'FEES', 'NOK');
    // PostgreSQL: the account becomes known to l while the journal waits. SQLite runs one write
    // transaction at a time: there it becomes known after.
    if (db.dialect === 'postgres') await known;
    release();
    await Promise.all([journal, known]);
    expect(await l.balance(scope, fees)).toMatchObject({ posted: 10n });
    await expectLedgerBalanced(ctx);
  });

  it('reserving, then posting and voiding at once', async () => {
    const { accounts } = await customerWithAccounts(ctx, ['CAD']);
    await fund(ctx, accounts.CAD.id, N * 10);
    const l = ctx.container.ledger;
    const payouts = await l.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'CAD');
    const pending = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        l.createPending(scope, {
          businessId: `Transaction:res-${i}`,
          transfers: [{ debitAccountId: accounts.CAD.id, creditAccountId: payouts, amount: 10n, code: 'PAYOUT' }],
        }),
      ),
    );
    expect(await balance(accounts.CAD.id)).toBe(0);
    await Promise.all(
      pending.map((j, i) => (i % 2 ? l.post(scope, { pendingTransferIds: [j.transfers[0].id] }) : l.void(scope, { pendingTransferIds: [j.transfers[0].id] }))),
    );
    expect(await l.balance(scope, accounts.CAD.id)).toMatchObject({ available: BigInt((N / 2) * 10), posted: BigInt((N / 2) * 10), debitsPending: 0n });
    await expectLedgerBalanced(ctx);
  });
});

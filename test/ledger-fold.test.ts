// No hot rows (docs/ledger.md): system accounts' movements and list-count changes are rows of
// their own, added into their totals later by the fold. Balances, counts and `ledger verify` must
// be exact before a fold, after it, and while folds race payments (on PostgreSQL, folds on
// separate connections, as several nodes would run them).
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { call, testContext } from './helpers/context.js';
import { individual } from './helpers/factories.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { externalAccount, fundedCustomer } from './helpers/payments.js';
import { foldLedgerDeltas } from '../src/ledger/fold.js';
import { foldCounts } from '../src/db/counters.js';
import type { Environment } from '../src/common/scope.js';

describe('the fold', async () => {
  const ctx = await testContext();
  const scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' as Environment };
  const ex = () => ctx.container.db.executor();
  const deltasLeft = async () => Number((await sql<{ n: unknown }>`select count(*) as n from ledger_deltas`.execute(ex())).rows[0].n);
  const storedRow = (id: string) => ex().selectFrom('ledger_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const foldAll = async () => {
    while ((await foldLedgerDeltas(ctx.container)) > 0);
  };
  const transferOut = (source: string, destination: string, amount: number) =>
    call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: source }, destination: { accountId: destination }, amount } });

  it('keeps system-account movements aside, with balances and the ledger exact before and after the fold', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    await foldAll();
    const payouts = await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'USD');
    const before = (await ctx.container.ledger.balance(scope, payouts))!;
    const storedBefore = await storedRow(payouts);

    for (const amount of [100, 250, 650]) expect((await transferOut(accounts.USD.id, bank.id, amount)).status).toBe(201);
    // The customer's account (it has a floor) moved in the payment's own transaction …
    expect((await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`)).body.balance.amount).toBe(9_000);
    // … the system account's row did not: its movements wait as deltas, and its balance counts them.
    expect(await deltasLeft()).toBeGreaterThanOrEqual(3);
    expect(BigInt((await storedRow(payouts)).credits_posted)).toBe(BigInt(storedBefore.credits_posted));
    expect((await ctx.container.ledger.balance(scope, payouts))!.posted).toBe(before.posted + 1_000n);
    await expectLedgerBalanced(ctx);

    await foldAll();
    expect(await deltasLeft()).toBe(0);
    const folded = await storedRow(payouts);
    expect(BigInt(folded.credits_posted) - BigInt(folded.debits_posted)).toBe(before.posted + 1_000n);
    expect((await ctx.container.ledger.balance(scope, payouts))!.posted).toBe(before.posted + 1_000n);
    await expectLedgerBalanced(ctx);
  });

  it('counts each movement once when folds race payments and each other', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 100_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    await foldAll();
    const payouts = await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'USD');
    const before = (await ctx.container.ledger.balance(scope, payouts))!.posted;
    // Small folds, many of them, interleaved with 30 payments.
    const folds = Array.from({ length: 12 }, () => foldLedgerDeltas(ctx.container, 2));
    const payments = Array.from({ length: 30 }, (_, i) => transferOut(accounts.USD.id, bank.id, 100 + i));
    const answers = await Promise.all([...payments, ...folds]);
    expect(answers.slice(0, 30).every((r) => (r as { status: number }).status === 201)).toBe(true);
    const moved = BigInt(Array.from({ length: 30 }, (_, i) => 100 + i).reduce((a, b) => a + b, 0));
    expect((await ctx.container.ledger.balance(scope, payouts))!.posted).toBe(before + moved);
    await expectLedgerBalanced(ctx);
    await Promise.all([foldAll(), foldAll(), foldAll()]);
    expect(await deltasLeft()).toBe(0);
    expect((await ctx.container.ledger.balance(scope, payouts))!.posted).toBe(before + moved);
    await expectLedgerBalanced(ctx);
  });

  it('keeps list counts exact while their change rows are folded, down to one row per count', async () => {
    const other = await ctx.newPlatform('Counted while folding');
    const counts = () => ex().selectFrom('list_counts').selectAll().where('platform_id', '=', other.platformId).where('list', '=', 'customers').execute();
    const creates = Array.from({ length: 30 }, () => call(ctx, 'POST', '/customers', { auth: other.auth, body: individual() }));
    const folds = Array.from({ length: 10 }, () => foldCounts(ctx.container.db, 3));
    const made = await Promise.all([...creates, ...folds]);
    expect(made.slice(0, 30).every((r) => (r as { status: number }).status === 201)).toBe(true);
    expect((await call(ctx, 'GET', '/customers', { auth: other.auth, query: { limit: 1 } })).body.totalCount).toBe(30);
    const ids = made.slice(0, 4).map((r) => (r as { body: { id: string } }).body.id);
    await Promise.all(ids.map((id) => call(ctx, 'DELETE', `/customers/${id}`, { auth: other.auth })));
    while ((await foldCounts(ctx.container.db)) > 0);
    expect((await counts()).map((r) => [Number(r.slot), Number(r.n)])).toEqual([[0, 26]]);
    expect((await call(ctx, 'GET', '/customers', { auth: other.auth, query: { limit: 1 } })).body.totalCount).toBe(26);
    expect((await call(ctx, 'GET', '/customers', { auth: other.auth, query: { customerType: 'INDIVIDUAL' } })).body.totalCount).toBe(26);
  });
});

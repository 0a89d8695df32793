// totalCount of the unfiltered customer and transaction lists, and of customers filtered by
// customerType, comes from maintained counts (db/counters.ts): they must equal
// a real count after concurrent creates, deletes, refusals and status changes, and the migration
// that counts existing rows must count them right.
import { describe, expect, it } from 'vitest';
import { call, testContext } from './helpers/context.js';
import { sql } from 'kysely';
import { up as countExistingRows } from '../src/db/migrations/009_filtered_counts.js';
import { individual } from './helpers/factories.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';

describe('maintained list counts', async () => {
  const ctx = await testContext();

  it('the unfiltered totalCount equals the live customers after concurrent creates, deletes and refusals', async () => {
    const made = await Promise.all(Array.from({ length: 40 }, () => call(ctx, 'POST', '/customers', { body: individual() })));
    expect(made.every((r) => r.status === 201)).toBe(true);
    // A duplicate platformCustomerId is refused and must not count.
    const dup = await call(ctx, 'POST', '/customers', { body: individual({ platformCustomerId: made[0].body.platformCustomerId }) });
    expect(dup.status).toBe(409);
    await Promise.all(made.slice(0, 7).map((r) => call(ctx, 'DELETE', `/customers/${r.body.id}`)));
    // Deleting twice answers 410 and counts once.
    expect((await call(ctx, 'DELETE', `/customers/${made[0].body.id}`)).status).toBe(410);
    const list = await call(ctx, 'GET', '/customers', { query: { limit: 5 } });
    expect(list.body.totalCount).toBe(33);
    const all = await call(ctx, 'GET', '/customers', { query: { includeDeleted: true, limit: 1 } });
    expect(all.body.totalCount).toBe(40);
    const other = await ctx.newPlatform('Counted separately');
    expect((await call(ctx, 'GET', '/customers', { auth: other.auth })).body.totalCount).toBe(0);
    // The filtered count is exact too.
    expect((await call(ctx, 'GET', '/customers', { query: { customerType: 'INDIVIDUAL' } })).body.totalCount).toBe(33);
  });

  it('the unfiltered transaction totalCount equals the stored transactions after concurrent quotes, transfers and refusals', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const before = (await call(ctx, 'GET', '/transactions', { query: { limit: 1 } })).body.totalCount;
    const quotes = Array.from({ length: 15 }, () => quoteFromAccount(ctx, accounts.USD.id, bank.id, 100));
    const transfers = Array.from({ length: 10 }, () =>
      call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 500 } }),
    );
    const answers = await Promise.all([...quotes, ...transfers]);
    expect(answers.every((r) => r.status === 201)).toBe(true);
    // Refused inside its transaction (the balance is spent): rolled back, so not counted.
    const refused = await call(ctx, 'POST', '/transfer-out', {
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 5_001 },
    });
    expect(refused.body.code).toBe('INSUFFICIENT_FUNDS');
    const list = await call(ctx, 'GET', '/transactions', { query: { limit: 3 } });
    expect(list.body.totalCount).toBe(before + 25);
    // The maintained count agrees with a real count of the rows, and with the filtered (counted) lists.
    const rows = await ctx.container.db
      .executor()
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('platform_id', '=', ctx.platform.platformId)
      .where('environment', '=', 'SANDBOX')
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(list.body.totalCount);
    const outgoing = await call(ctx, 'GET', '/transactions', { query: { type: 'OUTGOING', limit: 1 } });
    const incoming = await call(ctx, 'GET', '/transactions', { query: { type: 'INCOMING', limit: 1 } });
    expect(outgoing.body.totalCount + incoming.body.totalCount).toBe(list.body.totalCount);
    const other = await ctx.newPlatform('Transactions counted separately');
    expect((await call(ctx, 'GET', '/transactions', { auth: other.auth })).body.totalCount).toBe(0);
    await expectCountsMatchRows();
    // Rows that existed before the counts did are counted by the migration, exactly.
    await sql`delete from list_counts where list like 'transactions%' or list like 'customers|%'`.execute(ctx.container.db.admin);
    await countExistingRows(ctx.container.db.admin as never, ctx.container.db.dialect);
    await expectCountsMatchRows();
    await expectLedgerBalanced(ctx);
  });

  /** Every counted filter's totalCount equals a real count of the rows, for each value the rows hold. */
  async function expectCountsMatchRows() {
    const ex = ctx.container.db.executor();
    const scoped = <T extends 'transactions' | 'customers'>(table: T) =>
      ex
        .selectFrom(table as 'transactions')
        .where('platform_id', '=', ctx.platform.platformId)
        .where('environment', '=', 'SANDBOX');
    const checks: Array<[string, string, Array<{ value: string; n: unknown }>]> = [
      // Counted only as a whole list; the status filter is counted row by row, and must agree.
      [
        '/transactions',
        'status',
        await scoped('transactions')
          .select(['status as value', (eb) => eb.fn.countAll().as('n')])
          .groupBy('status')
          .execute(),
      ],
      [
        '/customers',
        'customerType',
        await ex
          .selectFrom('customers')
          .where('platform_id', '=', ctx.platform.platformId)
          .where('environment', '=', 'SANDBOX')
          .where('is_deleted', '=', 0)
          .select(['customer_type as value', (eb) => eb.fn.countAll().as('n')])
          .groupBy('customer_type')
          .execute(),
      ],
    ];
    for (const [path, filter, groups] of checks) {
      expect(groups.length).toBeGreaterThan(0);
      for (const { value, n } of groups) {
        const answer = await call(ctx, 'GET', path, { query: { [filter]: value, limit: 1 } });
        expect([path, filter, value, answer.body.totalCount]).toEqual([path, filter, value, Number(n)]);
      }
    }
  }
});

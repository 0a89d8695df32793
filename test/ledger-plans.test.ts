import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statement } from '../src/db/statements.js';
import { APPLY_DELTA } from '../src/ledger/statements.js';
import { dialect, testContext, type TestContext } from './helpers/context.js';

// A new database has no planner statistics until its tables are first analyzed (on PostgreSQL,
// autovacuum does so a minute or more after a bulk load). Every payment updates its accounts with
// APPLY_DELTA; planned through the (platform_id, environment, system_code, currency) index, each
// update read every account of the platform: milliseconds per payment after a large import.
let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(() => ctx.close());

describe("a payment's guarded account update", () => {
  it('finds the account by its primary key in tables never analyzed', async () => {
    const explain = statement({ sqlite: `explain query plan ${APPLY_DELTA.sqlite}`, postgres: `explain ${APPLY_DELTA.postgres}` });
    const params = ['0', '5', '0', '0', new Date().toISOString(), 'InternalAccount:x', 'Platform:x', 'SANDBOX', 'USD', ...Array(9).fill('5')];
    const plan = (await ctx.container.db.query<Record<string, unknown>>(explain, params)).map((r) => String(Object.values(r).at(-1))).join('\n');
    expect(plan).toMatch(dialect === 'postgres' ? /Index Scan using ledger_accounts_pkey/ : /USING INDEX sqlite_autoindex_ledger_accounts_1 \(id=\?\)/);
  });
});

// totalCount of the unfiltered customer list comes from a maintained count (db/counters.ts): it
// must equal a real count after concurrent creates, deletes and refused creates.
import { describe, expect, it } from 'vitest';
import { call, testContext } from './helpers/context.js';
import { individual } from './helpers/factories.js';

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
});

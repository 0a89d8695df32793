import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { call, expectError, testContext } from './helpers/context.js';
import { individual } from './helpers/factories.js';

describe('GET /customers: filters and pagination', async () => {
  const clock = manualClock(new Date('2026-03-01T00:00:00.000Z'));
  const ctx = await testContext({ clock });
  const created: any[] = [];

  // 250 customers, one a minute, with varied types, regions and currencies.
  for (let i = 0; i < 250; i++) {
    clock.advance(60_000);
    const body =
      i % 5 === 0
        ? { platformCustomerId: `p-${i}`, customerType: 'BUSINESS', businessInfo: { legalName: `Biz ${i}` }, region: 'US' }
        : individual({ platformCustomerId: `p-${i}`, region: i % 3 === 0 ? 'NG' : 'GB', currencies: i % 3 === 0 ? ['NGN', 'USD'] : ['GBP'] });
    const res = await call(ctx, 'POST', '/customers', { body });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    created.push(res.body);
  }

  async function walk(query: Record<string, string | number | boolean>, limit = 7) {
    const seen: any[] = [];
    let cursor: string | undefined;
    let total: number | undefined;
    for (let pages = 0; pages < 100; pages++) {
      const res = await call(ctx, 'GET', '/customers', { query: { ...query, limit, cursor } });
      expect(res.status).toBe(200);
      total ??= res.body.totalCount;
      expect(res.body.totalCount).toBe(total);
      expect(res.body.data.length).toBeLessThanOrEqual(limit);
      seen.push(...res.body.data);
      if (!res.body.hasMore) {
        expect(res.body.nextCursor).toBeUndefined();
        break;
      }
      expect(res.body.data.length).toBe(limit);
      cursor = res.body.nextCursor;
    }
    return { seen, total: total! };
  }

  it('walks 250 customers with limit 7: each exactly once, newest first, totalCount exact', async () => {
    const { seen, total } = await walk({});
    expect(total).toBe(250);
    expect(seen.map((c) => c.id)).toEqual([...created].reverse().map((c) => c.id));
  });

  it.each([
    ['customerType', { customerType: 'BUSINESS' }, (c: any) => c.customerType === 'BUSINESS'],
    ['region', { region: 'NG' }, (c: any) => c.region === 'NG'],
    ['currency', { currency: 'NGN' }, (c: any) => c.currencies.includes('NGN')],
    ['platformCustomerId', { platformCustomerId: 'p-42' }, (c: any) => c.platformCustomerId === 'p-42'],
    ['createdAfter (inclusive)', { createdAfter: '2026-03-01T02:00:00.000Z' }, (c: any) => c.createdAt >= '2026-03-01T02:00:00.000Z'],
    ['createdBefore (inclusive)', { createdBefore: '2026-03-01T01:00:00Z' }, (c: any) => c.createdAt <= '2026-03-01T01:00:00.000Z'],
    [
      'created range with an offset',
      { createdAfter: '2026-03-01T03:00:00+02:00', createdBefore: '2026-03-01T01:30:00.000Z' },
      (c: any) => c.createdAt >= '2026-03-01T01:00:00.000Z' && c.createdAt <= '2026-03-01T01:30:00.000Z',
    ],
    [
      'combined',
      { customerType: 'INDIVIDUAL', region: 'GB', currency: 'GBP' },
      (c: any) => c.customerType === 'INDIVIDUAL' && c.region === 'GB' && c.currencies.includes('GBP'),
    ],
    [
      'updated range (inclusive)',
      { updatedAfter: '2026-03-01T01:00:00.000Z', updatedBefore: '2026-03-01T02:00:00Z' },
      (c: any) => c.updatedAt >= '2026-03-01T01:00:00.000Z' && c.updatedAt <= '2026-03-01T02:00:00.000Z',
    ],
    ['umaAddress (any case)', { umaAddress: created[7].umaAddress.toUpperCase() }, (c: any) => c.id === created[7].id],
    ['includeDeleted with nothing deleted', { includeDeleted: true, customerType: 'BUSINESS' }, (c: any) => c.customerType === 'BUSINESS'],
  ])('filters by %s with an exact totalCount across pages', async (_name, query, match) => {
    const expected = created
      .filter(match)
      .reverse()
      .map((c) => c.id);
    expect(expected.length).toBeGreaterThan(0);
    const { seen, total } = await walk(query as Record<string, string>);
    expect(total).toBe(expected.length);
    expect(seen.map((c) => c.id)).toEqual(expected);
  });

  it('filters by umaAddress (case-insensitive) and by updated time after a PATCH', async () => {
    const target = created[10];
    const byUma = await call(ctx, 'GET', '/customers', { query: { umaAddress: target.umaAddress.toUpperCase() } });
    expect(byUma.body.data.map((c: any) => c.id)).toEqual([target.id]);
    clock.advance(24 * 3600_000);
    await call(ctx, 'PATCH', `/customers/${target.id}`, { body: { customerType: target.customerType, fullName: 'Renamed' } });
    const updated = await call(ctx, 'GET', '/customers', { query: { updatedAfter: clock.now().toISOString() } });
    expect(updated.body.data.map((c: any) => c.id)).toEqual([target.id]);
    const before = await call(ctx, 'GET', '/customers', { query: { updatedBefore: '2026-03-01T00:01:00.000Z' } });
    expect(before.body.data.map((c: any) => c.id)).toEqual([created[0].id]);
  });

  it('refuses limits outside 1..100, bad cursors and cursors issued for other filters', async () => {
    // Beyond int64, negative, empty, repeated: all the D2 error naming limit.
    for (const limit of ['0', '101', '-1', '-9223372036854775809', '9223372036854775808', '99999999999999999999999', 'abc', '1.5', '']) {
      const err = expectError(await call(ctx, 'GET', '/customers', { query: { limit } }), 400, 'INVALID_INPUT');
      expect(err.details.fields[0]).toMatchObject({ field: 'limit', in: 'query' });
    }
    expectError(await call(ctx, 'GET', '/customers', { query: { cursor: 'never-issued' } }), 400, 'INVALID_INPUT');
    const page = await call(ctx, 'GET', '/customers', { query: { limit: 2 } });
    const forged = `${page.body.nextCursor.slice(0, -2)}xx`;
    expectError(await call(ctx, 'GET', '/customers', { query: { cursor: forged } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/customers', { query: { cursor: page.body.nextCursor, region: 'NG' } }), 400, 'INVALID_INPUT');
    const other = await ctx.newPlatform('Other');
    expectError(await call(ctx, 'GET', '/customers', { auth: other.auth, query: { cursor: page.body.nextCursor } }), 400, 'INVALID_INPUT');
  });

  it('refuses unknown query parameters and malformed filters', async () => {
    expectError(await call(ctx, 'GET', '/customers', { query: { customer_type: 'BUSINESS' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/customers', { query: { createdAfter: 'yesterday' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/customers', { query: { includeDeleted: 'maybe' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', '/customers', { query: { currency: 'XXX' } }), 400, 'INVALID_INPUT');
    for (const empty of ['umaAddress', 'platformCustomerId', 'cursor']) {
      const err = expectError(await call(ctx, 'GET', '/customers', { query: { [empty]: '' } }), 400, 'INVALID_INPUT');
      expect(err.details.fields[0]).toMatchObject({ field: empty, in: 'query' });
    }
  });

  // Last: it deletes customers the tests above count.
  it('hides deleted customers unless includeDeleted, with an exact totalCount either way', async () => {
    const doomed = created.filter((_, i) => i % 25 === 3 || i % 50 === 0); // 15 customers, 5 of them businesses
    for (const c of doomed) expect((await call(ctx, 'DELETE', `/customers/${c.id}`)).status).toBe(200);
    const gone = new Set(doomed.map((c) => c.id));
    expect(gone.size).toBe(15);
    const live = await walk({});
    expect(live.total).toBe(235);
    expect(live.seen.map((c) => c.id)).toEqual(
      [...created]
        .reverse()
        .map((c) => c.id)
        .filter((id) => !gone.has(id)),
    );
    const all = await walk({ includeDeleted: true });
    expect(all.total).toBe(250);
    expect(all.seen.map((c) => c.id)).toEqual([...created].reverse().map((c) => c.id));
    expect(
      all.seen
        .filter((c) => c.isDeleted)
        .map((c) => c.id)
        .sort(),
    ).toEqual([...gone].sort());
    // Under a filter too: the deleted businesses count only with includeDeleted.
    const businesses = created.filter((c) => c.customerType === 'BUSINESS');
    const deletedBusinesses = businesses.filter((c) => gone.has(c.id)).length;
    expect(deletedBusinesses).toBeGreaterThan(0);
    expect((await walk({ customerType: 'BUSINESS' })).total).toBe(businesses.length - deletedBusinesses);
    expect((await walk({ customerType: 'BUSINESS', includeDeleted: true })).total).toBe(businesses.length);
  });
});

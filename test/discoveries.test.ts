import { describe, expect, it } from 'vitest';
import { listDiscoveries } from '../src/modules/discoveries/catalogue.js';
import { call, expectError, testContext } from './helpers/context.js';

interface Entry {
  bankName: string;
  displayName: string;
  country: string;
  currency: string;
}

describe('GET /discoveries', async () => {
  const ctx = await testContext();
  const list = async (query: Record<string, string> = {}, auth?: string) => {
    const res = await call(ctx, 'GET', '/discoveries', { query, auth });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    return res.body.data as Entry[];
  };

  it('answers the whole catalogue as {data}, each entry with exactly the four fields', async () => {
    const all = await list();
    expect(all).toEqual(listDiscoveries());
    expect(all.length).toBeGreaterThan(100);
    for (const e of all) expect(Object.keys(e).sort()).toEqual(['bankName', 'country', 'currency', 'displayName']);
  });

  it.each([
    ['PH', 'PHP'],
    ['NG', 'NGN'],
    ['ZA', 'ZAR'],
    ['US', 'USD'],
    ['MX', 'MXN'],
    ['BR', 'BRL'],
    ['DE', 'EUR'],
    ['GB', 'GBP'],
    ['CA', 'CAD'],
    ['IN', 'INR'],
  ])('lists the banks of %s in %s', async (country, currency) => {
    const byCountry = await list({ country });
    expect(byCountry.length).toBeGreaterThan(0);
    expect(byCountry.every((e) => e.country === country && e.currency === currency)).toBe(true);
    expect(await list({ country, currency })).toEqual(byCountry);
  });

  it('filters by currency across countries, and lists mobile-money operators', async () => {
    const eur = await list({ currency: 'EUR' });
    expect(new Set(eur.map((e) => e.country)).size).toBeGreaterThan(1);
    expect(eur.every((e) => e.currency === 'EUR')).toBe(true);
    const kes = await list({ currency: 'KES' });
    expect(kes.map((e) => e.bankName)).toContain('MPESA');
    expect(kes.every((e) => e.country === 'KE')).toBe(true);
  });

  it('sorts by displayName', async () => {
    const names = (await list({ country: 'NG' })).map((e) => e.displayName.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('answers an empty list for a valid country or combination it has nothing for', async () => {
    expect(await list({ country: 'JP' })).toEqual([]);
    expect(await list({ country: 'NG', currency: 'USD' })).toEqual([]);
    expect(await list({ currency: 'BTC' })).toEqual([]);
  });

  it.each([
    [{ country: 'ph' }, 'country'],
    [{ country: 'XX' }, 'country'],
    [{ country: 'PHL' }, 'country'],
    [{ currency: 'XYZ' }, 'currency'],
    [{ bank: 'BDO' }, 'bank'],
  ])('refuses %j with 400 naming the parameter', async (query, field) => {
    const res = expectError(await call(ctx, 'GET', '/discoveries', { query }), 400, 'INVALID_INPUT');
    expect(res.details.fields[0]).toMatchObject({ field, in: 'query' });
  });

  it('needs credentials; a VIEW token may read', async () => {
    expectError(await call(ctx, 'GET', '/discoveries', { auth: null }), 401, 'UNAUTHORIZED');
    const view = await ctx.platform.token(['VIEW']);
    expect((await list({ country: 'ZA' }, view)).length).toBeGreaterThan(0);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { currency, currencyOfCountry } from '../../common/currencies.js';
import { MOBILE_MONEY_CURRENCIES, mobileMoneyOperators } from '../../identifiers/mobile-money.js';
import { countriesRequiringBankName, isKnownBankName, listDiscoveries } from './catalogue.js';

const all = listDiscoveries();

describe('discovery catalogue', () => {
  it('covers the required countries with a real list each', () => {
    for (const c of ['PH', 'NG', 'ZA', 'US', 'MX', 'BR', 'DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'PT', 'BE', 'GB', 'CA', 'IN']) {
      expect(listDiscoveries({ country: c }).length, c).toBeGreaterThanOrEqual(['IE', 'NL', 'PT', 'BE'].includes(c) ? 9 : 15);
    }
    expect(countriesRequiringBankName).toEqual(['PH', 'NG', 'ZA']);
  });

  it('uses ISO countries and the currency of that country', () => {
    for (const e of all) {
      expect(e.country).toMatch(/^[A-Z]{2}$/);
      expect(countries.isValid(e.country), e.country).toBe(true);
      expect(currencyOfCountry(e.country), `${e.country} ${e.bankName}`).toBe(e.currency);
      expect(currency(e.currency).kind).toBe('FIAT');
    }
  });

  it('has no duplicate bankName within a country, and upper-case names', () => {
    const seen = new Set<string>();
    for (const e of all) {
      const key = `${e.country}:${e.bankName}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(e.bankName).toBe(e.bankName.toUpperCase());
      expect(e.displayName.length).toBeGreaterThan(0);
    }
  });

  it('includes every mobile-money operator, derived from the identifier table', () => {
    for (const cur of MOBILE_MONEY_CURRENCIES) {
      const listed = listDiscoveries({ currency: cur });
      expect(listed.map((e) => `${e.country}:${e.bankName}`).sort()).toEqual(
        mobileMoneyOperators(cur)
          .map((o) => `${o.country}:${o.code}`)
          .sort(),
      );
    }
    expect(listDiscoveries({ country: 'KE' })).toEqual([{ bankName: 'MPESA', displayName: 'Safaricom M-PESA', country: 'KE', currency: 'KES' }]);
  });

  it('filters by country and currency and sorts by displayName', () => {
    const eur = listDiscoveries({ currency: 'EUR' });
    expect(new Set(eur.map((e) => e.country))).toEqual(new Set(['DE', 'FR', 'ES', 'IT', 'NL', 'IE', 'PT', 'BE']));
    expect(listDiscoveries({ country: 'DE', currency: 'USD' })).toEqual([]);
    expect(listDiscoveries({ country: 'ZZ' })).toEqual([]);
    const names = listDiscoveries({ country: 'NG' }).map((e) =>
      e.displayName
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase(),
    );
    expect(names).toEqual([...names].sort());
  });

  it('knows bank names exactly', () => {
    expect(isKnownBankName('PH', 'BDO UNIBANK')).toBe(true);
    expect(isKnownBankName('NG', 'ACCESS BANK')).toBe(true);
    expect(isKnownBankName('ZA', 'STANDARD BANK')).toBe(true);
    expect(isKnownBankName('ZA', 'Standard Bank')).toBe(false);
    expect(isKnownBankName('NG', 'BDO UNIBANK')).toBe(false);
    expect(isKnownBankName('XX', 'ACCESS BANK')).toBe(false);
  });

  it('notes an official source for every data file and for the operators of every mobile-money currency', () => {
    const dir = new URL('./catalogue/', import.meta.url);
    // Table rows of SOURCES.md: first cell → [second cell, third cell].
    const rows = new Map(
      readFileSync(new URL('SOURCES.md', dir), 'utf8')
        .split('\n')
        .filter((l) => /^\| [^-]/.test(l))
        .map((l) =>
          l
            .split('|')
            .slice(1, -1)
            .map((c) => c.trim()),
        )
        .map(([key, ...rest]) => [key, rest] as const),
    );
    const files = readdirSync(dir).filter((f) => /^[A-Z]{2}\.json$/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(17);
    for (const file of files) {
      const [cur, source] = rows.get(file) ?? [];
      expect(source, `${file} has no source row in SOURCES.md`).toMatch(/[A-Za-z].{20,}/);
      expect(cur, file).toBe(listDiscoveries({ country: file.slice(0, 2) })[0].currency);
    }
    for (const cur of MOBILE_MONEY_CURRENCIES) {
      const [operators, source] = rows.get(cur) ?? [];
      expect(source, `${cur} has no source row in SOURCES.md`).toMatch(/[A-Za-z].{20,}/);
      const ops = mobileMoneyOperators(cur);
      const oneCountry = new Set(ops.map((o) => o.country)).size === 1;
      // "A, B" for one country; "SN: A, B; CI: C" across countries.
      const listed = operators!.split(';').flatMap((group) => {
        const [country, codes] = group.includes(':') ? group.split(':') : [ops[0].country, group];
        return codes!.split(',').map((code) => `${country!.trim()}:${code.trim()}`);
      });
      expect(oneCountry || operators!.includes(':'), cur).toBe(true);
      expect(listed.sort(), cur).toEqual(ops.map((o) => `${o.country}:${o.code}`).sort());
    }
  });

  it('returns entries that callers cannot corrupt', () => {
    const [first] = listDiscoveries({ country: 'PH' });
    expect(Object.isFrozen(first)).toBe(true);
  });
});

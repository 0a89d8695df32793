import { describe, expect, it } from 'vitest';
import { MOBILE_MONEY_CURRENCIES, mobileMoneyOperators, mobileMoneyPhoneCountry, validateMobileMoneyPhone, validateMobileMoneyProvider } from './mobile-money.js';

describe('mobile-money operators', () => {
  it('have exactly the counts the spec gives', () => {
    const counts = Object.fromEntries(MOBILE_MONEY_CURRENCIES.map((c) => [c, mobileMoneyOperators(c).length]));
    expect(counts).toMatchObject({ KES: 1, TZS: 2, ZMW: 4, RWF: 2, MWK: 2, UGX: 2 });
    expect(counts.XOF).toBeGreaterThan(0);
  });
  it('use UPPER_SNAKE codes, unique per currency and country', () => {
    for (const c of MOBILE_MONEY_CURRENCIES) {
      const ops = mobileMoneyOperators(c);
      for (const o of ops) expect(o.code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(new Set(ops.map((o) => `${o.country}:${o.code}`)).size).toBe(ops.length);
    }
    expect(mobileMoneyOperators('USD')).toEqual([]);
  });
});

describe('mobile-money phone numbers', () => {
  const ok: [string, string][] = [
    ['KES', '+254712345678'], ['TZS', '+255754321000'], ['ZMW', '+260961234567'], ['RWF', '+250781234567'],
    ['MWK', '+265991234567'], ['UGX', '+256771234567'], ['XOF', '+221771234567'], ['XOF', '+2250712345678'],
    ['XOF', '+22997123456'], ['XOF', '+229971234567'], ['XOF', '+2290197123456'],
  ];
  it.each(ok)('%s accepts %s', (c, p) => expect(validateMobileMoneyPhone(c, p)).toBeNull());
  const bad: [string, string][] = [
    ['KES', '+25471234567'], ['KES', '+2547123456789'], ['KES', '0712345678'], ['TZS', '+254712345678'],
    ['XOF', '+22177123456'], ['XOF', '+225071234567'], ['XOF', '+2299712345'], ['XOF', '+2290297123456'], ['XOF', '+22897123456'],
  ];
  it.each(bad)('%s rejects %s', (c, p) => expect(validateMobileMoneyPhone(c, p)).not.toBeNull());
  it('rejects non-mobile-money currencies', () => expect(validateMobileMoneyPhone('USD', '+254712345678')).not.toBeNull());
  it('finds the XOF country', () => {
    expect(mobileMoneyPhoneCountry('XOF', '+221771234567')).toBe('SN');
    expect(mobileMoneyPhoneCountry('XOF', '+2250712345678')).toBe('CI');
    expect(mobileMoneyPhoneCountry('XOF', '+2290197123456')).toBe('BJ');
  });
});

describe('mobile-money provider', () => {
  it('must be one of the currency operators', () => {
    expect(validateMobileMoneyProvider('KES', 'MPESA')).toBeNull();
    expect(validateMobileMoneyProvider('KES', 'AIRTEL')).toMatch(/MPESA/);
    expect(validateMobileMoneyProvider('ZMW', 'ZAMTEL')).toBeNull();
  });
  it('must serve the phone country for XOF', () => {
    expect(validateMobileMoneyProvider('XOF', 'WAVE', '+221771234567')).toBeNull();
    expect(validateMobileMoneyProvider('XOF', 'MOOV', '+221771234567')).toMatch(/SN/);
    expect(validateMobileMoneyProvider('XOF', 'MOOV', '+2290197123456')).toBeNull();
  });
});

import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  MOBILE_MONEY_CURRENCIES,
  mobileMoneyOperators,
  mobileMoneyPhoneCountry,
  validateMobileMoneyPhone,
  validateMobileMoneyProvider,
} from './mobile-money.js';

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
    ['KES', '+254712345678'],
    ['TZS', '+255754321000'],
    ['ZMW', '+260961234567'],
    ['RWF', '+250781234567'],
    ['MWK', '+265991234567'],
    ['UGX', '+256771234567'],
    ['XOF', '+221771234567'],
    ['XOF', '+2250712345678'],
    ['XOF', '+22997123456'],
    ['XOF', '+229971234567'],
    ['XOF', '+2290197123456'],
  ];
  it.each(ok)('%s accepts %s', (c, p) => expect(validateMobileMoneyPhone(c, p)).toBeNull());
  const bad: [string, string][] = [
    ['KES', '+25471234567'],
    ['KES', '+2547123456789'],
    ['KES', '0712345678'],
    ['TZS', '+254712345678'],
    ['XOF', '+22177123456'],
    ['XOF', '+225071234567'],
    ['XOF', '+2299712345'],
    ['XOF', '+2290297123456'],
    ['XOF', '+22897123456'],
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

describe('mobile-money properties', () => {
  const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  const PREFIX: Record<string, string> = { KES: '+254', TZS: '+255', ZMW: '+260', RWF: '+250', MWK: '+265', UGX: '+256' };
  const single = Object.keys(PREFIX);

  test.prop([fc.constantFrom(...single), digits(0, 14)])('a one-country currency takes its own prefix and exactly 9 digits', (c, d) => {
    expect(validateMobileMoneyPhone(c, PREFIX[c] + d) === null).toBe(d.length === 9);
  });

  test.prop([fc.constantFrom(...single), fc.constantFrom(...single), digits(9, 9)])('another country prefix is refused', (c, other, d) => {
    fc.pre(PREFIX[c] !== PREFIX[other]);
    expect(validateMobileMoneyPhone(c, PREFIX[other] + d)).not.toBeNull();
  });

  test.prop([digits(0, 12)])('XOF: Senegal 9 digits, Ivory Coast 10, Benin 8, 9 or 01 and 8', (d) => {
    expect(validateMobileMoneyPhone('XOF', `+221${d}`) === null).toBe(d.length === 9);
    expect(validateMobileMoneyPhone('XOF', `+225${d}`) === null).toBe(d.length === 10);
    expect(validateMobileMoneyPhone('XOF', `+229${d}`) === null).toBe(d.length === 8 || d.length === 9 || (d.length === 10 && d.startsWith('01')));
  });

  test.prop([fc.constantFrom(...MOBILE_MONEY_CURRENCIES), fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ_'), minLength: 1, maxLength: 10 })])(
    'a provider is accepted exactly when it is one of the currency operators',
    (c, provider) => {
      const codes = new Set(mobileMoneyOperators(c).map((o) => o.code));
      expect(validateMobileMoneyProvider(c, provider) === null).toBe(codes.has(provider));
    },
  );
});

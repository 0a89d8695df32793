import { describe, expect, it } from 'vitest';
import { abaCheckDigit, alpha, isValidRoutingNumber, isValidYymmdd, numeric, toNachaText } from './fields.js';

describe('ABA routing check digit (weights 3, 7, 1)', () => {
  it('accepts real routing numbers and refuses one digit off', () => {
    for (const r of ['121042882', '231380104', '091000019', '026009593', '021000021', '011000015']) expect(isValidRoutingNumber(r)).toBe(true);
    for (const r of ['121042883', '231380105', '021000012', '12104288', '1210428820', 'ABCDEFGHI']) expect(isValidRoutingNumber(r)).toBe(false);
  });

  it('computes the digit that brings the weighted sum to a multiple of ten', () => {
    // 1·3 + 2·7 + 1·1 + 0·3 + 4·7 + 2·1 + 8·3 + 8·7 = 128 → 2
    expect(abaCheckDigit('12104288')).toBe(2);
    expect(abaCheckDigit('00000000')).toBe(0);
    expect(() => abaCheckDigit('1234567')).toThrow(RangeError);
  });
});

describe('field text', () => {
  it('transliterates accents and letters to upper-case ASCII', () => {
    expect(toNachaText('Zoë Ångström')).toBe('ZOE ANGSTROM');
    expect(toNachaText('François Müller-Łukasz')).toBe('FRANCOIS MULLER-LUKASZ');
    expect(toNachaText('Straße Æbeltoft Øre')).toBe('STRASSE AEBELTOFT ORE');
    expect(toNachaText('O’Neil “Ltd” – ﬁne')).toBe('O\'NEIL "LTD" - FINE');
  });

  it('replaces what it cannot write by one space each, so nothing after it moves', () => {
    expect(toNachaText('A李B')).toBe('A B');
    expect(toNachaText('tab\there')).toBe('TAB HERE');
    expect(toNachaText('😀x')).toBe(' X');
  });

  it('pads alphanumeric fields right with spaces and numeric fields left with zeros', () => {
    expect(alpha('AB', 5)).toBe('AB   ');
    expect(numeric(42n, 6)).toBe('000042');
    expect(numeric(7, 3)).toBe('007');
    expect(() => alpha('ABCDEF', 5)).toThrow(RangeError);
    expect(() => numeric(10n ** 10n, 10)).toThrow(RangeError);
    expect(() => numeric(-1n, 10)).toThrow(RangeError);
  });

  it('knows calendar dates', () => {
    expect(isValidYymmdd('280229')).toBe(true);
    expect(isValidYymmdd('270229')).toBe(false);
    expect(isValidYymmdd('261131')).toBe(false);
    expect(isValidYymmdd('261301')).toBe(false);
    expect(isValidYymmdd('26113')).toBe(false);
  });
});

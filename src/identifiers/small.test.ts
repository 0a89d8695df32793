import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { validateCaAccountNumber, validateCaInstitutionNumber, validateCaTransitNumber } from './canada.js';
import { nubanCheckDigit, validateNgnAccountNumber, validatePhpAccountNumber, validateZarAccountNumber } from './bank-digits.js';
import { validateUpiVpa } from './upi.js';

describe('UPI VPA', () => {
  it('accepts handle@psp', () => {
    for (const v of ['rahul.sharma@okaxis', 'ab@ybl', '9876543210@paytm', 'shop_12-x@icici']) expect(validateUpiVpa(v), v).toBeNull();
  });
  it('rejects the rest', () => {
    for (const v of ['a@okaxis', 'rahul@ok1', 'rahul', 'rahul@', '@okaxis', 'ra hul@okaxis', `${'a'.repeat(250)}@okaxis`])
      expect(validateUpiVpa(v), v).not.toBeNull();
  });
});

describe('Canada', () => {
  it('institution 3, transit 5, account 7..12 digits', () => {
    expect(validateCaInstitutionNumber('001')).toBeNull();
    expect(validateCaInstitutionNumber('01')).not.toBeNull();
    expect(validateCaTransitNumber('00011')).toBeNull();
    expect(validateCaTransitNumber('0001')).not.toBeNull();
    expect(validateCaAccountNumber('1234567')).toBeNull();
    expect(validateCaAccountNumber('123456789012')).toBeNull();
    expect(validateCaAccountNumber('123456')).not.toBeNull();
    expect(validateCaAccountNumber('1234567890123')).not.toBeNull();
  });
});

describe('digit-only bank accounts', () => {
  it('PHP 8..16, NGN 10, ZAR 9..13', () => {
    expect(validatePhpAccountNumber('12345678')).toBeNull();
    expect(validatePhpAccountNumber('1234567890123456')).toBeNull();
    expect(validatePhpAccountNumber('1234567')).not.toBeNull();
    expect(validatePhpAccountNumber('12345678901234567')).not.toBeNull();
    expect(validateNgnAccountNumber('0123456789')).toBeNull();
    expect(validateNgnAccountNumber('012345678')).not.toBeNull();
    expect(validateNgnAccountNumber('012345678a')).not.toBeNull();
    expect(validateZarAccountNumber('123456789')).toBeNull();
    expect(validateZarAccountNumber('1234567890123')).toBeNull();
    expect(validateZarAccountNumber('12345678')).not.toBeNull();
  });
  it('computes the NUBAN check digit: weights 3,7,3,3,7,3,3,7,3,3,7,3 over bank code + serial, 10 − sum mod 10', () => {
    // 044 + 000000001: 0·3+4·7+4·3 + 1·3 = 43 → 10 − 3 = 7
    expect(nubanCheckDigit('044', '000000001')).toBe(7);
    // sum 0 → check digit 0, not 10
    expect(nubanCheckDigit('000', '000000000')).toBe(0);
  });
});

describe('digit-count properties', () => {
  const digits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 20 });
  const rules: Array<[string, (v: string) => string | null, number, number]> = [
    ['PHP account', validatePhpAccountNumber, 8, 16],
    ['NGN account', validateNgnAccountNumber, 10, 10],
    ['ZAR account', validateZarAccountNumber, 9, 13],
    ['CA institution', validateCaInstitutionNumber, 3, 3],
    ['CA transit', validateCaTransitNumber, 5, 5],
    ['CA account', validateCaAccountNumber, 7, 12],
  ];
  test.prop([fc.constantFrom(...rules), digits])('digits are accepted exactly when their count is in range', ([, validate, min, max], d) => {
    expect(validate(d) === null).toBe(d.length >= min && d.length <= max);
  });
  test.prop([fc.constantFrom(...rules), digits, fc.constantFrom(...' -.aO')])('any other character is refused', ([, validate, min], d, c) => {
    const v = d.padEnd(min, '1');
    const at = v.length ? d.length % v.length : 0;
    expect(validate(v.slice(0, at) + c + v.slice(at + 1))).not.toBeNull();
  });
});

describe('UPI properties', () => {
  const local = fc.string({ unit: fc.constantFrom(...'abcXYZ019.-_'), minLength: 2, maxLength: 40 });
  const handle = fc.string({ unit: fc.constantFrom(...'abcdefxyzOKAXIS'), minLength: 2, maxLength: 12 });
  test.prop([local, handle])('name@handle with allowed characters is a VPA', (name, psp) => {
    expect(validateUpiVpa(`${name}@${psp}`)).toBeNull();
  });
  test.prop([local, handle, fc.constantFrom('1', '.', '-', '@')])('a handle with anything but letters is refused', (name, psp, c) => {
    expect(validateUpiVpa(`${name}@${psp}${c}`)).not.toBeNull();
  });
});

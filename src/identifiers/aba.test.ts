import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { abaCheckDigit, validateAbaRoutingNumber, validateUsAccountNumber } from './aba.js';

const eightDigits = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 8, maxLength: 8 }).filter((s) => s !== '00000000');

describe('ABA routing number', () => {
  it('accepts published routing numbers', () => {
    for (const rn of ['021000021', '011000015', '026009593', '121000358', '111000025']) expect(validateAbaRoutingNumber(rn)).toBeNull();
  });
  it('rejects bad shapes and checksums', () => {
    expect(validateAbaRoutingNumber('02100002')).toMatch(/9 digits/);
    expect(validateAbaRoutingNumber('02100002a')).toMatch(/9 digits/);
    expect(validateAbaRoutingNumber('021000022')).toBe('routing number checksum is invalid');
    expect(validateAbaRoutingNumber('000000000')).toMatch(/zeros/);
  });

  test.prop([eightDigits])('any 8 digits plus the computed check digit validate', (first) => {
    expect(validateAbaRoutingNumber(first + abaCheckDigit(first))).toBeNull();
  });

  test.prop([eightDigits, fc.integer({ min: 0, max: 8 }), fc.integer({ min: 1, max: 9 })])(
    'changing any single digit of a valid number breaks it',
    (first, pos, delta) => {
      const valid = first + abaCheckDigit(first);
      const changed = valid.slice(0, pos) + String((Number(valid[pos]) + delta) % 10) + valid.slice(pos + 1);
      // weights 3, 7, 1 are all coprime to 10, so every single-digit change moves the sum off 0 mod 10
      expect(validateAbaRoutingNumber(changed)).not.toBeNull();
    },
  );
});

describe('US account number', () => {
  it('takes 4 to 17 digits', () => {
    expect(validateUsAccountNumber('1234')).toBeNull();
    expect(validateUsAccountNumber('12345678901234567')).toBeNull();
    expect(validateUsAccountNumber('123')).not.toBeNull();
    expect(validateUsAccountNumber('123456789012345678')).not.toBeNull();
    expect(validateUsAccountNumber('12 34')).not.toBeNull();
  });
});

import { fc, test } from '@fast-check/vitest';
import { clabe } from 'clabe-validator';
import { describe, expect, it } from 'vitest';
import { validateClabe } from './clabe.js';

describe('CLABE', () => {
  it('accepts public examples', () => {
    expect(validateClabe('002010077777777771')).toBeNull();
    expect(validateClabe('032180000118359719')).toBeNull();
  });
  it('rejects bad shapes, unknown banks and check digits', () => {
    expect(validateClabe('00201007777777777')).toMatch(/18 digits/);
    expect(validateClabe('002010077777777772')).toMatch(/check digit/);
    const unknownBank = '00401007777777777'; // 004 is not an assigned bank code
    // check digit by hand (weights 3, 7, 1, products mod 10): the library refuses unknown banks
    const sum = [...unknownBank].reduce((s, d, i) => s + ((Number(d) * [3, 7, 1][i % 3]) % 10), 0);
    expect(validateClabe(unknownBank + ((10 - (sum % 10)) % 10))).toMatch(/bank/);
  });

  const account = fc.integer({ min: 0, max: 99_999_999_999 });
  test.prop([account])('calculated CLABEs validate', (acct) => {
    expect(validateClabe(clabe.calculate(2, 180, acct))).toBeNull();
  });
  test.prop([account, fc.integer({ min: 6, max: 16 }), fc.integer({ min: 1, max: 9 })])('a single changed account digit fails', (acct, pos, delta) => {
    const c = clabe.calculate(2, 180, acct);
    const changed = c.slice(0, pos) + String((Number(c[pos]) + delta) % 10) + c.slice(pos + 1);
    // weights 3, 7, 1 are coprime to 10
    expect(validateClabe(changed)).not.toBeNull();
  });
});

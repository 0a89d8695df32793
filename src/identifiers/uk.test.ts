import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { normalizeSortCode, validateSortCode, validateUkAccountNumber, validateUkModulus } from './uk.js';

describe('UK sort code and account', () => {
  it('checks shapes', () => {
    expect(validateSortCode('601613')).toBeNull();
    expect(validateSortCode('60-16-13')).toBeNull();
    expect(validateSortCode('60-1613')).not.toBeNull();
    expect(validateSortCode('60161')).not.toBeNull();
    expect(normalizeSortCode('60-16-13')).toBe('601613');
    expect(validateUkAccountNumber('31926819')).toBeNull();
    expect(validateUkAccountNumber('3192681')).not.toBeNull();
  });
  it('runs the Vocalink modulus check (published vectors)', () => {
    expect(validateUkModulus('089999', '66374958')).toBeNull();
    expect(validateUkModulus('107999', '88837491')).toBeNull();
    expect(validateUkModulus('60-16-13', '31926819')).toBeNull(); // NatWest example behind GB29NWBK60161331926819
    expect(validateUkModulus('089999', '66374959')).not.toBeNull();
    expect(validateUkModulus('601613', '31926818')).not.toBeNull();
  });
  test.prop([fc.integer({ min: 0, max: 99_999_999 })])('a NatWest-range account passes only if its MOD11 sum is 0', (n) => {
    const acct = String(n).padStart(8, '0');
    const w = [8, 7, 6, 5, 4, 3, 2, 1]; // Vocalink weights for 601403–608028 (MOD11), sort code weights are 0
    const sum = [...acct].reduce((s, d, i) => s + Number(d) * w[i], 0);
    expect(validateUkModulus('601613', acct) === null).toBe(sum % 11 === 0);
  });
});

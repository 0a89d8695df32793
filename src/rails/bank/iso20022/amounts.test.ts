import { describe, expect, it } from 'vitest';
import { currencyDecimals, formatAmount, formatControlSum, parseAmount } from './amounts.js';

describe('ISO 20022 amounts', () => {
  it('formats minor units exactly', () => {
    expect(formatAmount(1n, 2)).toBe('0.01');
    expect(formatAmount(123456n, 2)).toBe('1234.56');
    expect(formatAmount(9_000_000_000_000_000n, 2)).toBe('90000000000000.00');
    expect(formatAmount(5000n, 0)).toBe('5000');
    expect(formatAmount(1n, 3)).toBe('0.001');
  });

  it('refuses what no ISO 20022 amount can hold', () => {
    expect(() => formatAmount(-1n, 2)).toThrow(/negative/);
    expect(() => formatAmount(1n, 8)).toThrow(/at most 5/);
    expect(() => formatAmount(10n ** 18n, 0)).toThrow(/more than 18 digits/);
    expect(formatAmount(10n ** 18n - 1n, 0)).toBe('999999999999999999');
  });

  it('parses decimal text to minor units exactly, as the schema writes decimals', () => {
    expect(parseAmount('90000000000000.00', 2)).toBe(9_000_000_000_000_000n);
    expect(parseAmount('0.01', 2)).toBe(1n);
    expect(parseAmount('10.5', 2)).toBe(1050n);
    expect(parseAmount('+007.50', 2)).toBe(750n);
    expect(parseAmount('12.', 2)).toBe(1200n);
    expect(parseAmount('.5', 2)).toBe(50n);
    expect(parseAmount('1.500', 2)).toBe(150n);
    expect(parseAmount('5000', 0)).toBe(5000n);
    // Beyond a double's 53 bits: a float would have lost the last cent.
    expect(parseAmount('90071992547409.93', 2)).toBe(9007199254740993n);
  });

  it('refuses more decimals than the currency has, and anything that is not a plain decimal', () => {
    expect(() => parseAmount('10.001', 2)).toThrow(/more decimals/);
    expect(() => parseAmount('5000.5', 0)).toThrow(/more decimals/);
    for (const bad of ['', '.', '-1.00', '1e3', '1,00', '1 000.00', 'NaN', '0x10']) expect(() => parseAmount(bad, 2), bad).toThrow(RangeError);
  });

  it('knows the minor unit of currencies Corridor does not hold', () => {
    expect(currencyDecimals('EUR')).toBe(2);
    expect(currencyDecimals('JPY')).toBe(0);
    expect(currencyDecimals('UGX')).toBe(0);
    expect(currencyDecimals('KWD')).toBe(3);
    expect(currencyDecimals('CHF')).toBe(2);
    expect(() => currencyDecimals('USDC')).toThrow(RangeError);
  });

  it('adds amounts of different currencies exactly for a control sum', () => {
    expect(
      formatControlSum([
        { amount: 1n, decimals: 2 },
        { amount: 5000n, decimals: 0 },
        { amount: 1n, decimals: 3 },
      ]),
    ).toBe('5000.011');
    expect(
      formatControlSum([
        { amount: 9_000_000_000_000_000n, decimals: 2 },
        { amount: 1n, decimals: 2 },
      ]),
    ).toBe('90000000000000.01');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  ceilRational,
  compare,
  DecimalFormatError,
  div,
  divCeil,
  divFloor,
  divHalfEven,
  floorRational,
  mul,
  parseDecimal,
  rational,
  sub,
  toDisplayNumber,
  toMajorUnits,
  toSignificant,
} from './money.js';

describe('parseDecimal', () => {
  it('parses plain decimals exactly and reduces them', () => {
    expect(parseDecimal('0.92')).toEqual({ num: 23n, den: 25n });
    expect(parseDecimal('100000')).toEqual({ num: 100000n, den: 1n });
    expect(parseDecimal('0.003')).toEqual({ num: 3n, den: 1000n });
    expect(parseDecimal('0')).toEqual({ num: 0n, den: 1n });
    expect(parseDecimal('0.00001')).toEqual({ num: 1n, den: 100000n });
    expect(parseDecimal('12.500')).toEqual({ num: 25n, den: 2n });
    expect(parseDecimal('-1.5', { allowNegative: true })).toEqual({ num: -3n, den: 2n });
  });

  it.each(['', ' 1', '1 ', '+1', '-1', '.5', '5.', '1e3', '1,5', '01', '00.5', '0x10', 'NaN', 'Infinity', '1.2.3', '１'])('rejects %j', (s) => {
    expect(() => parseDecimal(s)).toThrow(DecimalFormatError);
  });

  it('rejects non-strings and over-long input', () => {
    expect(() => parseDecimal(0.5)).toThrow(DecimalFormatError);
    expect(() => parseDecimal(null)).toThrow(DecimalFormatError);
    expect(() => parseDecimal('1'.repeat(41))).toThrow(/longer than 40/);
    expect(parseDecimal('1'.repeat(41), { maxLength: 41 }).num).toBe(BigInt('1'.repeat(41)));
  });

  it('round-trips with toSignificant', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 18 }), (m, scale) => {
        const r = rational(m, 10n ** BigInt(scale));
        const s = toSignificant(r, 40);
        expect(compare(parseDecimal(s), r)).toBe(0);
      }),
    );
  });
});

describe('rational arithmetic', () => {
  it('normalises sign and lowest terms', () => {
    expect(rational(4n, -6n)).toEqual({ num: -2n, den: 3n });
    expect(() => rational(1n, 0n)).toThrow(RangeError);
    expect(add(rational(1n, 3n), rational(1n, 6n))).toEqual({ num: 1n, den: 2n });
    expect(sub(rational(1n, 3n), rational(1n, 2n))).toEqual({ num: -1n, den: 6n });
    expect(mul(parseDecimal('0.92'), parseDecimal('100'))).toEqual({ num: 92n, den: 1n });
    expect(div(parseDecimal('0.79'), parseDecimal('0.92'))).toEqual({ num: 79n, den: 92n });
    expect(() => div(rational(1n), rational(0n))).toThrow(RangeError);
    expect(compare(rational(1n, 3n), rational(33n, 100n))).toBe(1);
  });
});

describe('integer division with explicit rounding', () => {
  const nonZero = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).filter((d) => d !== 0n);
  const any = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });

  it('floor and ceil bracket the exact quotient for every sign', () => {
    fc.assert(
      fc.property(any, nonZero, (n, d) => {
        const f = divFloor(n, d);
        const c = divCeil(n, d);
        // f <= n/d < f + 1, written without division: compare f*d with n according to sign of d
        if (d > 0n) {
          expect(f * d <= n && n < (f + 1n) * d).toBe(true);
          expect((c - 1n) * d < n && n <= c * d).toBe(true);
        } else {
          expect(f * d >= n && n > (f + 1n) * d).toBe(true);
          expect((c - 1n) * d > n && n >= c * d).toBe(true);
        }
        expect(c - f).toBe(n % d === 0n ? 0n : 1n);
        expect(floorRational(rational(n, d))).toBe(f);
        expect(ceilRational(rational(n, d))).toBe(c);
      }),
    );
  });

  it('half-even rounds to nearest and ties to even', () => {
    expect([5n, 15n, 25n, -5n, -15n, 14n, 16n, -14n, -16n].map((n) => divHalfEven(n, 10n))).toEqual([0n, 2n, 2n, 0n, -2n, 1n, 2n, -1n, -2n]);
    expect(divHalfEven(5n, -10n)).toBe(0n);
    expect(divHalfEven(15n, -10n)).toBe(-2n);
    fc.assert(
      fc.property(any, nonZero, (n, d) => {
        const q = divHalfEven(n, d);
        const dist2 = 2n * (n - q * d) * (d > 0n ? 1n : -1n); // 2 × (n/d − q) × |d|
        const ad = d > 0n ? d : -d;
        expect(dist2 >= -ad && dist2 <= ad).toBe(true);
        if (dist2 === ad || dist2 === -ad) expect(q % 2n).toBe(0n);
      }),
    );
  });

  it('throws on division by zero', () => {
    expect(() => divFloor(1n, 0n)).toThrow(RangeError);
    expect(() => divCeil(1n, 0n)).toThrow(RangeError);
    expect(() => divHalfEven(1n, 0n)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it('formats significant digits without exponent or trailing zeros', () => {
    expect(toSignificant(rational(25n, 23n), 12)).toBe('1.08695652174');
    expect(toSignificant(rational(100000n), 12)).toBe('100000');
    expect(toSignificant(rational(1n, 100000n), 12)).toBe('0.00001');
    expect(toSignificant(rational(2n, 3n), 4)).toBe('0.6667');
    expect(toSignificant(rational(9999n, 1000n), 3)).toBe('10');
    expect(toSignificant(rational(123456789n), 3)).toBe('123000000');
    expect(toSignificant(rational(-1n, 8n), 2)).toBe('-0.12');
    expect(toSignificant(rational(0n), 5)).toBe('0');
    expect(toSignificant(rational(1n, 10n ** 20n), 3)).toBe('0.00000000000000000001');
    expect(toDisplayNumber(rational(23n, 250000n))).toBe(0.000092);
  });

  it('keeps the requested number of significant digits', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 1, max: 20 }), (n, d, digits) => {
        const s = toSignificant(rational(n, d), digits);
        const sig = s.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
        expect(sig.length).toBeLessThanOrEqual(digits);
        // error at most half a unit in the last place: |s − n/d| <= 0.5 × 10^(e − digits + 1), 10^e <= n/d < 10^(e+1)
        let e = 0;
        while (compare(rational(n, d), rational(10n ** BigInt(Math.max(e, 0)), 10n ** BigInt(Math.max(-e, 0)))) < 0) e--;
        while (compare(rational(n, d), rational(10n ** BigInt(Math.max(e + 1, 0)), 10n ** BigInt(Math.max(-(e + 1), 0)))) >= 0) e++;
        const k = e - digits + 1;
        const ulpHalf = k >= 0 ? rational(10n ** BigInt(k), 2n) : rational(1n, 2n * 10n ** BigInt(-k));
        const err = sub(parseDecimal(s, { maxLength: 200 }), rational(n, d));
        expect(compare(err.num < 0n ? rational(-err.num, err.den) : err, ulpHalf)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('formats minor units as major units', () => {
    expect(toMajorUnits(1234n, 2)).toBe('12.34');
    expect(toMajorUnits(5n, 2)).toBe('0.05');
    expect(toMajorUnits(-5n, 2)).toBe('-0.05');
    expect(toMajorUnits(3700n, 0)).toBe('3700');
    expect(toMajorUnits(1n, 8)).toBe('0.00000001');
    expect(toMajorUnits(9_000_000_000_000_000n, 8)).toBe('90000000.00000000');
    expect(toMajorUnits(0n, 6)).toBe('0.000000');
  });
});

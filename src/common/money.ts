/**
 * Exact money and rate arithmetic (ARCHITECTURE rule 3).
 *
 * Amounts are `bigint` minor units. Rates and fee fractions are exact rationals parsed from decimal
 * strings; no float ever touches an amount. Every division names its rounding: `divFloor`,
 * `divCeil` or `divHalfEven`. The only way out to a JavaScript number is `toDisplayNumber`, for
 * display fields (rate multipliers in JSON), never for an amount.
 */

/** An exact rational number num/den: den > 0, reduced to lowest terms. */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

/** A decimal string that is not in the accepted format (see `parseDecimal`). */
export class DecimalFormatError extends Error {
  override readonly name = 'DecimalFormatError';
  constructor(
    readonly input: unknown,
    reason: string,
  ) {
    super(`invalid decimal ${JSON.stringify(typeof input === 'string' ? input.slice(0, 50) : String(input))}: ${reason}`);
  }
}

function abs(a: bigint): bigint {
  return a < 0n ? -a : a;
}

export function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** 10^n as a bigint (n a non-negative integer). */
export function pow10(n: number): bigint {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`pow10: bad exponent ${n}`);
  return 10n ** BigInt(n);
}

/** The rational num/den, normalised (den > 0, lowest terms). Throws RangeError for den = 0. */
export function rational(num: bigint, den: bigint = 1n): Rational {
  if (den === 0n) throw new RangeError('rational: zero denominator');
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  const g = gcd(num, den);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

export const ZERO: Rational = Object.freeze({ num: 0n, den: 1n });
export const ONE: Rational = Object.freeze({ num: 1n, den: 1n });

const DECIMAL = /^(-)?(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/**
 * Parses a plain decimal string ("0.9215", "100000", "0.003") to an exact rational.
 * Accepted: digits, an optional fractional part after one dot, no leading zeros other than a
 * single "0" before the dot, no sign (unless allowNegative), no exponent, no spaces, at most
 * maxLength characters (default 40). Throws DecimalFormatError otherwise.
 */
export function parseDecimal(text: unknown, opts: { allowNegative?: boolean; maxLength?: number } = {}): Rational {
  if (typeof text !== 'string') throw new DecimalFormatError(text, 'not a string');
  const maxLength = opts.maxLength ?? 40;
  if (text.length === 0) throw new DecimalFormatError(text, 'empty');
  if (text.length > maxLength) throw new DecimalFormatError(text, `longer than ${maxLength} characters`);
  const m = DECIMAL.exec(text);
  if (!m) throw new DecimalFormatError(text, 'expected digits with an optional fractional part, e.g. "0.92"');
  if (m[1] && !opts.allowNegative) throw new DecimalFormatError(text, 'negative');
  const frac = m[3] ?? '';
  const num = BigInt(m[2] + frac);
  return rational(m[1] ? -num : num, pow10(frac.length));
}

export function add(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function sub(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

/** a / b; throws RangeError when b is zero. */
export function div(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('div: division by zero');
  return rational(a.num * b.den, a.den * b.num);
}

export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function isPositive(a: Rational): boolean {
  return a.num > 0n && a.den > 0n;
}

function checkDivisor(d: bigint): void {
  if (d === 0n) throw new RangeError('division by zero');
}

/** floor(n / d), for any signs. */
export function divFloor(n: bigint, d: bigint): bigint {
  checkDivisor(d);
  const q = n / d;
  return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}

/** ceil(n / d), for any signs. */
export function divCeil(n: bigint, d: bigint): bigint {
  checkDivisor(d);
  const q = n / d;
  return n % d !== 0n && n < 0n === d < 0n ? q + 1n : q;
}

/** n / d rounded to the nearest integer, ties to the even neighbour (banker's rounding). */
export function divHalfEven(n: bigint, d: bigint): bigint {
  checkDivisor(d);
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = divFloor(n, d);
  const twice = 2n * (n - q * d); // 0 <= twice < 2d
  if (twice > d || (twice === d && q % 2n !== 0n)) return q + 1n;
  return q;
}

export function floorRational(r: Rational): bigint {
  return divFloor(r.num, r.den);
}

export function ceilRational(r: Rational): bigint {
  return divCeil(r.num, r.den);
}

/**
 * The rational as a plain decimal string rounded (half-even) to `digits` significant digits,
 * without trailing zeros or exponent: 1/0.92 with 12 digits → "1.08695652174"; 100000 → "100000".
 * For display only.
 */
export function toSignificant(r: Rational, digits: number): string {
  if (!Number.isInteger(digits) || digits < 1 || digits > 100) throw new RangeError(`toSignificant: bad digits ${digits}`);
  if (r.num === 0n) return '0';
  const sign = r.num < 0n ? '-' : '';
  const n = abs(r.num);
  const d = r.den;
  // e = floor(log10(n/d)), so 10^e <= n/d < 10^(e+1)
  let e = n.toString().length - d.toString().length;
  if (e >= 0 ? n < d * pow10(e) : n * pow10(-e) < d) e -= 1;
  const shift = digits - 1 - e; // scaled = round(n/d * 10^shift) has `digits` digits
  let scaled = shift >= 0 ? divHalfEven(n * pow10(shift), d) : divHalfEven(n, d * pow10(-shift));
  let k = -shift; // value = scaled * 10^k
  if (scaled === pow10(digits)) {
    scaled /= 10n;
    k += 1;
  }
  let s: string;
  if (k >= 0) {
    s = scaled.toString() + '0'.repeat(k);
  } else {
    const raw = scaled.toString().padStart(-k + 1, '0');
    const int = raw.slice(0, raw.length + k);
    const frac = raw.slice(raw.length + k).replace(/0+$/, '');
    s = frac ? `${int}.${frac}` : int;
  }
  return sign + s;
}

/**
 * A JavaScript number close to the rational (17 significant digits, then the nearest double).
 * For display fields only (e.g. rateDetails multipliers); never use the result for an amount.
 */
export function toDisplayNumber(r: Rational): number {
  return Number(toSignificant(r, 17));
}

/** Minor units as a major-unit decimal string with exactly `decimals` places: (1234n, 2) → "12.34". */
export function toMajorUnits(amount: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 30) throw new RangeError(`toMajorUnits: bad decimals ${decimals}`);
  const sign = amount < 0n ? '-' : '';
  const digits = abs(amount).toString();
  if (decimals === 0) return sign + digits;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}

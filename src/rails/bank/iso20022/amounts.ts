/**
 * Decimal amounts in ISO 20022 files, to and from bigint minor units, by string arithmetic only:
 * a float never touches an amount (ARCHITECTURE rule 3).
 */
import { currency as corridorCurrency, isSupportedCurrency } from '../../../common/currencies.js';

/**
 * ISO 4217 currencies whose minor unit is not 2 and that Corridor's own table (which wins) may not
 * list: a bank file can carry any of them, and guessing 2 for JPY would be off by a hundred.
 */
const ISO_4217_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** The most fraction digits the ISO 20022 amount types allow (ActiveOrHistoricCurrencyAndAmount). */
export const MAX_XSD_FRACTION_DIGITS = 5;
/** The most digits in all the ISO 20022 amount and decimal types allow. */
export const MAX_XSD_TOTAL_DIGITS = 18;

const CURRENCY_CODE = /^[A-Z]{3}$/;

/**
 * The minor-unit digits of a currency: Corridor's table first, then the ISO 4217 exceptions, then 2
 * (the minor unit of every other ISO 4217 currency). Throws RangeError for a code that is not
 * three capital letters, which no ISO 20022 amount can carry.
 */
export function currencyDecimals(code: string): number {
  if (!CURRENCY_CODE.test(code)) throw new RangeError(`not an ISO 4217 currency code: ${JSON.stringify(code)}`);
  if (isSupportedCurrency(code)) return corridorCurrency(code).decimals;
  return ISO_4217_EXCEPTIONS[code] ?? 2;
}

/**
 * Formats minor units as the decimal text of an ISO 20022 amount: 123456n with 2 decimals is
 * "1234.56", 5n is "0.05", 7n with 0 decimals is "7". Throws RangeError for a negative amount, for
 * more decimals than the schema allows, or for more than 18 digits.
 */
export function formatAmount(minor: bigint, decimals: number): string {
  if (minor < 0n) throw new RangeError('an ISO 20022 amount is never negative (the direction is a separate indicator)');
  const text = formatDecimal(minor, decimals);
  if (decimals > MAX_XSD_FRACTION_DIGITS) throw new RangeError(`${decimals} decimals: ISO 20022 amounts allow at most ${MAX_XSD_FRACTION_DIGITS}`);
  if (text.replace('.', '').replace(/^0+(?=\d)/, '').length > MAX_XSD_TOTAL_DIGITS) {
    throw new RangeError(`${text} has more than ${MAX_XSD_TOTAL_DIGITS} digits`);
  }
  return text;
}

/** Minor units (any sign) as a plain decimal with exactly `decimals` fraction digits. */
export function formatDecimal(minor: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`bad decimals ${decimals}`);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString();
  if (decimals === 0) return sign + digits;
  const padded = digits.padStart(decimals + 1, '0');
  return `${sign}${padded.slice(0, -decimals)}.${padded.slice(-decimals)}`;
}

// What xs:decimal allows, without the sign: "12", "12.5", "12.", ".5", leading zeros.
const XSD_DECIMAL = /^\+?(\d*)(?:\.(\d*))?$/;

/**
 * Reads an xs:decimal amount as minor units of a currency with `decimals` digits. Tolerant of what
 * the schema allows ("+1.50", "001.5", "1.500"), exact, and refuses what would lose money: a sign
 * other than "+", an exponent, or a non-zero digit beyond the currency's minor unit ("10.001" EUR).
 */
export function parseAmount(text: string, decimals: number): bigint {
  const trimmed = text.trim();
  const m = XSD_DECIMAL.exec(trimmed);
  const whole = m?.[1] ?? '';
  const frac = m?.[2] ?? '';
  if (!m || (whole === '' && frac === '')) throw new RangeError(`not a decimal amount: ${JSON.stringify(text.slice(0, 40))}`);
  const excess = frac.slice(decimals);
  if (/[1-9]/.test(excess)) throw new RangeError(`${trimmed} has more decimals than the currency's ${decimals}`);
  const kept = frac.slice(0, decimals).padEnd(decimals, '0');
  return BigInt((whole || '0') + kept);
}

/**
 * The control sum of amounts in possibly different currencies, as ISO 20022 defines it: the plain
 * arithmetic total of the decimal amounts, "irrespective of currencies". Exact: every amount is
 * brought to the largest number of decimals among them before adding.
 */
export function formatControlSum(amounts: readonly { amount: bigint; decimals: number }[]): string {
  const scale = Math.max(0, ...amounts.map((a) => a.decimals));
  let total = 0n;
  for (const a of amounts) total += a.amount * 10n ** BigInt(scale - a.decimals);
  const text = formatDecimal(total, scale);
  if (text.replace(/[-.]/g, '').replace(/^0+(?=\d)/, '').length > MAX_XSD_TOTAL_DIGITS) {
    throw new RangeError(`control sum ${text} has more than ${MAX_XSD_TOTAL_DIGITS} digits`);
  }
  return text;
}

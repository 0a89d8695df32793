/**
 * UMA prices a receiving currency as a multiplier: millisatoshis per smallest unit of that
 * currency, committed to by the receiver for the life of an invoice. Corridor publishes it with
 * at most MULTIPLIER_DECIMALS decimals, so an invoice's amount (amount × multiplier + fee) is an
 * exact integer computation on both sides, never a float.
 */
import { currency } from '../../common/currencies.js';
import { divHalfEven, mul, parseDecimal, pow10, rational, type Rational } from '../../common/money.js';
import { MSATS_PER_BTC } from '../../fx/pricing.js';
import { RatesUnavailableError, type RateSource } from '../../fx/rates.js';

export const MULTIPLIER_DECIMALS = 3;
const SCALE = pow10(MULTIPLIER_DECIMALS);

/** The multiplier of `code` at the rate source's current BTC rate, or null when it has none. */
export async function multiplierOf(rates: RateSource, code: string): Promise<Rational | null> {
  const decimals = currency(code).decimals;
  let btcPerUnit: Rational;
  if (code === 'BTC') btcPerUnit = rational(1n);
  else {
    try {
      btcPerUnit = (await rates.getRate(code, 'BTC')).rate;
    } catch (e) {
      if (e instanceof RatesUnavailableError) return null;
      throw e;
    }
  }
  // msats per minor unit = BTC per major unit × msats per BTC / 10^decimals, to MULTIPLIER_DECIMALS.
  const exact = mul(btcPerUnit, rational(MSATS_PER_BTC * SCALE, pow10(decimals)));
  const scaled = divHalfEven(exact.num, exact.den);
  return scaled > 0n ? rational(scaled, SCALE) : null;
}

/** As JSON carries it: a number with at most MULTIPLIER_DECIMALS decimals (exact for any real rate). */
export const multiplierNumber = (m: Rational) => Number(m.num) / Number(m.den);

/** A multiplier read from the wire: finite, positive, exact as written. */
export function parseMultiplier(value: unknown): Rational | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  try {
    return parseDecimal(String(value));
  } catch {
    return null; // exponent notation: far outside any real rate
  }
}

/** amount × multiplier + fee, in millisatoshis, rounded half up (as the UMA SDK rounds). */
export function invoiceMsats(amount: bigint, multiplier: Rational, feeMsats: bigint): bigint {
  const n = amount * multiplier.num;
  const d = multiplier.den;
  return (2n * n + d) / (2n * d) + feeMsats;
}

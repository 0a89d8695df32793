/**
 * Quote pricing: pure, exact functions (no I/O, no floats on amounts). docs/pricing.md explains
 * the model to integrators; this comment is the precise version.
 *
 * Notation (all amounts bigint minor units):
 *   S  sending amount (totalSendingAmount)             F  serviceFixedFee (sending units)
 *   v  serviceVariableRate = vn/vd, 0 <= v < 1          C  counterpartyFixedFee (receiving units)
 *   R  receiving minor units per 1 sending minor unit = rate × 10^dr / 10^ds = A/B (exact)
 *
 *   V(S) = ceil(S × v)                       variable fee, rounded up (against the customer by < 1 unit)
 *   X(S) = S − F − V(S)                      amount converted
 *   f(S) = floor(X(S) × R) − C               amount received, rounded down
 *   feesIncluded = F + V(S), so S = X(S) + feesIncluded exactly.
 *
 * The counterparty fee is NOT in feesIncluded: it is charged in the receiving currency, is already
 * deducted from totalReceivingAmount and is shown as rateDetails.counterpartyFixedFee. Keeping it
 * out means feesIncluded is exactly the service's FEE ledger transfer (no second rounding) and
 * S = converted + feesIncluded holds to the unit.
 *
 * Monotonicity (f is non-decreasing in S). For an integer S, S − ceil(S v) = floor(S − S v), so
 * X(S) = floor(S (1 − v)) − F. Since 1 − v > 0, S ↦ floor(S (1 − v)) is non-decreasing, and so
 * is X; since R > 0, x ↦ floor(x R) is non-decreasing, and so is f. (Each step S → S+1 raises X
 * by 0 or 1, because 0 < 1 − v <= 1.)
 *
 * Closed form of the RECEIVING lock. For a target L >= 1:
 *   f(S) >= L  ⇔  floor(X R) >= L + C  ⇔  X A >= (L + C) B            (L + C is an integer)
 *              ⇔  X >= Xmin := ceil((L + C) B / A)                     (X is an integer)
 *              ⇔  floor(S (1 − v)) >= T := Xmin + F
 *              ⇔  S (1 − v) >= T                                       (T is an integer)
 *              ⇔  S >= ceil(T vd / (vd − vn)).
 * So Smin(L) = ceil(T vd / (vd − vn)) is the smallest S with f(S) >= L. The code still verifies
 * the candidate and corrects it by ±1 steps (bounded), so a slip in the algebra would surface as a
 * thrown bug rather than a wrong price.
 *
 * RECEIVING lock: S = Smin(L) and totalReceivingAmount = L exactly: the recipient is promised and
 * paid L, never less. f(S) may exceed L by less than one sending minor unit's worth (plus the
 * floor); that remainder stays in the FX liquidity account (f(S − 1) < L, so it cannot be avoided
 * by charging less).
 */
import { currency } from '../common/currencies.js';
import { ceilRational, divCeil, divFloor, mul, ONE, pow10, rational, sub, toDisplayNumber, toSignificant, type Rational } from '../common/money.js';
import { variableRateOf, type FeeRule } from './fees.js';

export type LockedSide = 'SENDING' | 'RECEIVING';

/** Largest amount on either side of a quote (spec, Limits). */
export const MAX_AMOUNT = 9_000_000_000_000_000n;
/** Millisatoshis per BTC (the rateDetails intermediate unit). */
export const MSATS_PER_BTC = 100_000_000_000n;
/** Significant digits of exchangeRate. */
export const EXCHANGE_RATE_DIGITS = 12;

export interface PriceQuoteInput {
  sendingCurrency: string;
  receivingCurrency: string;
  /** Receiving major units per 1 sending major unit (Rate.rate of getRate(sending, receiving)). */
  rate: Rational;
  fees: FeeRule;
  lockedSide: LockedSide;
  lockedAmount: bigint;
  /**
   * BTC major units per 1 sending major unit, for the millisatoshi multipliers of rateDetails only
   * (not for amounts). Not needed when either currency is BTC; when absent otherwise, rateDetails
   * is undefined.
   */
  btcRate?: Rational;
}

/** The spec's Rate details object. Numbers for display; amounts never come from them. */
export interface RateDetails {
  /** Receiving minor units per 1 millisatoshi. */
  counterpartyMultiplier: number;
  /** Receiving minor units. */
  counterpartyFixedFee: number;
  /** Millisatoshis per 1 sending minor unit, net of the variable fee rate: M × (1 − v). */
  serviceApiMultiplier: number;
  /** Sending minor units. */
  serviceApiFixedFee: number;
  /** Fraction, 0.003 = 0.3 %. */
  serviceApiVariableFeeRate: number;
  /** Sending minor units. */
  serviceApiVariableFeeAmount: number;
}

export interface PricedQuote {
  totalSendingAmount: bigint;
  totalReceivingAmount: bigint;
  /** serviceFixedFee + variableFee, sending minor units (the counterparty fee is not included). */
  feesIncluded: bigint;
  /** totalSendingAmount − feesIncluded: the amount converted. */
  convertedAmount: bigint;
  serviceFixedFee: bigint;
  variableFee: bigint;
  /** Receiving minor units, already deducted from totalReceivingAmount. */
  counterpartyFixedFee: bigint;
  /** Sending major units per 1 receiving major unit at the conversion (mid) rate, 12 significant digits. */
  exchangeRate: string;
  rateDetails: RateDetails | undefined;
}

export type PricingErrorCode = 'AMOUNT_TOO_SMALL' | 'AMOUNT_TOO_LARGE';

export interface PricingError {
  code: PricingErrorCode;
  message: string;
  lockedSide: LockedSide;
  /** AMOUNT_TOO_SMALL: the smallest acceptable lockedAmount (minor units of the locked side). */
  minimumAmount?: bigint;
  /** AMOUNT_TOO_LARGE: the largest acceptable lockedAmount (minor units of the locked side). */
  maximumAmount?: bigint;
}

export type PriceResult = { ok: true; quote: PricedQuote } | { ok: false; error: PricingError };

/** The exact pricing parameters of a corridor; built once per quote. */
export interface PricingModel {
  fixedFee: bigint;
  variableRate: Rational;
  counterpartyFee: bigint;
  /** Receiving minor units per sending minor unit: A/B. */
  minorRate: Rational;
}

export function pricingModel(input: Pick<PriceQuoteInput, 'sendingCurrency' | 'receivingCurrency' | 'rate' | 'fees'>): PricingModel {
  const { rate, fees } = input;
  if (typeof rate?.num !== 'bigint' || typeof rate.den !== 'bigint' || rate.num <= 0n || rate.den <= 0n) {
    throw new TypeError('priceQuote: rate must be a positive Rational');
  }
  if (input.sendingCurrency === input.receivingCurrency && rate.num !== rate.den) {
    throw new TypeError('priceQuote: a same-currency rate must be 1');
  }
  for (const k of ['serviceFixedFee', 'counterpartyFixedFee'] as const) {
    if (typeof fees[k] !== 'bigint' || fees[k] < 0n) throw new TypeError(`priceQuote: fees.${k} must be a non-negative bigint`);
  }
  const ds = currency(input.sendingCurrency).decimals;
  const dr = currency(input.receivingCurrency).decimals;
  return {
    fixedFee: fees.serviceFixedFee,
    variableRate: variableRateOf(fees),
    counterpartyFee: fees.counterpartyFixedFee,
    minorRate: rational(rate.num * pow10(dr), rate.den * pow10(ds)),
  };
}

/** V(S) = ceil(S × v). */
export function variableFeeFor(m: PricingModel, sendingAmount: bigint): bigint {
  return divCeil(sendingAmount * m.variableRate.num, m.variableRate.den);
}

/** f(S): the receiving amount of a sending amount (may be <= 0 when S does not cover the fees). */
export function receivingAmountFor(m: PricingModel, sendingAmount: bigint): bigint {
  const converted = sendingAmount - m.fixedFee - variableFeeFor(m, sendingAmount);
  return divFloor(converted * m.minorRate.num, m.minorRate.den) - m.counterpartyFee;
}

/** Smin(L): the smallest sending amount S >= 1 with f(S) >= L (closed form, verified; see top). */
export function minimumSendingAmountFor(m: PricingModel, target: bigint): bigint {
  const minConverted = divCeil((target + m.counterpartyFee) * m.minorRate.den, m.minorRate.num);
  const t = minConverted + m.fixedFee;
  const { num: vn, den: vd } = m.variableRate;
  let s = divCeil(t * vd, vd - vn);
  if (s < 1n) s = 1n;
  // Correction by ±1 steps; by the proof above no step is taken, so a few are allowed at most.
  for (let i = 0; receivingAmountFor(m, s) < target; i++) {
    if (i >= 4) throw new Error('minimumSendingAmountFor: closed form off by more than 4');
    s += 1n;
  }
  for (let i = 0; s > 1n && receivingAmountFor(m, s - 1n) >= target; i++) {
    if (i >= 4) throw new Error('minimumSendingAmountFor: closed form off by more than 4');
    s -= 1n;
  }
  return s;
}

function fail(code: PricingErrorCode, lockedSide: LockedSide, message: string, bound: { minimumAmount?: bigint; maximumAmount?: bigint }): PriceResult {
  return { ok: false, error: { code, message, lockedSide, ...bound } };
}

function rateDetailsOf(input: PriceQuoteInput, m: PricingModel, variableFee: bigint): RateDetails | undefined {
  let btcRate = input.btcRate;
  if (input.sendingCurrency === 'BTC') btcRate = ONE;
  else if (input.receivingCurrency === 'BTC') btcRate = input.rate;
  if (!btcRate || btcRate.num <= 0n) return undefined;
  const ds = currency(input.sendingCurrency).decimals;
  // M: millisatoshis per sending minor unit.
  const msatsPerSendingMinor = rational(btcRate.num * MSATS_PER_BTC, btcRate.den * pow10(ds));
  return {
    counterpartyMultiplier: toDisplayNumber(mul(m.minorRate, rational(msatsPerSendingMinor.den, msatsPerSendingMinor.num))),
    counterpartyFixedFee: toDisplayNumber(rational(m.counterpartyFee)),
    serviceApiMultiplier: toDisplayNumber(mul(msatsPerSendingMinor, sub(ONE, m.variableRate))),
    serviceApiFixedFee: toDisplayNumber(rational(m.fixedFee)),
    serviceApiVariableFeeRate: toDisplayNumber(m.variableRate),
    serviceApiVariableFeeAmount: toDisplayNumber(rational(variableFee)),
  };
}

/**
 * Prices a quote. Expected failures (AMOUNT_TOO_SMALL, AMOUNT_TOO_LARGE) are returned as
 * { ok: false, error }; a TypeError means a caller bug (bad rate or fee rule types).
 */
export function priceQuote(input: PriceQuoteInput): PriceResult {
  const m = pricingModel(input);
  const { lockedSide, lockedAmount } = input;
  if (typeof lockedAmount !== 'bigint') throw new TypeError('priceQuote: lockedAmount must be a bigint');
  if (lockedSide !== 'SENDING' && lockedSide !== 'RECEIVING') throw new TypeError('priceQuote: lockedSide must be SENDING or RECEIVING');

  let sending: bigint;
  let receiving: bigint;
  if (lockedSide === 'SENDING') {
    const minimum = minimumSendingAmountFor(m, 1n);
    if (lockedAmount < minimum) {
      return fail(
        'AMOUNT_TOO_SMALL',
        lockedSide,
        `the sending amount must be at least ${minimum} (minor units of ${input.sendingCurrency}) to cover the fees and deliver a positive amount`,
        { minimumAmount: minimum },
      );
    }
    if (lockedAmount > MAX_AMOUNT) {
      return fail('AMOUNT_TOO_LARGE', lockedSide, `the sending amount must be at most ${MAX_AMOUNT}`, { maximumAmount: MAX_AMOUNT });
    }
    sending = lockedAmount;
    receiving = receivingAmountFor(m, sending);
    if (receiving > MAX_AMOUNT) {
      const maximum = minimumSendingAmountFor(m, MAX_AMOUNT + 1n) - 1n;
      return fail('AMOUNT_TOO_LARGE', lockedSide, `the receiving amount would exceed ${MAX_AMOUNT}; the sending amount must be at most ${maximum}`, {
        maximumAmount: maximum,
      });
    }
  } else {
    if (lockedAmount < 1n) {
      return fail('AMOUNT_TOO_SMALL', lockedSide, 'the receiving amount must be at least 1', { minimumAmount: 1n });
    }
    const maxReceiving = (() => {
      const r = receivingAmountFor(m, MAX_AMOUNT);
      return r < MAX_AMOUNT ? r : MAX_AMOUNT;
    })();
    if (lockedAmount > maxReceiving) {
      return fail('AMOUNT_TOO_LARGE', lockedSide, `the receiving amount must be at most ${maxReceiving} (the sending amount is limited to ${MAX_AMOUNT})`, {
        maximumAmount: maxReceiving,
      });
    }
    sending = minimumSendingAmountFor(m, lockedAmount);
    receiving = lockedAmount;
  }

  const variableFee = variableFeeFor(m, sending);
  const feesIncluded = m.fixedFee + variableFee;
  return {
    ok: true,
    quote: {
      totalSendingAmount: sending,
      totalReceivingAmount: receiving,
      feesIncluded,
      convertedAmount: sending - feesIncluded,
      serviceFixedFee: m.fixedFee,
      variableFee,
      counterpartyFixedFee: m.counterpartyFee,
      exchangeRate: toSignificant(rational(input.rate.den, input.rate.num), EXCHANGE_RATE_DIGITS),
      rateDetails: rateDetailsOf(input, m, variableFee),
    },
  };
}

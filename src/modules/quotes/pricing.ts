/**
 * Prices a payment with the pure functions of src/fx, turning their expected failures into API
 * errors: stale or missing rates → 503, amounts outside what the corridor can carry → 400.
 */
import { readFileSync } from 'node:fs';
import type { Environment } from '../../common/scope.js';
import { ONE } from '../../common/money.js';
import { createFeeSchedule, parseFeeSchedule, type FeeSchedule } from '../../fx/fees.js';
import { priceQuote, type LockedSide, type PricedQuote } from '../../fx/pricing.js';
import { createFileRateSource, createSandboxRateSource, getQuoteRates, RatesUnavailableError, type RateSource } from '../../fx/rates.js';
import { createUrlRateSource } from '../../fx/url-rates.js';
import { quoteErrors } from './errors.js';

export interface Fx {
  fees: FeeSchedule;
  /** The rate source of an environment: the sandbox table, or the operator's feed in production. */
  rates(environment: Environment): RateSource;
}

function priced(result: ReturnType<typeof priceQuote>, field: string): PricedQuote {
  if (result.ok) return result.quote;
  const e = result.error;
  const details = {
    field,
    lockedCurrencySide: e.lockedSide,
    ...(e.minimumAmount !== undefined ? { minimumAmount: Number(e.minimumAmount) } : {}),
    ...(e.maximumAmount !== undefined ? { maximumAmount: Number(e.maximumAmount) } : {}),
  };
  throw quoteErrors[e.code](details, e.message);
}

/** A cross-currency (or same-currency) quote at the environment's current rates. */
export async function priceWithRates(
  fx: Fx,
  environment: Environment,
  input: { sending: string; receiving: string; lockedSide: LockedSide; lockedAmount: bigint; counterpartyFixedFee?: bigint },
): Promise<PricedQuote> {
  let rates;
  try {
    rates = await getQuoteRates(fx.rates(environment), input.sending, input.receiving);
  } catch (e) {
    if (e instanceof RatesUnavailableError)
      throw quoteErrors[e.code]({ base: e.base, quote: e.quote, ...(e.asOf ? { asOf: e.asOf.toISOString() } : {}) }, e.message);
    throw e;
  }
  return priced(
    priceQuote({
      sendingCurrency: input.sending,
      receivingCurrency: input.receiving,
      rate: rates.rate.rate,
      btcRate: rates.btcRate?.rate,
      // A receiver's own fee, where it told one (another UMA provider's), instead of the schedule's.
      fees: {
        ...fx.fees.feeFor(input.sending, input.receiving),
        ...(input.counterpartyFixedFee !== undefined ? { counterpartyFixedFee: input.counterpartyFixedFee } : {}),
      },
      lockedSide: input.lockedSide,
      lockedAmount: input.lockedAmount,
    }),
    'lockedCurrencyAmount',
  );
}

/** A same-currency transfer: rate 1, the schedule's same-currency fee, the amount sent locked. */
export function priceTransfer(fx: Fx, currency: string, amount: bigint): PricedQuote {
  return priced(
    priceQuote({
      sendingCurrency: currency,
      receivingCurrency: currency,
      rate: ONE,
      fees: fx.fees.feeFor(currency, currency),
      lockedSide: 'SENDING',
      lockedAmount: amount,
    }),
    'amount',
  );
}

/**
 * The fee schedule and rate sources of the configuration: FEES_FILE (else the defaults); the
 * sandbox table for SANDBOX; RATES_FILE or RATES_URL (polled) with RATES_MAX_AGE_MS for
 * PRODUCTION, whose quotes answer 503 RATE_UNAVAILABLE when neither is configured.
 */
export function createFx(
  config: { feesFile?: string; ratesFile?: string; ratesUrl?: string; ratesPollIntervalMs: number; ratesMaxAgeMs: number },
  clock: { now(): Date },
  onError: (e: Error) => void = () => undefined,
): Fx & { stop(): void } {
  const fees = config.feesFile ? parseFeeSchedule(readFileSync(config.feesFile, 'utf8')) : createFeeSchedule([]);
  const sandbox = createSandboxRateSource({ clock });
  let production: RateSource;
  let stop = () => undefined as void;
  if (config.ratesFile) {
    production = createFileRateSource({ path: config.ratesFile, maxAgeMs: config.ratesMaxAgeMs, clock, onError });
  } else if (config.ratesUrl) {
    const url = createUrlRateSource({ url: config.ratesUrl, pollIntervalMs: config.ratesPollIntervalMs, maxAgeMs: config.ratesMaxAgeMs, clock, onError });
    url.start();
    production = url;
    stop = () => url.stop();
  } else {
    production = {
      async getRate(base, quote) {
        throw new RatesUnavailableError('RATE_UNAVAILABLE', 'no production rate source is configured (set RATES_FILE or RATES_URL)', base, quote);
      },
    };
  }
  return { fees, rates: (environment) => (environment === 'SANDBOX' ? sandbox : production), stop };
}

/**
 * GET /exchange-rates: the rates and fees a quote of this platform would use now, per corridor,
 * priced for one sending amount by the same pure functions as quotes (src/fx). Nothing is stored:
 * a quote still locks the price.
 */
import { CURRENCY_CODES, currencyView } from '../../common/currencies.js';
import { invalidInput } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { MAX_AMOUNT, priceQuote } from '../../fx/pricing.js';
import { getQuoteRates, RatesUnavailableError } from '../../fx/rates.js';
import { currencySetting } from '../config/settings.js';
import { ACCOUNT_TYPES } from '../external-accounts/account-types.js';
import { readConfig } from '../platforms/config-cache.js';
import { quoteErrors } from '../quotes/errors.js';
import type { Fx } from '../quotes/pricing.js';
import { defaultRailOf } from '../transactions/rules.js';
import { DEFAULT_SENDING_AMOUNT } from './schemas.js';

export interface ExchangeRateFilters {
  sourceCurrency?: string;
  destinationCurrency?: string[];
  sendingAmount?: number;
}

/** The usual payout rail of a currency: that of the first account type paying out in it. */
function railOf(code: string): string {
  const type = Object.entries(ACCOUNT_TYPES).find(([, spec]) => spec.currencies.includes(code))?.[0];
  return type ? defaultRailOf(type) : 'BANK_TRANSFER';
}

export function createExchangeRateService(deps: { db: Database; fx: Fx }) {
  return {
    async list(scope: Scope, f: ExchangeRateFilters) {
      const config = await readConfig(deps.db, scope);
      const enabled = (code: string) => currencySetting(config, code).enabled;
      const sources = f.sourceCurrency ? [f.sourceCurrency] : CURRENCY_CODES.filter(enabled);
      const destinations = f.destinationCurrency ?? CURRENCY_CODES.filter(enabled);
      // A currency the platform disabled is no corridor of it: naming one is a mistake worth saying.
      const disabled = [
        ...(f.sourceCurrency && !enabled(f.sourceCurrency) ? [{ field: 'sourceCurrency', code: f.sourceCurrency }] : []),
        ...(f.destinationCurrency ?? []).map((code, i) => ({ field: `destinationCurrency.${i}`, code })).filter((d) => !enabled(d.code)),
      ];
      if (disabled.length)
        throw invalidInput(
          disabled.map((d) => ({ field: d.field, in: 'query' as const, message: `${d.code} is not enabled for this platform (PATCH /config)` })),
        );

      const amount = BigInt(f.sendingAmount ?? DEFAULT_SENDING_AMOUNT);
      const single = sources.length === 1 && destinations.length === 1;
      const source = deps.fx.rates(scope.environment);
      const data = [];
      let unavailable: RatesUnavailableError | undefined;
      for (const from of sources) {
        const setting = currencySetting(config, from);
        for (const to of destinations) {
          if (to === from) continue;
          let rates;
          try {
            rates = await getQuoteRates(source, from, to);
          } catch (e) {
            // A stale feed prices nothing; a pair the feed lacks is no corridor now.
            if (!(e instanceof RatesUnavailableError)) throw e;
            if (e.code === 'RATES_STALE')
              throw quoteErrors.RATES_STALE({ base: e.base, quote: e.quote, ...(e.asOf ? { asOf: e.asOf.toISOString() } : {}) }, e.message);
            unavailable ??= e;
            continue;
          }
          const price = (lockedAmount: bigint) =>
            priceQuote({
              sendingCurrency: from,
              receivingCurrency: to,
              rate: rates.rate.rate,
              btcRate: rates.btcRate?.rate,
              fees: deps.fx.fees.feeFor(from, to),
              lockedSide: 'SENDING',
              lockedAmount,
            });
          const least = price(1n);
          const minimum = least.ok ? 1n : (least.error.minimumAmount ?? 1n);
          const min = setting.minAmount !== null && setting.minAmount > minimum ? setting.minAmount : minimum;
          const max = setting.maxAmount !== null && setting.maxAmount < MAX_AMOUNT ? setting.maxAmount : MAX_AMOUNT;
          const priced = price(amount);
          if (!priced.ok || amount < min || amount > max) {
            // One corridor asked for: say why there is no answer. Among many, it is left out.
            if (single)
              throw invalidInput([{ field: 'sendingAmount', in: 'query', message: `${from} to ${to} carries ${min} to ${max} (minor units of ${from})` }]);
            continue;
          }
          const q = priced.quote;
          data.push({
            sourceCurrency: currencyView(from),
            destinationCurrency: currencyView(to),
            destinationPaymentRail: railOf(to),
            sendingAmount: Number(q.totalSendingAmount),
            minSendingAmount: Number(min),
            maxSendingAmount: Number(max),
            receivingAmount: Number(q.totalReceivingAmount),
            exchangeRate: Number(q.exchangeRate),
            fees: { fixed: Number(q.serviceFixedFee), variable: Number(q.variableFee), total: Number(q.feesIncluded) },
            updatedAt: rates.rate.asOf.toISOString(),
          });
        }
      }
      // Corridors were asked for and the rate source has none of them: as a quote would answer.
      if (data.length === 0 && unavailable) throw quoteErrors.RATE_UNAVAILABLE({ base: unavailable.base, quote: unavailable.quote }, unavailable.message);
      return { data };
    },
  };
}

export type ExchangeRateService = ReturnType<typeof createExchangeRateService>;

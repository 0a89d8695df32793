import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currency } from '../common/currencies.js';
import { div, parseDecimal, rational, type Rational } from '../common/money.js';
import type { FeeRule } from './fees.js';
import { MAX_AMOUNT, priceQuote, type PriceQuoteInput, type PricedQuote } from './pricing.js';
import { SANDBOX_USD_RATES } from './rates.js';

const NO_FEES: FeeRule = { serviceFixedFee: 0n, serviceVariableRate: '0', counterpartyFixedFee: 0n };
const fee = (serviceFixedFee: bigint, serviceVariableRate: string, counterpartyFixedFee = 0n): FeeRule => ({
  serviceFixedFee,
  serviceVariableRate,
  counterpartyFixedFee,
});
const r = (s: string) => parseDecimal(s);

function ok(input: PriceQuoteInput): PricedQuote {
  const res = priceQuote(input);
  if (!res.ok) throw new Error(`expected a price, got ${res.error.code}: ${res.error.message}`);
  return res.quote;
}

describe('priceQuote: hand-computed examples', () => {
  it('USD → EUR at 0.92, 0.3 %, sending locked at 100.00 USD', () => {
    const q = ok({
      sendingCurrency: 'USD',
      receivingCurrency: 'EUR',
      rate: r('0.92'),
      fees: fee(0n, '0.003'),
      lockedSide: 'SENDING',
      lockedAmount: 10000n,
      btcRate: r('0.00001'),
    });
    // V = ceil(10000 × 0.003) = 30; X = 9970; receiving = floor(9970 × 0.92) = floor(9172.4) = 9172
    expect(q).toMatchObject({ totalSendingAmount: 10000n, feesIncluded: 30n, convertedAmount: 9970n, variableFee: 30n, totalReceivingAmount: 9172n });
    expect(q.exchangeRate).toBe('1.08695652174'); // 1 / 0.92 USD per EUR
    expect(q.rateDetails).toEqual({
      serviceApiMultiplier: 9970, // 10000 msats per cent (1 BTC = 100000 USD) × 0.997
      counterpartyMultiplier: 0.000092, // 0.92 EUR cents per USD cent / 10000 msats
      serviceApiFixedFee: 0,
      serviceApiVariableFeeRate: 0.003,
      serviceApiVariableFeeAmount: 30,
      counterpartyFixedFee: 0,
    });
  });

  it('USD → EUR, receiving locked: the smallest sending amount', () => {
    // 9172 EUR cents: X >= ceil(9172 / 0.92) = 9970; S >= 9970 / 0.997 = 10000
    expect(
      ok({ sendingCurrency: 'USD', receivingCurrency: 'EUR', rate: r('0.92'), fees: fee(0n, '0.003'), lockedSide: 'RECEIVING', lockedAmount: 9172n }),
    ).toMatchObject({
      totalSendingAmount: 10000n,
      totalReceivingAmount: 9172n,
      feesIncluded: 30n,
    });
    // 9173: X >= ceil(9970.65…) = 9971; S >= ceil(9971 / 0.997) = ceil(10001.003) = 10002 (10001 gives X = 9970)
    const q = ok({ sendingCurrency: 'USD', receivingCurrency: 'EUR', rate: r('0.92'), fees: fee(0n, '0.003'), lockedSide: 'RECEIVING', lockedAmount: 9173n });
    expect(q).toMatchObject({ totalSendingAmount: 10002n, totalReceivingAmount: 9173n, feesIncluded: 31n, convertedAmount: 9971n });
    expect(q.rateDetails).toBeUndefined(); // no BTC rate given
  });

  it('USD → BTC at 100000 USD per BTC, with a counterparty fee', () => {
    // R = 0.00001 × 10^8 / 10^2 = 10 sats per cent; V = 30; X = 9970; 99700 − 100 = 99600 sats
    const q = ok({
      sendingCurrency: 'USD',
      receivingCurrency: 'BTC',
      rate: r('0.00001'),
      fees: fee(0n, '0.003', 100n),
      lockedSide: 'SENDING',
      lockedAmount: 10000n,
    });
    expect(q).toMatchObject({ totalSendingAmount: 10000n, totalReceivingAmount: 99600n, feesIncluded: 30n, counterpartyFixedFee: 100n });
    expect(q.exchangeRate).toBe('100000');
    expect(q.rateDetails).toMatchObject({ serviceApiMultiplier: 9970, counterpartyMultiplier: 0.001, counterpartyFixedFee: 100 });
  });

  it('USD → UGX (0 decimals) at 3700, 0.50 USD + 1 %, 500 UGX counterparty fee', () => {
    const base = { sendingCurrency: 'USD', receivingCurrency: 'UGX', rate: r('3700'), fees: fee(50n, '0.01', 500n) } as const;
    // R = 3700 × 10^0 / 10^2 = 37 UGX per cent; V = ceil(10) = 10; X = 1000 − 50 − 10 = 940; 940 × 37 − 500 = 34280
    expect(ok({ ...base, lockedSide: 'SENDING', lockedAmount: 1000n })).toMatchObject({
      totalReceivingAmount: 34280n,
      feesIncluded: 60n,
      convertedAmount: 940n,
    });
    expect(ok({ ...base, lockedSide: 'RECEIVING', lockedAmount: 34280n })).toMatchObject({ totalSendingAmount: 1000n, totalReceivingAmount: 34280n });
    // 34281: X >= ceil(34781 / 37) = 941, S >= ceil(991 / 0.99) = 1002 (1001 gives X = 940 → 34280).
    // 1002 converts to 941 × 37 − 500 = 34317 UGX; the quote promises and delivers exactly 34281.
    expect(ok({ ...base, lockedSide: 'RECEIVING', lockedAmount: 34281n })).toMatchObject({
      totalSendingAmount: 1002n,
      totalReceivingAmount: 34281n,
      feesIncluded: 61n,
    });
    expect(ok({ ...base, lockedSide: 'SENDING', lockedAmount: 1000n }).exchangeRate).toBe('0.00027027027027');
  });

  it('BTC → USD at 100000, and the minimum amount', () => {
    // R = 100000 × 10^2 / 10^8 = 0.1 cent per sat; V = 300; X = 99700; 9970 cents
    const base = { sendingCurrency: 'BTC', receivingCurrency: 'USD', rate: r('100000'), fees: fee(0n, '0.003') } as const;
    const q = ok({ ...base, lockedSide: 'SENDING', lockedAmount: 100000n });
    expect(q).toMatchObject({ totalReceivingAmount: 9970n, feesIncluded: 300n });
    expect(q.exchangeRate).toBe('0.00001');
    expect(q.rateDetails).toMatchObject({ serviceApiMultiplier: 997, counterpartyMultiplier: 0.0001 });
    // 10 sats: V = 1, X = 9 → 0.9 cent → 0: too small. Minimum: X >= 10, S >= ceil(10 / 0.997) = 11.
    const small = priceQuote({ ...base, lockedSide: 'SENDING', lockedAmount: 10n });
    expect(small).toEqual({ ok: false, error: expect.objectContaining({ code: 'AMOUNT_TOO_SMALL', minimumAmount: 11n }) });
    expect(ok({ ...base, lockedSide: 'SENDING', lockedAmount: 11n }).totalReceivingAmount).toBe(1n);
  });

  it('same currency (transfers): rate 1, no fees', () => {
    for (const code of CURRENCY_CODES) {
      expect(ok({ sendingCurrency: code, receivingCurrency: code, rate: r('1'), fees: NO_FEES, lockedSide: 'SENDING', lockedAmount: 12345n })).toMatchObject({
        totalSendingAmount: 12345n,
        totalReceivingAmount: 12345n,
        feesIncluded: 0n,
        exchangeRate: '1',
      });
      expect(
        ok({ sendingCurrency: code, receivingCurrency: code, rate: r('1'), fees: NO_FEES, lockedSide: 'RECEIVING', lockedAmount: 1n }).totalSendingAmount,
      ).toBe(1n);
    }
    expect(() =>
      priceQuote({ sendingCurrency: 'USD', receivingCurrency: 'USD', rate: r('2'), fees: NO_FEES, lockedSide: 'SENDING', lockedAmount: 1n }),
    ).toThrow(TypeError);
  });

  it('limits: 9000000000000000 on both sides', () => {
    const usdUgx = { sendingCurrency: 'USD', receivingCurrency: 'UGX', rate: r('3700'), fees: NO_FEES } as const;
    expect(priceQuote({ ...usdUgx, lockedSide: 'SENDING', lockedAmount: MAX_AMOUNT + 1n })).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_LARGE' } });
    // 37 UGX per cent: the largest S with 37 S <= 9e15 is 243243243243243
    const big = priceQuote({ ...usdUgx, lockedSide: 'SENDING', lockedAmount: 243243243243244n });
    expect(big).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_LARGE', maximumAmount: 243243243243243n } });
    expect(ok({ ...usdUgx, lockedSide: 'SENDING', lockedAmount: 243243243243243n }).totalReceivingAmount).toBe(8999999999999991n);
    expect(ok({ ...usdUgx, lockedSide: 'RECEIVING', lockedAmount: MAX_AMOUNT }).totalSendingAmount).toBe(243243243243244n); // ceil(9e15 / 37)
    const ugxUsd = { sendingCurrency: 'UGX', receivingCurrency: 'USD', rate: div(r('1'), r('3700')), fees: NO_FEES } as const;
    // 9e15 UGX buy floor(9e15 × 100 / 3700) = 243243243243243 cents
    expect(priceQuote({ ...ugxUsd, lockedSide: 'RECEIVING', lockedAmount: 243243243243244n })).toMatchObject({
      ok: false,
      error: { code: 'AMOUNT_TOO_LARGE', maximumAmount: 243243243243243n },
    });
    expect(priceQuote({ ...ugxUsd, lockedSide: 'RECEIVING', lockedAmount: 0n })).toMatchObject({
      ok: false,
      error: { code: 'AMOUNT_TOO_SMALL', minimumAmount: 1n },
    });
    expect(priceQuote({ ...ugxUsd, lockedSide: 'SENDING', lockedAmount: 36n })).toMatchObject({
      ok: false,
      error: { code: 'AMOUNT_TOO_SMALL', minimumAmount: 37n },
    });
  });
});

// ---- properties --------------------------------------------------------------------------------

/** Independent oracle: the spec's formulas, straight from the decimal strings. */
function oracle(sending: string, receiving: string, rate: Rational, fees: FeeRule, S: bigint) {
  const v = parseDecimal(fees.serviceVariableRate);
  const V = (S * v.num + v.den - 1n) / v.den; // S >= 0: ceil
  const X = S - fees.serviceFixedFee - V;
  const A = rate.num * 10n ** BigInt(currency(receiving).decimals);
  const B = rate.den * 10n ** BigInt(currency(sending).decimals);
  const p = X * A;
  const floor = p >= 0n ? p / B : -((-p + B - 1n) / B);
  return { V, X, A, B, f: floor - fees.counterpartyFixedFee };
}

const sandboxRate = (from: string, to: string) => div(parseDecimal(SANDBOX_USD_RATES[to]), parseDecimal(SANDBOX_USD_RATES[from]));

const arbPairRate = fc
  .record({
    from: fc.constantFrom(...CURRENCY_CODES),
    to: fc.constantFrom(...CURRENCY_CODES),
    mantissa: fc.bigInt({ min: 1n, max: 10n ** 12n }),
    scale: fc.integer({ min: 0, max: 18 }),
    realistic: fc.boolean(),
  })
  .map(({ from, to, mantissa, scale, realistic }) => ({
    from,
    to,
    rate: from === to ? rational(1n) : realistic ? sandboxRate(from, to) : rational(mantissa, 10n ** BigInt(scale)),
  }));

const arbSmallFixed = fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 1000n }), fc.bigInt({ min: 0n, max: 10n ** 9n }));
const arbVariable = fc.oneof(
  fc.constant('0'),
  fc.constantFrom('0.003', '0.01', '0.0025', '0.5', '0.999999'),
  fc.integer({ min: 1, max: 6 }).chain((k) => fc.bigInt({ min: 0n, max: 10n ** BigInt(k) - 1n }).map((n) => `0.${n.toString().padStart(k, '0')}`)),
);
const arbFees = fc.record({ serviceFixedFee: arbSmallFixed, serviceVariableRate: arbVariable, counterpartyFixedFee: arbSmallFixed });
const arbAmount = fc.oneof(
  fc.bigInt({ min: 1n, max: 1000n }),
  fc.bigInt({ min: 1n, max: 10n ** 8n }),
  fc.bigInt({ min: 1n, max: MAX_AMOUNT }),
  fc.bigInt({ min: MAX_AMOUNT - 1000n, max: MAX_AMOUNT }),
);
const RUNS = { numRuns: 3000 };

describe('priceQuote: invariants over every currency pair', () => {
  it('SENDING lock: exact amounts, fees add up, never creates money, errors exactly at the bounds', () => {
    fc.assert(
      fc.property(arbPairRate, arbFees, arbAmount, ({ from, to, rate }, fees, S) => {
        const res = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'SENDING', lockedAmount: S });
        const o = oracle(from, to, rate, fees, S);
        if (o.f < 1n) {
          expect(res).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_SMALL' } });
          if (!res.ok) {
            const min = res.error.minimumAmount!;
            expect(min > S).toBe(true);
            expect(oracle(from, to, rate, fees, min).f >= 1n).toBe(true);
            expect(oracle(from, to, rate, fees, min - 1n).f < 1n).toBe(true);
          }
          return;
        }
        if (o.f > MAX_AMOUNT) {
          expect(res).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_LARGE' } });
          if (!res.ok) {
            const max = res.error.maximumAmount!;
            expect(max < S).toBe(true);
            expect(oracle(from, to, rate, fees, max).f <= MAX_AMOUNT).toBe(true);
            expect(oracle(from, to, rate, fees, max + 1n).f > MAX_AMOUNT).toBe(true);
          }
          return;
        }
        expect(res.ok).toBe(true);
        if (!res.ok) return;
        const q = res.quote;
        for (const k of ['totalSendingAmount', 'totalReceivingAmount', 'feesIncluded', 'convertedAmount', 'variableFee'] as const)
          expect(typeof q[k]).toBe('bigint');
        expect(q.totalSendingAmount).toBe(S);
        expect(q.totalReceivingAmount).toBe(o.f);
        expect(q.variableFee).toBe(o.V);
        expect(q.feesIncluded >= 0n && q.variableFee >= 0n).toBe(true);
        expect(q.totalSendingAmount).toBe(q.convertedAmount + q.feesIncluded);
        // variable fee: never below the exact S × v, and less than one unit above it
        const v = parseDecimal(fees.serviceVariableRate);
        expect(q.variableFee * v.den >= S * v.num && (q.variableFee - 1n) * v.den < S * v.num).toBe(true);
        // never creates money: (received + counterparty fee) <= converted × R, and less than 1 unit below it
        const value = q.convertedAmount * o.A;
        const paid = (q.totalReceivingAmount + q.counterpartyFixedFee) * o.B;
        expect(paid <= value).toBe(true);
        expect(value - paid < o.B).toBe(true);
        expect(q.totalReceivingAmount >= 1n && q.totalReceivingAmount <= MAX_AMOUNT).toBe(true);
      }),
      RUNS,
    );
  });

  it('RECEIVING lock: delivers exactly the locked amount, S is minimal, never creates money', () => {
    fc.assert(
      fc.property(arbPairRate, arbFees, arbAmount, ({ from, to, rate }, fees, L) => {
        const res = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'RECEIVING', lockedAmount: L });
        if (!res.ok) {
          expect(res.error.code).toBe('AMOUNT_TOO_LARGE');
          // even the largest sending amount cannot deliver L
          expect(oracle(from, to, rate, fees, MAX_AMOUNT).f < L).toBe(true);
          const max = res.error.maximumAmount!;
          if (max >= 1n)
            expect(ok({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'RECEIVING', lockedAmount: max }).totalReceivingAmount).toBe(max);
          return;
        }
        const q = res.quote;
        const S = q.totalSendingAmount;
        expect(q.totalReceivingAmount).toBe(L);
        expect(S >= 1n && S <= MAX_AMOUNT).toBe(true);
        const o = oracle(from, to, rate, fees, S);
        expect(o.f >= L).toBe(true); // never delivers less than promised
        if (S > 1n) expect(oracle(from, to, rate, fees, S - 1n).f < L).toBe(true); // minimal
        expect(q.convertedAmount).toBe(o.X);
        expect(q.feesIncluded >= 0n).toBe(true);
        expect(S).toBe(q.convertedAmount + q.feesIncluded);
        // never creates money; the surplus kept is below one sending unit's worth plus one receiving unit
        const value = q.convertedAmount * o.A;
        const paid = (L + q.counterpartyFixedFee) * o.B;
        expect(paid <= value).toBe(true);
        expect(value - paid < o.A + o.B).toBe(true);
      }),
      RUNS,
    );
  });

  it('each of the 361 pairs at its sandbox rate, both locks, 1 to 9000000000000000 (every pair checked, not sampled)', () => {
    const edges: Array<[FeeRule, bigint]> = [
      [fee(0n, '0.003'), 1n],
      [fee(0n, '0.003'), MAX_AMOUNT],
      [fee(250n, '0.0125', 40n), 1n],
      [fee(250n, '0.0125', 40n), MAX_AMOUNT],
      [NO_FEES, MAX_AMOUNT],
    ];
    for (const from of CURRENCY_CODES) {
      for (const to of CURRENCY_CODES) {
        const rate = from === to ? rational(1n) : sandboxRate(from, to);
        fc.assert(
          fc.property(arbFees, arbAmount, (fees, amount) => {
            const sending = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'SENDING', lockedAmount: amount });
            const o = oracle(from, to, rate, fees, amount);
            if (sending.ok) {
              const q = sending.quote;
              expect(q.totalReceivingAmount).toBe(o.f);
              expect(o.f >= 1n && o.f <= MAX_AMOUNT).toBe(true);
              expect(q.totalSendingAmount).toBe(q.convertedAmount + q.feesIncluded);
              expect((q.totalReceivingAmount + q.counterpartyFixedFee) * o.B <= q.convertedAmount * o.A).toBe(true); // never creates money
            } else {
              expect(sending.error.code === 'AMOUNT_TOO_SMALL' ? o.f < 1n : o.f > MAX_AMOUNT).toBe(true);
            }
            const receiving = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'RECEIVING', lockedAmount: amount });
            if (receiving.ok) {
              const S = receiving.quote.totalSendingAmount;
              expect(receiving.quote.totalReceivingAmount).toBe(amount);
              expect(S >= 1n && S <= MAX_AMOUNT).toBe(true);
              expect(oracle(from, to, rate, fees, S).f >= amount).toBe(true); // delivers at least the locked amount
              if (S > 1n) expect(oracle(from, to, rate, fees, S - 1n).f < amount).toBe(true); // with the smallest S
            } else {
              expect(receiving.error.code).toBe('AMOUNT_TOO_LARGE');
              expect(oracle(from, to, rate, fees, MAX_AMOUNT).f < amount).toBe(true);
            }
          }),
          { numRuns: 20, examples: edges },
        );
      }
    }
  });

  it('SENDING lock is monotonic in S (and so are its errors)', () => {
    fc.assert(
      fc.property(
        arbPairRate,
        arbFees,
        arbAmount,
        fc.oneof(fc.bigInt({ min: 0n, max: 3n }), fc.bigInt({ min: 0n, max: 10n ** 15n })),
        ({ from, to, rate }, fees, S1, delta) => {
          const S2 = S1 + delta;
          const p = (S: bigint) => priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'SENDING', lockedAmount: S });
          const a = p(S1);
          const b = p(S2);
          if (a.ok && b.ok) expect(a.quote.totalReceivingAmount <= b.quote.totalReceivingAmount).toBe(true);
          if (!a.ok && a.error.code === 'AMOUNT_TOO_LARGE') expect(b).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_LARGE' } });
          if (!b.ok && b.error.code === 'AMOUNT_TOO_SMALL') expect(a).toMatchObject({ ok: false, error: { code: 'AMOUNT_TOO_SMALL' } });
        },
      ),
      RUNS,
    );
  });

  it('RECEIVING and SENDING agree: pricing the found S with a SENDING lock delivers >= L', () => {
    fc.assert(
      fc.property(arbPairRate, arbFees, arbAmount, ({ from, to, rate }, fees, L) => {
        const res = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'RECEIVING', lockedAmount: L });
        if (!res.ok) return;
        const fwd = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'SENDING', lockedAmount: res.quote.totalSendingAmount });
        if (!fwd.ok) {
          // only possible when S converts to more than the limit while L itself is within it
          expect(fwd.error.code).toBe('AMOUNT_TOO_LARGE');
          expect(oracle(from, to, rate, fees, res.quote.totalSendingAmount).f > MAX_AMOUNT).toBe(true);
        } else {
          expect(fwd.quote.totalReceivingAmount >= L).toBe(true);
          expect(fwd.quote.feesIncluded).toBe(res.quote.feesIncluded);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('display fields are consistent with the exact rate', () => {
    fc.assert(
      fc.property(arbPairRate, arbFees, fc.bigInt({ min: 10n ** 6n, max: 10n ** 12n }), ({ from, to, rate }, fees, S) => {
        const btcRate = sandboxRate(from, 'BTC');
        const res = priceQuote({ sendingCurrency: from, receivingCurrency: to, rate, fees, lockedSide: 'SENDING', lockedAmount: S, btcRate });
        if (!res.ok) return;
        const q = res.quote;
        const inverse = Number(rate.den) / Number(rate.num); // test-only float, to check a display string
        expect(Math.abs(Number(q.exchangeRate) / inverse - 1)).toBeLessThan(1e-11);
        const d = q.rateDetails!;
        const v = Number(fees.serviceVariableRate);
        const R = (Number(rate.num) / Number(rate.den)) * 10 ** (currency(to).decimals - currency(from).decimals);
        // serviceApiMultiplier / (1 − v) × counterpartyMultiplier = receiving minor units per sending minor unit
        expect(Math.abs(((d.serviceApiMultiplier / (1 - v)) * d.counterpartyMultiplier) / R - 1)).toBeLessThan(1e-9);
        expect(d.serviceApiVariableFeeRate).toBe(v);
        expect(d.serviceApiVariableFeeAmount).toBe(Number(q.variableFee));
        expect(d.serviceApiFixedFee).toBe(Number(fees.serviceFixedFee));
        expect(d.counterpartyFixedFee).toBe(Number(fees.counterpartyFixedFee));
      }),
      { numRuns: 1000 },
    );
  });

  it('no float touches an amount: the pricing code never converts to number except through toDisplayNumber', () => {
    const src = readFileSync(new URL('./pricing.ts', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(src).not.toMatch(/\bNumber\b|parseFloat|parseInt|Math\.|toFixed|toPrecision/);
    expect(src).toMatch(/toDisplayNumber/);
  });
});

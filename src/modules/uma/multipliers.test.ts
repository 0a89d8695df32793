import { describe, expect, it } from 'vitest';
import { rational } from '../../common/money.js';
import type { RateSource } from '../../fx/rates.js';
import { invoiceMsats, multiplierNumber, multiplierOf, parseMultiplier } from './multipliers.js';

const at = (btcPerUnit: ReturnType<typeof rational>): RateSource => ({
  async getRate(base, quote) {
    return { base, quote, rate: btcPerUnit, asOf: new Date(), source: 'test' };
  },
});

describe('UMA multipliers', () => {
  it('is millisatoshis per minor unit: 1 BTC = 100000 USD makes a cent 10000 msats', async () => {
    const m = await multiplierOf(at(rational(1n, 100_000n)), 'USD');
    expect(m && multiplierNumber(m)).toBe(10_000);
    expect(invoiceMsats(10_000n, m!, 5n)).toBe(100_000_005n);
  });

  it('keeps three decimals and rounds the invoice half up', async () => {
    const m = await multiplierOf(at(rational(1n, 92_000n)), 'EUR'); // 10869.5652… msats per cent
    expect(multiplierNumber(m!)).toBe(10869.565);
    expect(invoiceMsats(1n, m!, 0n)).toBe(10870n);
    expect(invoiceMsats(2n, m!, 0n)).toBe(21739n); // 21739.13
    expect(parseMultiplier(10869.565)).toEqual(m);
  });

  it('refuses what is not a positive finite number', () => {
    for (const v of [0, -1, Infinity, NaN, '1000', null, 1e-30]) expect(parseMultiplier(v)).toBeNull();
  });
});

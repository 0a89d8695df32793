import { describe, expect, it } from 'vitest';
import { createFeeSchedule, DEFAULT_CROSS_CURRENCY_FEE, DEFAULT_SAME_CURRENCY_FEE, FeeScheduleError, parseFeeSchedule } from './fees.js';

describe('fee schedule', () => {
  const schedule = parseFeeSchedule(
    JSON.stringify({
      corridors: [
        { from: '*', to: '*', serviceFixedFee: 0, serviceVariableRate: '0.004' },
        { from: 'USD', to: '*', serviceFixedFee: '100', serviceVariableRate: '0.002' },
        { from: '*', to: 'BTC', serviceFixedFee: 5, serviceVariableRate: '0.005', counterpartyFixedFee: 10 },
        { from: 'USD', to: 'EUR', serviceFixedFee: 25, serviceVariableRate: '0.001', counterpartyFixedFee: '9007199254740991' },
        { from: 'EUR', to: 'EUR', serviceFixedFee: 1 },
      ],
      sameCurrency: { serviceVariableRate: '0.0001' },
    }),
  );

  it('picks the most specific rule: exact pair > from > to > wildcard', () => {
    expect(schedule.feeFor('USD', 'EUR')).toEqual({ serviceFixedFee: 25n, serviceVariableRate: '0.001', counterpartyFixedFee: 9007199254740991n });
    expect(schedule.feeFor('USD', 'BTC')).toEqual({ serviceFixedFee: 100n, serviceVariableRate: '0.002', counterpartyFixedFee: 0n });
    expect(schedule.feeFor('EUR', 'BTC')).toEqual({ serviceFixedFee: 5n, serviceVariableRate: '0.005', counterpartyFixedFee: 10n });
    expect(schedule.feeFor('GBP', 'MXN')).toEqual({ serviceFixedFee: 0n, serviceVariableRate: '0.004', counterpartyFixedFee: 0n });
  });

  it('wildcards never match same-currency pairs', () => {
    expect(schedule.feeFor('USD', 'USD')).toEqual({ serviceFixedFee: 0n, serviceVariableRate: '0.0001', counterpartyFixedFee: 0n });
    expect(schedule.feeFor('EUR', 'EUR')).toEqual({ serviceFixedFee: 1n, serviceVariableRate: '0', counterpartyFixedFee: 0n });
  });

  it('has documented defaults', () => {
    const empty = parseFeeSchedule({});
    expect(empty.feeFor('USD', 'EUR')).toEqual(DEFAULT_CROSS_CURRENCY_FEE);
    expect(empty.feeFor('USD', 'USD')).toEqual(DEFAULT_SAME_CURRENCY_FEE);
    expect(DEFAULT_CROSS_CURRENCY_FEE).toEqual({ serviceFixedFee: 0n, serviceVariableRate: '0.003', counterpartyFixedFee: 0n });
    expect(createFeeSchedule([]).feeFor('BTC', 'UGX').serviceVariableRate).toBe('0.003');
  });

  it.each([
    ['not JSON', '{', '$'],
    ['an array', [], '$'],
    ['unknown top-level field', { fees: [] }, '$.fees'],
    ['corridors not an array', { corridors: {} }, '$.corridors'],
    ['unknown currency', { corridors: [{ from: 'USD', to: 'XYZ' }] }, '$.corridors[0].to'],
    ['lower-case currency', { corridors: [{ from: 'usd', to: '*' }] }, '$.corridors[0].from'],
    ['unknown rule field', { corridors: [{ from: 'USD', to: '*', fixedFee: 1 }] }, '$.corridors[0].fixedFee'],
    ['negative amount', { corridors: [{ from: 'USD', to: '*', serviceFixedFee: -1 }] }, '$.corridors[0].serviceFixedFee'],
    ['fractional amount', { corridors: [{ from: 'USD', to: '*', serviceFixedFee: 1.5 }] }, '$.corridors[0].serviceFixedFee'],
    ['amount above 2^53-1', { corridors: [{ from: 'USD', to: '*', serviceFixedFee: '9007199254740992' }] }, '$.corridors[0].serviceFixedFee'],
    ['unsafe number', { corridors: [{ from: 'USD', to: '*', counterpartyFixedFee: 2 ** 60 }] }, '$.corridors[0].counterpartyFixedFee'],
    ['amount string with sign', { corridors: [{ from: 'USD', to: '*', serviceFixedFee: '+5' }] }, '$.corridors[0].serviceFixedFee'],
    ['variable rate as number', { corridors: [{ from: 'USD', to: '*', serviceVariableRate: 0.003 }] }, '$.corridors[0].serviceVariableRate'],
    ['variable rate 1', { corridors: [{ from: 'USD', to: '*', serviceVariableRate: '1' }] }, '$.corridors[0].serviceVariableRate'],
    ['variable rate in percent', { corridors: [{ from: 'USD', to: '*', serviceVariableRate: '0.3%' }] }, '$.corridors[0].serviceVariableRate'],
    [
      'duplicate corridor',
      {
        corridors: [
          { from: 'USD', to: '*' },
          { from: 'USD', to: '*' },
        ],
      },
      'corridors[1]',
    ],
    ['bad sameCurrency', { sameCurrency: { serviceVariableRate: '-0.1' } }, '$.sameCurrency.serviceVariableRate'],
  ])('rejects %s', (_name, json, path) => {
    try {
      parseFeeSchedule(json);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(FeeScheduleError);
      expect((e as FeeScheduleError).path).toBe(path);
    }
  });
});

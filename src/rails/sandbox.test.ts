import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS } from './types.js';
import { payoutPlan, pullPlan, SANDBOX_LONG_PAYMENT_MS, SANDBOX_PENDING_FAILURE_MS } from './sandbox.js';

describe('sandbox rail plans', () => {
  it('divide the spec delays by SANDBOX_TIME_SCALE', () => {
    expect(payoutPlan('003', 1)[0].afterMs).toBe(SANDBOX_LONG_PAYMENT_MS);
    expect(payoutPlan('003', 60)[0].afterMs).toBe(6_000);
    expect(pullPlan('005', 1000)[0].afterMs).toBe(SANDBOX_PENDING_FAILURE_MS / 1000);
    // Never 0: a timed step stays a timed step, however large the scale.
    expect(payoutPlan('003', 1_000_000)[0].afterMs).toBe(1);
  });

  it('every failure reason is one of the spec enum; unknown suffixes succeed at once', () => {
    for (const s of ['000', '001', '002', '003', '004', '005', '006', '007', '008', '102', '999']) {
      for (const step of [...payoutPlan(s, 1), ...pullPlan(s, 1)]) {
        if (step.event.kind !== 'COMPLETE') expect(FAILURE_REASONS).toContain(step.event.reason);
      }
    }
    expect(payoutPlan('123', 1)).toEqual([{ afterMs: 0, event: { kind: 'COMPLETE' } }]);
    expect(pullPlan('007', 1)).toEqual([{ afterMs: 0, event: { kind: 'COMPLETE' } }]);
  });
});

import { describe, expect, it } from 'vitest';
import { createFailureLimiter } from './rate-limit.js';

describe('failed-authentication limiter', () => {
  it('limits an address after `limit` failures in the window and frees it as they age out', () => {
    let t = 1_000_000;
    const limiter = createFailureLimiter({ limit: 3, windowMs: 60_000, now: () => t });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
      limiter.fail('10.0.0.1');
      t += 10_000;
    }
    // Failures at 0 s, 10 s, 20 s; now 30 s: the first leaves the window at 60 s.
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(30);
    expect(limiter.retryAfterSeconds('10.0.0.2')).toBe(0);
    t += 30_000;
    expect(limiter.retryAfterSeconds('10.0.0.1')).toBe(0);
  });

  it('keeps a bounded number of addresses and can be turned off', () => {
    const limiter = createFailureLimiter({ limit: 1, windowMs: 60_000 });
    for (let i = 0; i < 10_050; i++) limiter.fail(`addr-${i}`);
    expect(limiter.retryAfterSeconds('addr-0')).toBe(0); // dropped: the stalest go first
    expect(limiter.retryAfterSeconds('addr-10049')).toBeGreaterThan(0);
    const off = createFailureLimiter({ limit: 0, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) off.fail('x');
    expect(off.retryAfterSeconds('x')).toBe(0);
  });
});

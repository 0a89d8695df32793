/**
 * Failed-authentication limit per key (the client address and the client id, see failureKey in
 * auth.ts): after `limit` failed authentications (a credential was presented and refused) within
 * `windowMs`, further failures under that key answer 429 RATE_LIMITED with Retry-After until the
 * oldest failure leaves the window. A credential that verifies is never refused.
 *
 * A sliding window of failure times per address, in memory, per node: nothing is counted for
 * successful requests, so legitimate traffic costs one map lookup. The map is bounded (the
 * addresses with the oldest last failure are dropped first), so a flood of spoofed addresses
 * cannot grow memory without limit.
 */
export interface FailureLimiter {
  /** Seconds until this key may fail again without 429, or 0 when it is not limited. */
  retryAfterSeconds(address: string): number;
  /** Records a failed authentication under this key. */
  fail(address: string): void;
}

const MAX_ADDRESSES = 10_000;

export function createFailureLimiter(opts: { limit: number; windowMs: number; now?: () => number }): FailureLimiter {
  const now = opts.now ?? Date.now;
  // address → failure times, oldest first, at most `limit` kept (only the oldest matters once full).
  const failures = new Map<string, number[]>();

  function recent(address: string, t: number): number[] | undefined {
    const times = failures.get(address);
    if (!times) return undefined;
    while (times.length && times[0] <= t - opts.windowMs) times.shift();
    if (times.length === 0) {
      failures.delete(address);
      return undefined;
    }
    return times;
  }

  return {
    retryAfterSeconds(address) {
      if (opts.limit <= 0) return 0;
      const t = now();
      const times = recent(address, t);
      if (!times || times.length < opts.limit) return 0;
      return Math.max(1, Math.ceil((times[0] + opts.windowMs - t) / 1000));
    },
    fail(address) {
      if (opts.limit <= 0) return;
      const t = now();
      const times = recent(address, t) ?? [];
      times.push(t);
      if (times.length > opts.limit) times.shift();
      // Re-insert so the map's order is the order of last failure: the first key is the stalest.
      failures.delete(address);
      failures.set(address, times);
      if (failures.size > MAX_ADDRESSES) failures.delete(failures.keys().next().value as string);
    },
  };
}

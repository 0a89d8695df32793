/**
 * A circuit breaker per webhook endpoint, in memory on each node. Closed: attempts go out. After
 * `failures` failed attempts in a row the circuit opens for `openMs` (doubling on each failed
 * probe, up to `maxOpenMs`): attempts to that endpoint are not made, the delivery worker records
 * them as failed with the error "circuit open" and puts them back on their retry schedule. Once
 * the time is up one attempt goes out as a probe (half-open): its success closes the circuit, its
 * failure opens it again. A dead or hanging endpoint then costs a few attempts per period instead
 * of one connection (or a 10 s timeout) per delivery, and cannot hold the delivery slots that
 * other platforms' endpoints need.
 */
export interface CircuitOptions {
  failures?: number;
  openMs?: number;
  maxOpenMs?: number;
  /** Endpoints remembered at once; the least recently used is forgotten (as if closed). */
  maxEntries?: number;
  now?: () => number;
}

interface State {
  failures: number;
  openUntil: number;
  openMs: number;
  probing: boolean;
}

export type CircuitDecision = 'attempt' | 'probe' | 'open';

export function createCircuitBreaker(opts: CircuitOptions = {}) {
  const threshold = opts.failures ?? 5;
  const baseOpenMs = opts.openMs ?? 30_000;
  const maxOpenMs = opts.maxOpenMs ?? 10 * 60_000;
  const maxEntries = opts.maxEntries ?? 10_000;
  const now = opts.now ?? Date.now;
  const states = new Map<string, State>();

  function touch(key: string, state: State) {
    states.delete(key);
    states.set(key, state);
    while (states.size > maxEntries) states.delete(states.keys().next().value as string);
  }

  return {
    /** Whether an attempt to this endpoint may go out now; a 'probe' must be followed by record(). */
    decide(key: string): CircuitDecision {
      const s = states.get(key);
      if (!s || s.failures < threshold) return 'attempt';
      if (s.probing || now() < s.openUntil) return 'open';
      s.probing = true;
      return 'probe';
    },
    /** The result of an attempt that went out. */
    record(key: string, ok: boolean) {
      const s = states.get(key);
      if (ok) {
        if (s) states.delete(key);
        return;
      }
      const state = s ?? { failures: 0, openUntil: 0, openMs: baseOpenMs, probing: false };
      state.failures++;
      if (state.probing) {
        state.probing = false;
        state.openMs = Math.min(maxOpenMs, state.openMs * 2);
        state.openUntil = now() + state.openMs;
      } else if (state.failures === threshold) {
        state.openUntil = now() + state.openMs;
      }
      touch(key, state);
    },
    /** A probe that was not made after all (no outcome to learn from): the next attempt probes. */
    release(key: string) {
      const s = states.get(key);
      if (s) s.probing = false;
    },
    state(key: string): 'closed' | 'open' | 'half-open' {
      const s = states.get(key);
      if (!s || s.failures < threshold) return 'closed';
      return s.probing || now() >= s.openUntil ? 'half-open' : 'open';
    },
  };
}

export type CircuitBreaker = ReturnType<typeof createCircuitBreaker>;

/** Whether a failed attempt says the endpoint is unwell (counts toward opening its circuit). */
export function countsAgainstEndpoint(outcome: { ok: boolean; statusCode: number | null; error: string | null }): boolean {
  if (outcome.ok) return false;
  if (outcome.error?.startsWith('refused:')) return false; // the URL check, not the endpoint
  if (outcome.statusCode === null) return true; // no answer: refused, reset, timeout, TLS, DNS
  return outcome.statusCode >= 500 || outcome.statusCode === 429;
}

/**
 * Webhook retry schedule (decision D7: retry for 3 days until a 2xx).
 *
 * Exponential from 5 s, doubling, each delay capped at 4 h, until the nominal delays add up to at
 * least 3 days; then `null`, and the delivery is marked failed.
 *
 * Jitter is added on top of each nominal delay (never subtracted), up to half the delay and at
 * most 5 minutes. Why not classic full jitter (random in [0, delay)): this function is stateless,
 * so jitter accumulates over ~30 retries; full jitter would make the "3 days" anything from a few
 * hours to 3 days. Upward, bounded jitter keeps the promise "at least 3 days" while still
 * spreading a burst of failures (an integrator's outage) so the retries do not arrive in lockstep;
 * the test proves the worst case stays under 3 days + one cap.
 */

export const BASE_DELAY_MS = 5_000;
export const MAX_DELAY_MS = 4 * 60 * 60 * 1000; // per-attempt cap
export const RETRY_HORIZON_MS = 3 * 24 * 60 * 60 * 1000;
export const JITTER_RATIO = 0.5; // jitter up to this fraction of the nominal delay...
export const MAX_JITTER_MS = 5 * 60 * 1000; // ...but never more than this

/** Nominal delay before retry n+1, indexed by n-1 (n = attempts made so far). Frozen. */
export const RETRY_SCHEDULE_MS: readonly number[] = Object.freeze(buildSchedule());

/** First attempt plus every retry. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

function buildSchedule(): number[] {
  const delays: number[] = [];
  let total = 0;
  while (total < RETRY_HORIZON_MS) {
    const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** delays.length);
    delays.push(delay);
    total += delay;
  }
  return delays;
}

/**
 * How long to wait after attempt number `attempt` (1 = the first attempt just failed) before
 * the next one, or null when the schedule is exhausted and the delivery should be marked failed.
 */
export function nextAttemptDelayMs(attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a positive integer, got ${attempt}`);
  if (attempt > RETRY_SCHEDULE_MS.length) return null;
  const nominal = RETRY_SCHEDULE_MS[attempt - 1];
  // Clamp: a bad random source must not break the bounds the schedule promises.
  const r = Math.min(Math.max(random(), 0), 1 - Number.EPSILON);
  return nominal + Math.floor(r * maxJitterMs(nominal));
}

/** The largest jitter added to a nominal delay (exclusive bound). */
export function maxJitterMs(nominalDelayMs: number): number {
  return Math.min(nominalDelayMs * JITTER_RATIO, MAX_JITTER_MS);
}

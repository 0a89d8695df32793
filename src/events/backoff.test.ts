import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BASE_DELAY_MS, MAX_ATTEMPTS, MAX_DELAY_MS, MAX_JITTER_MS, maxJitterMs, nextAttemptDelayMs, RETRY_HORIZON_MS, RETRY_SCHEDULE_MS } from './backoff.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Sum of the delays actually returned until null, with a given random source. */
function horizon(random: () => number): { total: number; attempts: number } {
  let total = 0;
  let attempt = 1;
  for (;;) {
    const delay = nextAttemptDelayMs(attempt, random);
    if (delay === null) return { total, attempts: attempt };
    total += delay;
    attempt++;
  }
}

describe('retry schedule', () => {
  it('retries for at least 3 days and less than 3 days + one cap, whatever the jitter', () => {
    expect(RETRY_HORIZON_MS).toBe(3 * DAY_MS);
    for (const random of [() => 0, () => 0.5, () => 0.999999999, Math.random]) {
      const { total, attempts } = horizon(random);
      expect(total).toBeGreaterThanOrEqual(3 * DAY_MS);
      expect(total).toBeLessThan(3 * DAY_MS + MAX_DELAY_MS);
      expect(attempts).toBe(MAX_ATTEMPTS);
    }
  });

  it('starts around 5-10 s and caps each delay at a few hours', () => {
    expect(RETRY_SCHEDULE_MS[0]).toBe(BASE_DELAY_MS);
    expect(nextAttemptDelayMs(1, () => 0)).toBeGreaterThanOrEqual(5_000);
    expect(nextAttemptDelayMs(1, () => 0.999)).toBeLessThanOrEqual(10_000);
    expect(Math.max(...RETRY_SCHEDULE_MS)).toBe(MAX_DELAY_MS);
    expect(MAX_DELAY_MS).toBeLessThanOrEqual(6 * 60 * 60 * 1000);
  });

  it('grows: doubling until the cap, then flat', () => {
    for (let i = 1; i < RETRY_SCHEDULE_MS.length; i++) {
      expect(RETRY_SCHEDULE_MS[i]).toBe(Math.min(MAX_DELAY_MS, RETRY_SCHEDULE_MS[i - 1] * 2));
    }
    // Jitter never lets a later delay fall below an earlier nominal one.
    for (let a = 2; a < MAX_ATTEMPTS; a++) {
      expect(nextAttemptDelayMs(a, () => 0)!).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[a - 2]);
    }
  });

  it('keeps jitter within [nominal, nominal + min(nominal/2, 5 min))', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: MAX_ATTEMPTS - 1 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, r) => {
        const nominal = RETRY_SCHEDULE_MS[attempt - 1];
        const delay = nextAttemptDelayMs(attempt, () => r)!;
        return Number.isInteger(delay) && delay >= nominal && delay < nominal + maxJitterMs(nominal) && delay - nominal < MAX_JITTER_MS;
      }),
    );
  });

  it('spreads retries of the same attempt', () => {
    const seen = new Set(Array.from({ length: 50 }, () => nextAttemptDelayMs(10)));
    expect(seen.size).toBeGreaterThan(10);
  });

  it('returns null after the last attempt and refuses nonsense', () => {
    expect(nextAttemptDelayMs(MAX_ATTEMPTS - 1)).not.toBeNull();
    expect(nextAttemptDelayMs(MAX_ATTEMPTS)).toBeNull();
    expect(nextAttemptDelayMs(MAX_ATTEMPTS + 100)).toBeNull();
    expect(() => nextAttemptDelayMs(0)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1.5)).toThrow(RangeError);
    expect(nextAttemptDelayMs(1, () => 7)).toBeLessThan(BASE_DELAY_MS + maxJitterMs(BASE_DELAY_MS)); // clamped
  });
});

describe('docs/webhooks.md', () => {
  // The integrator docs list the schedule by hand; this keeps them in step with the code.
  const markdown = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');

  const human = (ms: number) => {
    const s = ms / 1000;
    const parts = [
      [Math.floor(s / 3600), 'h'],
      [Math.floor((s % 3600) / 60), 'min'],
      [s % 60, 's'],
    ] as const;
    return parts
      .filter(([n]) => n > 0)
      .map(([n, unit]) => `${n} ${unit}`)
      .join(' ');
  };

  it('lists the retry schedule and attempt count of backoff.ts', () => {
    const growing = RETRY_SCHEDULE_MS.filter((d) => d < MAX_DELAY_MS).map(human);
    const line = `${growing.join(', ')}, then every ${human(MAX_DELAY_MS)}`;
    expect(markdown).toContain(`<!-- retry-schedule: checked against src/events/backoff.ts by src/events/backoff.test.ts -->\n${line}\n`);
    expect(markdown).toContain(`**${MAX_ATTEMPTS} attempts**`);
    expect(markdown).toContain(`up to half of it, at most ${MAX_JITTER_MS / 60_000} minutes`);
  });
});

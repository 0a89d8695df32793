import { describe, expect, it } from 'vitest';
import { randomView } from './random.js';

describe('randomView', () => {
  it('hands out each pooled byte once, across refills of the pool', () => {
    // 2,000 draws of 10 bytes span five refills; 80 random bits never repeat by chance.
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const view = randomView(10);
      expect(view.length).toBe(10);
      seen.add(view.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('gives a whole pool at once, and a draw that does not fit what is left comes from a fresh fill', () => {
    randomView(4000);
    const whole = Buffer.from(randomView(4096));
    expect(whole.length).toBe(4096);
    // Not a zeroed or constant buffer: a byte value repeated 4096 times has probability 2^-32760.
    expect(new Set(whole).size).toBeGreaterThan(1);
  });
});

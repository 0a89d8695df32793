import { describe, expect, it } from 'vitest';
import { validate, version } from 'uuid';
import { uuidv7 } from './uuid7.js';

describe('uuidv7', () => {
  it('makes valid version-7 UUIDs with the RFC variant, carrying the time in their first 48 bits', () => {
    const t = Date.UTC(2026, 10, 24, 5, 30, 0, 123);
    const id = uuidv7(t);
    expect(validate(id)).toBe(true);
    expect(version(id)).toBe(7);
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(t);
  });

  it('is strictly increasing within a millisecond, across a counter overflow and when the clock steps back', () => {
    const t = Date.UTC(2027, 0, 1);
    const ids = [...Array.from({ length: 10_000 }, () => uuidv7(t)), uuidv7(t - 5_000), uuidv7(t + 60_000)];
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws fresh randomness for every id (no two ids share their random tail)', () => {
    const tails = new Set(Array.from({ length: 5_000 }, () => uuidv7().slice(19)));
    expect(tails.size).toBe(5_000);
  });
});

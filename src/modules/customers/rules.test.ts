import { describe, expect, it } from 'vitest';
import { SANDBOX_SUFFIXES, sandboxSuffixOf } from '../../identifiers/sandbox-fixtures.js';
import { generateUmaAddress } from './rules.js';

describe('generated UMA addresses', () => {
  it('never end in a sandbox test pattern, so a lookup of one never fails on purpose', () => {
    // About 73 of 20,000 random endings would be one of the 15 patterns.
    const patterned = Array.from({ length: 20_000 }, () => generateUmaAddress('Ada Lovelace', 'sandbox.acme.uma.localhost')).filter((a) =>
      (SANDBOX_SUFFIXES as readonly string[]).includes(sandboxSuffixOf(a)),
    );
    expect(patterned).toEqual([]);
  });

  it('keep the readable part and the platform domain', () => {
    expect(generateUmaAddress('Ada Lovelace', 'Sandbox.Acme.uma.localhost')).toMatch(/^\$ada\.lovelace\.[0-9a-f]{10}@sandbox\.acme\.uma\.localhost$/);
  });
});

import { describe, expect, it } from 'vitest';
import { baseUrlOf, parseDomainAddresses } from './domain-map.js';

describe('UMA_DOMAIN_ADDRESSES', () => {
  it('maps exact domains and wildcards, and leaves others on https', () => {
    const problems: string[] = [];
    const map = parseDomainAddresses('*.b.test=http://127.0.0.1:9092, vasp.test=http://127.0.0.1:9300/', problems);
    expect(problems).toEqual([]);
    expect(baseUrlOf(map, 'sandbox.bx.b.test')).toEqual({ base: 'http://127.0.0.1:9092', mapped: true });
    expect(baseUrlOf(map, 'VASP.test')).toEqual({ base: 'http://127.0.0.1:9300', mapped: true });
    // The wildcard covers names under the domain, not the domain itself nor look-alikes.
    expect(baseUrlOf(map, 'b.test')).toEqual({ base: 'https://b.test', mapped: false });
    expect(baseUrlOf(map, 'evilb.test')).toEqual({ base: 'https://evilb.test', mapped: false });
  });

  it('names each malformed entry', () => {
    const problems: string[] = [];
    expect(parseDomainAddresses('a.test=ftp://x,b.test,c.test=http://h/path,=http://h', problems)).toEqual([]);
    expect(problems).toHaveLength(4);
  });
});

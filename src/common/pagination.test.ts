import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.js';
import { Cursors, paginate } from './pagination.js';

describe('Cursors', () => {
  const cursors = new Cursors('secret-1');

  it('round-trips the last id for the scope it was issued for', () => {
    const c = cursors.encode('Customer:abc', 'scope-a');
    expect(cursors.decode(c, 'scope-a')).toBe('Customer:abc');
  });

  it('keeps each scope apart across more scopes than it remembers signatures of', () => {
    const issued = Array.from({ length: 1200 }, (_, i) => cursors.encode(`Customer:${i}`, `scope-${i}`));
    for (const i of [0, 1, 600, 1199]) {
      expect(cursors.decode(issued[i], `scope-${i}`)).toBe(`Customer:${i}`);
      expect(() => cursors.decode(issued[i], `scope-${(i + 1) % 1200}`)).toThrow(ApiError);
    }
  });

  it('signs a long scope (filters of any length) as it signs a short one', () => {
    const long = `customers|${'x'.repeat(5000)}`;
    const c = cursors.encode('Customer:abc', long);
    expect(cursors.decode(c, long)).toBe('Customer:abc');
    expect(() => cursors.decode(c, `${long}y`)).toThrow(ApiError);
  });

  it.each([
    ['another scope', (c: string) => [c, 'scope-b']],
    ['a changed payload', (c: string) => [`x${c.slice(1)}`, 'scope-a']],
    ['a changed signature', (c: string) => [`${c.slice(0, -1)}${c.endsWith('A') ? 'B' : 'A'}`, 'scope-a']],
    ['garbage', () => ['not-a-cursor', 'scope-a']],
    ['another secret', (c: string) => [new Cursors('secret-2').encode('Customer:abc', 'scope-a'), 'scope-a']],
  ])('refuses %s with INVALID_INPUT on the cursor field', (_name, mutate) => {
    const [cursor, scope] = mutate(cursors.encode('Customer:abc', 'scope-a'));
    try {
      cursors.decode(cursor, scope);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      expect((e as ApiError).details).toEqual({ fields: [expect.objectContaining({ field: 'cursor', in: 'query' })] });
    }
  });
});

describe('paginate', () => {
  const rows = Array.from({ length: 10 }, (_, i) => ({ id: `id-${String(9 - i).padStart(2, '0')}` })); // newest first
  const source = {
    fetch: async (after: string | undefined, n: number) => rows.filter((r) => after === undefined || r.id < after).slice(0, n),
    count: async () => rows.length,
  };

  it('walks every row once with hasMore/nextCursor as the spec says', async () => {
    const cursors = new Cursors('s');
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await paginate({ cursors, request: { limit: 3, cursor }, scope: 'x', ...source, view: (r) => r.id });
      expect(page.totalCount).toBe(10);
      seen.push(...page.data);
      if (!page.hasMore) {
        expect(page).not.toHaveProperty('nextCursor');
        break;
      }
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(rows.map((r) => r.id));
  });
});

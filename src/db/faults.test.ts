import { describe, expect, it } from 'vitest';
import { databaseUnavailable, DatabaseUnreachable, reachability, storageFull } from './faults.js';

describe('database faults', () => {
  it('a timed-out answer or connection holds new work off for a moment, then lets it try again', async () => {
    const reach = reachability(50);
    reach.check();
    // A refusal of the request is not a fault of reachability.
    reach.saw(Object.assign(new Error('duplicate key'), { code: '23505' }));
    reach.check();
    reach.saw(new Error('Query read timeout'));
    let refused: unknown;
    try {
      reach.check();
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(DatabaseUnreachable);
    // Work the hold refused does not prolong it: the process tries again after holdMs.
    await new Promise((r) => setTimeout(r, 30));
    reach.saw(refused);
    await new Promise((r) => setTimeout(r, 30));
    reach.check();
    reach.saw(new Error('timeout exceeded when trying to connect'));
    expect(() => reach.check()).toThrow(/could not be reached/);
    await new Promise((r) => setTimeout(r, 60));
    reach.saw(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(() => reach.check()).toThrow(DatabaseUnreachable);
  });

  it('tells an unreachable or slow database, and a full disk, from a refusal or a bug', () => {
    expect(databaseUnavailable(new DatabaseUnreachable(new Error('x')))).toBe(true);
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(databaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(databaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(storageFull(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(storageFull(Object.assign(new Error('could not extend file'), { code: '53100' }))).toBe(true);
    expect(storageFull(Object.assign(new Error('x'), { code: '57014' }))).toBe(false);
  });
});

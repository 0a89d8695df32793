// The short CI version of `npm run chaos:crash` (docs/reliability.md): the real server killed
// with SIGKILL 20 times under a mixed payment load, restarted each time, then every acknowledged
// effect proven exactly once, the ledger verified and every webhook delivered.
import { describe, expect, it } from 'vitest';
import { dialect } from '../helpers/env.js';
import { crashRun } from '../../scripts/chaos/crash.js';

describe(`crash safety on ${dialect}`, () => {
  it('20 SIGKILLs under load lose and double nothing', { timeout: 600_000 }, async () => {
    const r = await crashRun({ dialect, kills: 20, killEveryMs: [200, 600], concurrency: 6 });
    expect(r.problems).toEqual([]);
    expect(r.facts.kills).toBe(20);
    // The load really ran across the kills: effects of every kind, and requests that died with the server.
    expect(r.facts.customers).toBeGreaterThan(5);
    expect(r.facts.fundings).toBeGreaterThan(5);
    expect(r.facts.unanswered).toBeGreaterThan(0);
  });
});

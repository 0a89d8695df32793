// The short CI version of `npm run chaos:nodes` (docs/deployment.md): three server processes on
// one PostgreSQL, the load spread over them, payments racing on one balance, a node killed once.
// (PostgreSQL only: several nodes need it; the sqlite project excludes this file.)
import { describe, expect, it } from 'vitest';
import { nodesRun } from '../../scripts/chaos/multi-node.js';

describe('three nodes on one PostgreSQL', () => {
  it('no overdraft, one execution per quote, each job once, every webhook delivered', { timeout: 300_000 }, async () => {
    const r = await nodesRun({ nodes: 3, seconds: 20, kills: 1, concurrency: 9 });
    expect(r.problems).toEqual([]);
    // Every node answered a share of the load.
    for (const n of String(r.facts.answeredPerNode).split('/')) expect(Number(n)).toBeGreaterThan(20);
    expect(r.facts.webhookEvents).toBeGreaterThan(0);
  });
});

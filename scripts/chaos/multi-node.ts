// `npm run chaos:nodes`: three server processes on one PostgreSQL, a client spreading the load
// over them, every payment debiting one shared balance and every quote executed twice at once on
// different nodes; optionally a node killed now and then (CHAOS_KILLS). Then the proof: no
// overdraft, one execution per quote, each job run once, every webhook delivered
// (docs/deployment.md, docs/reliability.md). CHAOS_SECONDS (default 60), CHAOS_NODES (default 3).
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { PG_URL } from '../../test/helpers/env.js';
import { availableOperations, Cluster, prepareWorld, runLoad, sleep, verify } from './lib.js';

export interface NodesOptions {
  nodes: number;
  seconds: number;
  kills: number;
  concurrency: number;
  log?: (line: string) => void;
}

/** Jobs claimed by more than one node at the same time would show as two workers on one delivery. */
async function doubleDeliveries(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // Two attempts of one delivery that started within the same second on a delivery that
    // succeeded at its first try would mean two nodes ran the same job.
    const r = await client.query(
      `select count(*)::int as n from webhook_deliveries d where d.status = 'DELIVERED' and (select count(*) from webhook_attempts a where a.delivery_id = d.id and a.status_code between 200 and 299) > 1`,
    );
    return r.rows[0].n;
  } finally {
    await client.end();
  }
}

export async function nodesRun(o: NodesOptions) {
  const log = o.log ?? (() => undefined);
  const cluster = await Cluster.start('postgres', o.nodes, { WEBHOOK_CONCURRENCY: '4' });
  try {
    const world = await prepareWorld(cluster);
    const ops = availableOperations(world);
    log(`${o.nodes} nodes: operations ${ops.map((op) => op.name).join(', ')}`);
    const errors: Error[] = [];
    const until = Date.now() + o.seconds * 1000;
    const load = runLoad(
      world,
      ops,
      o.concurrency,
      () => Date.now() > until,
      (e) => errors.push(e),
    );
    for (let k = 0; k < o.kills; k++) {
      await sleep((o.seconds * 1000) / (o.kills + 1));
      const node = cluster.nodes[k % cluster.nodes.length];
      await cluster.kill(node);
      await cluster.restart(node);
      log(`killed and restarted node ${node.index}`);
    }
    const operations = await load;
    const { problems, facts } = await verify(cluster, world);
    const doubled = await doubleDeliveries(cluster.env.DATABASE_URL ?? PG_URL);
    if (doubled) problems.push(`${doubled} webhook deliveries succeeded more than once (a job ran on two nodes)`);
    const perNode = cluster.nodes.map((n) => world.client.log.filter((e) => e.node === n.index && e.answer).length);
    await world.receiver.close();
    return {
      problems: [...errors.map((e) => `operation failed: ${e.message}`), ...problems],
      facts: { ...facts, operations, answeredPerNode: perNode.join('/') } as Record<string, number | string>,
    };
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  const r = await nodesRun({
    nodes: Number(process.env.CHAOS_NODES ?? 3),
    seconds: Number(process.env.CHAOS_SECONDS ?? 60),
    kills: Number(process.env.CHAOS_KILLS ?? 3),
    concurrency: Number(process.env.CHAOS_CONCURRENCY ?? 12),
    log: (l) => process.stdout.write(`${l}\n`),
  });
  process.stdout.write(`\n${JSON.stringify(r.facts)} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  if (r.problems.length) {
    process.stdout.write(`${r.problems.length} PROBLEM(S)\n  ${r.problems.join('\n  ')}\n`);
    process.exit(1);
  }
  process.stdout.write('no overdraft, one execution per quote, each job once, every webhook delivered\n');
  process.exit(0);
}

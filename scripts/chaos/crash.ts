// `npm run chaos:crash`: a mixed payment load against the real server while it is killed with
// SIGKILL at random moments and restarted, on SQLite and on PostgreSQL; then the proof that every
// acknowledged effect happened once (docs/reliability.md).
// CHAOS_DB=sqlite|postgres (default both), CHAOS_KILLS (default 25), CHAOS_KILL_MS=min,max between
// kills (default 1500,4000), CHAOS_CONCURRENCY (default 8).
import { pathToFileURL } from 'node:url';
import { availableOperations, Cluster, prepareWorld, runLoad, sleep, verify } from './lib.js';

export interface CrashOptions {
  dialect: 'sqlite' | 'postgres';
  kills: number;
  killEveryMs: [number, number];
  concurrency: number;
  log?: (line: string) => void;
}

export async function crashRun(o: CrashOptions) {
  const log = o.log ?? (() => undefined);
  const cluster = await Cluster.start(o.dialect, 1);
  try {
    const world = await prepareWorld(cluster);
    const ops = availableOperations(world);
    log(`${o.dialect}: operations ${ops.map((op) => op.name).join(', ')}`);
    const errors: Error[] = [];
    let killing = true;
    const load = runLoad(
      world,
      ops,
      o.concurrency,
      () => !killing,
      (e) => errors.push(e),
    );
    const node = cluster.nodes[0];
    for (let k = 1; k <= o.kills; k++) {
      await sleep(o.killEveryMs[0] + Math.random() * (o.killEveryMs[1] - o.killEveryMs[0]));
      await cluster.kill(node);
      await cluster.restart(node);
      log(`${o.dialect}: kill ${k}/${o.kills} done, ${world.client.log.length} requests so far`);
    }
    killing = false;
    const operations = await load;
    const { problems, facts } = await verify(cluster, world);
    await world.receiver.close();
    return {
      problems: [...errors.map((e) => `operation failed: ${e.message}`), ...problems],
      facts: { ...facts, operations, kills: node.restarts } as Record<string, number>,
    };
  } finally {
    await cluster.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dialects = (process.env.CHAOS_DB ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  const [min, max] = (process.env.CHAOS_KILL_MS ?? '1500,4000').split(',').map(Number);
  let failed = false;
  for (const dialect of dialects) {
    const t0 = Date.now();
    const r = await crashRun({
      dialect,
      kills: Number(process.env.CHAOS_KILLS ?? 25),
      killEveryMs: [min, max],
      concurrency: Number(process.env.CHAOS_CONCURRENCY ?? 8),
      log: (l) => process.stdout.write(`${l}\n`),
    });
    process.stdout.write(`\n${dialect}: ${JSON.stringify(r.facts)} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    if (r.problems.length) {
      failed = true;
      process.stdout.write(`${dialect}: ${r.problems.length} PROBLEM(S)\n  ${r.problems.join('\n  ')}\n`);
    } else process.stdout.write(`${dialect}: every acknowledged effect exactly once, ledger verified, every webhook delivered\n`);
  }
  process.exit(failed ? 1 : 0);
}

// Scale-out on PostgreSQL (issue "Scale-out on PostgreSQL"): full payments (POST /quotes with
// immediatelyExecute, instant sandbox rail) from 1 and from 40 payers on one node, and from 40
// payers with the load spread over 3 nodes on the same database (one node and three alternate, all
// three warmed alike), beside a bare Fastify POST in the same run. While each load runs,
// pg_stat_activity is sampled every 100 ms: how often a server connection waited on a row lock (and
// on which table) or sat idle inside a transaction. `ledger verify` runs at the end.
// Run: npx tsx bench/nodes.ts (BENCH_SECONDS to lengthen; BENCH_LABEL writes a section of its own
// beside the last unlabelled one).
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PG_URL } from '../test/helpers/env.js';
import { cli, serverEnvironment, startServer, type RunningServer } from '../test/helpers/server.js';
import { API, DIALECTS, machine, writeSection } from './lib.js';
import { cpuSeconds, drive, payingWorld, postgresCpuSeconds, startBare, type Json, type Measured } from './paying.js';

interface Waits {
  samples: number;
  lock: Map<string, number>;
  idleInTransaction: number;
}

/** Samples the server connections (by application name) every 100 ms while `work` runs. */
async function sampled<T>(applicationName: string, work: () => Promise<T>): Promise<{ result: T; waits: Waits }> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const waits: Waits = { samples: 0, lock: new Map(), idleInTransaction: 0 };
  let running = true;
  const sampling = (async () => {
    while (running) {
      // A connection waiting for a row holds (or waits for) a tuple lock on the row's table.
      const r = await client.query<{ state: string; wait_event_type: string | null; wait_event: string | null; query: string; tuple_table: string | null }>(
        `select a.state, a.wait_event_type, a.wait_event, a.query,
           (select l.relation::regclass::text from pg_locks l where l.pid = a.pid and l.locktype = 'tuple' limit 1) as tuple_table
         from pg_stat_activity a where a.application_name = $1`,
        [applicationName],
      );
      for (const row of r.rows) {
        waits.samples++;
        if (row.state === 'idle in transaction') waits.idleInTransaction++;
        if (row.wait_event_type === 'Lock') {
          // Else it waits for the transaction that holds the row (or the same key) to end: which
          // table, its statement's text cannot tell, as a payment's appends travel with its
          // account update in one statement.
          const table =
            row.tuple_table?.split('.').at(-1) ??
            (row.wait_event === 'transactionid' ? 'the end of another transaction' : /(?:update|into|from)\s+"?([a-z_]+)/i.exec(row.query)?.[1]) ??
            'other';
          waits.lock.set(table, (waits.lock.get(table) ?? 0) + 1);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  try {
    return { result: await work(), waits };
  } finally {
    running = false;
    await sampling;
    await client.end();
  }
}

/** 20 connections spread over the nodes; payers taken round robin across all of them. */
async function payOver(nodes: RunningServer[], auth: string, bodies: () => string, seconds?: number): Promise<Measured> {
  const json = { authorization: auth, 'content-type': 'application/json' };
  const share = (i: number) => Math.floor(20 / nodes.length) + (i < 20 % nodes.length ? 1 : 0);
  const cpu = () => [nodes.reduce((sum, node) => sum + cpuSeconds(node.process.pid!), 0), postgresCpuSeconds()];
  const cpuBefore = cpu();
  const parts = await Promise.all(
    nodes.map((node, i) =>
      drive(
        {
          url: `${node.baseUrl}${API}/quotes`,
          connections: share(i),
          ...(seconds ? { duration: seconds } : {}),
          requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: bodies() }) }],
        },
        node.baseUrl,
      ),
    ),
  );
  const cpuAfter = cpu();
  const rps = parts.reduce((sum, p) => sum + p.rps, 0);
  // CPU per payment, of every node together and of the database: on a shared machine, what more nodes cost.
  const answered = Math.max(
    1,
    parts.reduce((sum, p) => sum + (p.answered ?? 0), 0),
  );
  return {
    rps,
    serverCpuUs: Math.round(((cpuAfter[0] - cpuBefore[0]) * 1e6) / answered),
    databaseCpuUs: Math.round(((cpuAfter[1] - cpuBefore[1]) * 1e6) / answered),
    // Latency: the slowest node's figure, so a node that falls behind shows.
    p50: Math.max(...parts.map((p) => p.p50)),
    p99: Math.max(...parts.map((p) => p.p99)),
    failed: parts.reduce((sum, p) => sum + p.failed, 0),
    statements: Math.round((parts.reduce((sum, p) => sum + (p.statements ?? 0) * p.rps, 0) / Math.max(1, rps)) * 10) / 10,
  };
}

function describeWaits(w: Waits): string {
  const locks = [...w.lock.entries()].sort((a, b) => b[1] - a[1]);
  const total = locks.reduce((sum, [, n]) => sum + n, 0);
  const byTable = locks.length ? ` (${locks.map(([t, n]) => `${t} ${n}`).join(', ')})` : '';
  return `${total} of ${w.samples}${byTable}; idle in transaction ${w.idleInTransaction}`;
}

/** Several runs of one load as one figure: mean rate, CPU and round trips; the worst latency; every failure. */
function together(runs: Measured[]): Measured {
  const mean = (f: (m: Measured) => number) => runs.reduce((sum, m) => sum + f(m), 0) / runs.length;
  return {
    rps: Math.round(mean((m) => m.rps)),
    p50: Math.max(...runs.map((m) => m.p50)),
    p99: Math.max(...runs.map((m) => m.p99)),
    failed: runs.reduce((sum, m) => sum + m.failed, 0),
    statements: Math.round(mean((m) => m.statements ?? 0) * 10) / 10,
    serverCpuUs: Math.round(mean((m) => m.serverCpuUs ?? 0)),
    databaseCpuUs: Math.round(mean((m) => m.databaseCpuUs ?? 0)),
  };
}

function allWaits(runs: Waits[]): Waits {
  const lock = new Map<string, number>();
  for (const w of runs) for (const [table, n] of w.lock) lock.set(table, (lock.get(table) ?? 0) + n);
  return { samples: runs.reduce((sum, w) => sum + w.samples, 0), lock, idleInTransaction: runs.reduce((sum, w) => sum + w.idleInTransaction, 0) };
}

export async function run() {
  if (!DIALECTS.includes('postgres')) return;
  const bare = await startBare();
  const { env, dataDir, cleanup } = await serverEnvironment('postgres');
  const applicationName = `corridor-bench-${process.pid}`;
  const serverEnv = { ...env, LOG_LEVEL: 'error', DATABASE_URL: `${env.DATABASE_URL}&application_name=${applicationName}` };
  const nodes = [await startServer(serverEnv)];
  try {
    nodes.push(await startServer(serverEnv), await startServer(serverEnv));
    const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
    const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
    const { sources, quote } = await payingWorld(nodes[0].baseUrl, auth);
    const barePost = await drive({ url: `${bare.url}/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: quote(sources[0]) });
    let k = 0;
    const fortyPayers = () => quote(sources[k++ % sources.length]);
    // Every node first serves the whole load alone, unmeasured: a node's first seconds run code V8
    // has not yet optimized, at several times the CPU per payment, and a node warmed on a share of
    // the load stays colder than one that had all of it.
    for (const node of nodes) await payOver([node], auth, fortyPayers);
    const one = await sampled(applicationName, () => payOver(nodes.slice(0, 1), auth, () => quote(sources[0])));
    // One node, then three, then three, then one (the other two idle while one serves): every run
    // leaves the tables larger and may set off autovacuum or a checkpoint, so the mirrored order
    // keeps that drift, and the machine's, from favouring either.
    const runs: Record<1 | 3, { result: Measured; waits: Waits }[]> = { 1: [], 3: [] };
    for (const n of [1, 3, 3, 1] as const) runs[n].push(await sampled(applicationName, () => payOver(nodes.slice(0, n), auth, fortyPayers)));
    const forty = { result: together(runs[1].map((r) => r.result)), waits: allWaits(runs[1].map((r) => r.waits)) };
    const three = { result: together(runs[3].map((r) => r.result)), waits: allWaits(runs[3].map((r) => r.waits)) };
    for (const node of nodes) await node.stop();
    const verify = cli(['ledger', 'verify'], serverEnv);
    const verified = verify.status === 0 ? 'clean' : `FAILED (exit ${verify.status}): ${verify.stdout}${verify.stderr}`;

    const line = (name: string, m: Measured, waits?: Waits) =>
      `| ${name} | ${m.rps} | ${((m.rps / barePost.rps) * 100).toFixed(1)}% | ${m.p50} | ${m.p99} | ${m.statements ?? '—'} | ${m.serverCpuUs ?? '—'} | ${m.databaseCpuUs ?? '—'} | ${m.failed} | ${waits ? describeWaits(waits) : '—'} |`;
    const label = process.env.BENCH_LABEL;
    writeSection(
      label ? `nodes-${label}` : 'nodes',
      [
        `## Scale-out on PostgreSQL: one node and three${label ? ` (${label})` : ''}`,
        '',
        machine(),
        '',
        '| load | payments/s | vs bare POST (same run) | p50 ms | p99 ms | statements / payment | nodes CPU µs / payment | database CPU µs / payment | non-2xx | connection samples waiting on a lock (by table) |',
        '|---|---|---|---|---|---|---|---|---|---|',
        line('bare Fastify POST / (JSON)', barePost),
        line('1 node, 1 payer', one.result, one.waits),
        line('1 node, 40 payers (two runs)', forty.result, forty.waits),
        line('3 nodes, 40 payers (two runs)', three.result, three.waits),
        '',
        `Measured in the order one node, three, three, one, after every node served the load alone; each row of two runs gives their mean rate and CPU and the higher latency. Payments/s by run: one node ${runs[1].map((r) => r.result.rps).join(' and ')}, three nodes ${runs[3].map((r) => r.result.rps).join(' and ')}. Three nodes vs one (40 payers): ${((three.result.rps / forty.result.rps) * 100).toFixed(0)}%. \`ledger verify\` after the run: ${verified}.`,
      ].join('\n'),
    );
  } finally {
    for (const node of nodes) await node.stop();
    bare.child.kill();
    await cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

// The write path (issue "Payments at ten times the rate"): every hot route beside a bare Fastify
// route measured just before it in the same run, with latency, SQL statements per request, start
// time and idle RSS, on SQLite and PostgreSQL. Full payments: POST /quotes with immediatelyExecute
// to a sandbox account that completes at once, from one payer and from 40 payers. `ledger verify`
// runs at the end.
// Run: npx tsx bench/write-path.ts (BENCH_DB=sqlite to pick one, BENCH_SECONDS to lengthen).
import fs from 'node:fs';
import path from 'node:path';
import { cli, startServer, serverEnvironment } from '../test/helpers/server.js';
import { API, DIALECTS, machine, writeSection } from './lib.js';
import { drive, payingWorld, startBare, type Json, type Measured } from './paying.js';

/** A route's measurement and the bare route's just before it. */
type Paired = Measured & { ceiling: Measured; ceilingName: 'GET' | 'POST' };

const rssMiB = (pid: number) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function measure(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const bare = await startBare();
  const { env, cleanup } = await serverEnvironment(dialect);
  const serverEnv = { ...env, LOG_LEVEL: 'error' };
  // First start creates the database; the measured start is a restart on the existing data.
  await (await startServer(serverEnv)).stop();
  const t0 = performance.now();
  const server = await startServer(serverEnv);
  const startMs = Math.round(performance.now() - t0);
  await new Promise((r) => setTimeout(r, 2000));
  const idleRss = rssMiB(server.process.pid!);
  const creds = JSON.parse(fs.readFileSync(path.join(env.DATA_DIR, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
  const base = server.baseUrl;
  try {
    const json = { authorization: auth, 'content-type': 'application/json' };
    const cpu = { pid: server.process.pid!, postgres: dialect === 'postgres' };
    const { sources, quote } = await payingWorld(base, auth);
    let n = 0;
    const customerBody = () =>
      JSON.stringify({
        platformCustomerId: `bench-${dialect}-${process.pid}-${n++}`,
        customerType: 'INDIVIDUAL',
        fullName: 'Bench Customer',
        currencies: ['USD'],
      });

    // Each route is compared with the bare route measured just before it: a shared machine's speed
    // drifts within a run (the bare GET has moved by a fifth between two sections of one run).
    const bareCpu = { pid: bare.child.pid!, postgres: false };
    const ceilings = {
      GET: { url: `${bare.url}/` },
      POST: { url: `${bare.url}/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: customerBody() },
    };
    const beside = async (ceiling: keyof typeof ceilings, route: Record<string, unknown>): Promise<Paired> => {
      const bareRoute = await drive(ceilings[ceiling], undefined, bareCpu);
      return { ...(await drive(route, base, cpu)), ceiling: bareRoute, ceilingName: ceiling };
    };
    const ping = await beside('GET', { url: `${base}${API}/ping`, headers: { authorization: auth } });
    const createCustomer = await beside('POST', {
      url: `${base}${API}/customers`,
      requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: customerBody() }) }],
    });
    const listCustomers = await beside('GET', { url: `${base}${API}/customers?limit=20`, headers: { authorization: auth } });
    const onePayer = await beside('POST', { url: `${base}${API}/quotes`, requests: [{ method: 'POST', headers: json, body: quote(sources[0]) }] });
    let k = 0;
    const fortyPayers = await beside('POST', {
      url: `${base}${API}/quotes`,
      requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: quote(sources[k++ % sources.length]) }) }],
    });
    const peakRss = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1] ?? 0) >> 10;
    await server.stop();
    const verify = cli(['ledger', 'verify'], serverEnv);
    const verified = verify.status === 0 ? 'clean' : `FAILED (exit ${verify.status}): ${verify.stdout}${verify.stderr}`;

    const pct = (m: Measured, ceiling: Measured) => `${((m.rps / ceiling.rps) * 100).toFixed(1)}%`;
    const line = (name: string, m: Measured, ceiling: Measured, ceilingName: string) =>
      `| ${name} | ${m.rps} | ${pct(m, ceiling)} of ${ceilingName}${ceiling === m ? '' : ` (${ceiling.rps}/s just before)`} | ${m.p50} | ${m.p99} | ${m.statements ?? '—'} | ${m.serverCpuUs ?? '—'} | ${(dialect === 'postgres' ? m.databaseCpuUs : m.sqliteUs) ?? '—'} | ${m.failed} |`;
    const routeLine = (name: string, m: Paired) => line(name, m, m.ceiling, `bare ${m.ceilingName}`);
    return [
      `### ${dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL'}`,
      '',
      `| route | req/s | vs the bare Fastify route measured just before it | p50 ms | p99 ms | statements / request | server CPU µs / request | ${dialect === 'postgres' ? 'database CPU µs / request' : 'of which inside SQLite, µs / request'} | non-2xx |`,
      `|---|---|---|---|---|---|---|---|---|`,
      line('bare Fastify GET / (just before GET /ping)', ping.ceiling, ping.ceiling, 'GET'),
      line('bare Fastify POST / (JSON, just before POST /customers)', createCustomer.ceiling, createCustomer.ceiling, 'POST'),
      routeLine('GET /ping', ping),
      routeLine('POST /customers', createCustomer),
      routeLine('GET /customers?limit=20', listCustomers),
      routeLine('full payment, 1 payer (POST /quotes immediatelyExecute)', onePayer),
      routeLine('full payment, 40 payers', fortyPayers),
      '',
      `Start to /healthz on an existing database: ${startMs} ms. Idle RSS: ${idleRss} MiB; peak RSS under load: ${peakRss} MiB. \`ledger verify\` after the run: ${verified}.`,
    ].join('\n');
  } finally {
    await server.stop();
    bare.child.kill();
    await cleanup();
  }
}

export async function run() {
  const sections: string[] = [];
  for (const dialect of DIALECTS) sections.push(await measure(dialect));
  const label = process.env.BENCH_LABEL ?? 'after';
  writeSection(`write-path-${label}`, `## Write path (${label})\n\n${machine()}\n\n${sections.join('\n\n')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

// The write path (issue "Payments at ten times the rate"): every hot route beside a bare Fastify
// route in the same run, with latency, SQL statements per request, start time and idle RSS, on
// SQLite and PostgreSQL. Full payments: POST /quotes with immediatelyExecute to a sandbox account
// that completes at once, from one payer and from 40 payers. `ledger verify` runs at the end.
// Run: npx tsx bench/write-path.ts (BENCH_DB=sqlite to pick one, BENCH_SECONDS to lengthen).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { cli, freePort, startServer, serverEnvironment } from '../test/helpers/server.js';
import { API, DIALECTS, DURATION_S, machine, writeSection } from './lib.js';

interface Json {
  [k: string]: any;
}

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  statements?: number;
}

async function startBare(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.mjs')], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, child };
}

async function statementsSoFar(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^corridor_db_statements_total (\d+)/m.exec(text)?.[1] ?? NaN);
}

/** Drives one request shape for DURATION_S seconds at 20 connections; statements per answered request when a Corridor URL is given. */
async function drive(opts: Record<string, unknown>, corridor?: string): Promise<Measured> {
  const before = corridor ? await statementsSoFar(corridor) : 0;
  const r = await autocannon({ connections: 20, duration: DURATION_S, ...opts });
  const after = corridor ? await statementsSoFar(corridor) : 0;
  const answered = r.requests.total;
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.non2xx + r.errors,
    statements: corridor ? Math.round(((after - before) / Math.max(1, answered)) * 10) / 10 : undefined,
  };
}

async function call(baseUrl: string, auth: string, method: string, p: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${baseUrl}${API}${p}`, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A funded USD payer: its customer and internal account. */
async function payer(baseUrl: string, auth: string, n: number): Promise<{ customer: string; account: string }> {
  const c = await call(baseUrl, auth, 'POST', '/customers', {
    platformCustomerId: `payer-${n}`,
    customerType: 'INDIVIDUAL',
    fullName: `Payer ${n}`,
    currencies: ['USD'],
  });
  const accounts = await call(baseUrl, auth, 'GET', `/customers/internal-accounts?customerId=${encodeURIComponent(c.id)}`);
  const id = accounts.data[0].id as string;
  for (let i = 0; i < 5; i++) await call(baseUrl, auth, 'POST', `/sandbox/internal-accounts/${id}/fund`, { amount: 100_000_000_000 });
  return { customer: c.id, account: id };
}

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
    const first = await payer(base, auth, 0);
    const sources = [first.account];
    const iban = await call(base, auth, 'POST', '/customers/external-accounts', {
      customerId: first.customer,
      currency: 'EUR',
      accountInfo: {
        accountType: 'IBAN',
        iban: 'DE89370400440532013000',
        swiftBic: 'COBADEFFXXX',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee' },
      },
    });
    for (let i = 1; i < 40; i++) sources.push((await payer(base, auth, i)).account);
    let n = 0;
    const quote = (source: string) =>
      JSON.stringify({
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: iban.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        immediatelyExecute: true,
      });
    const customerBody = () =>
      JSON.stringify({
        platformCustomerId: `bench-${dialect}-${process.pid}-${n++}`,
        customerType: 'INDIVIDUAL',
        fullName: 'Bench Customer',
        currencies: ['USD'],
      });

    const bareGet = await drive({ url: `${bare.url}/` });
    const barePost = await drive({ url: `${bare.url}/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: customerBody() });
    const ping = await drive({ url: `${base}${API}/ping`, headers: { authorization: auth } }, base);
    const createCustomer = await drive(
      { url: `${base}${API}/customers`, requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: customerBody() }) }] },
      base,
    );
    const listCustomers = await drive({ url: `${base}${API}/customers?limit=20`, headers: { authorization: auth } }, base);
    const onePayer = await drive({ url: `${base}${API}/quotes`, requests: [{ method: 'POST', headers: json, body: quote(sources[0]) }] }, base);
    let k = 0;
    const fortyPayers = await drive(
      {
        url: `${base}${API}/quotes`,
        requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: quote(sources[k++ % sources.length]) }) }],
      },
      base,
    );
    const peakRss = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8'))?.[1] ?? 0) >> 10;
    await server.stop();
    const verify = cli(['ledger', 'verify'], serverEnv);
    const verified = verify.status === 0 ? 'clean' : `FAILED (exit ${verify.status}): ${verify.stdout}${verify.stderr}`;

    const pct = (m: Measured, ceiling: Measured) => `${((m.rps / ceiling.rps) * 100).toFixed(1)}%`;
    const line = (name: string, m: Measured, ceiling: Measured, ceilingName: string) =>
      `| ${name} | ${m.rps} | ${pct(m, ceiling)} of ${ceilingName} | ${m.p50} | ${m.p99} | ${m.statements ?? '—'} | ${m.failed} |`;
    return [
      `### ${dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL'}`,
      '',
      '| route | req/s | vs bare Fastify (same run) | p50 ms | p99 ms | statements / request | non-2xx |',
      '|---|---|---|---|---|---|---|',
      line('bare Fastify GET /', bareGet, bareGet, 'GET'),
      line('bare Fastify POST / (JSON)', barePost, barePost, 'POST'),
      line('GET /ping', ping, bareGet, 'GET'),
      line('POST /customers', createCustomer, barePost, 'POST'),
      line('GET /customers?limit=20', listCustomers, bareGet, 'GET'),
      line('full payment, 1 payer (POST /quotes immediatelyExecute)', onePayer, barePost, 'POST'),
      line('full payment, 40 payers', fortyPayers, barePost, 'POST'),
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

// UMA between two Corridor processes on this machine (A pays B's customer), one operation at a
// time, beside a bare route's round trip in the same run: the lookup (A's signed LNURLP request,
// B's signed answer, both verified), the quote (A's pay request, B's invoice, both verified) and
// the payment from execution to COMPLETED (A's settlement job, B's credit and preimage, A's
// completion), with the CPU both servers spent per operation, on each database of BENCH_DB.
// Run: npx tsx bench/uma-wire.ts (BENCH_UMA_N payments).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, serverEnvironment, startServer, type RunningServer } from '../test/helpers/server.js';
import { API, DIALECTS, writeSection, type Dialect } from './lib.js';
import { cpuSeconds, postgresCpuSeconds, startBare } from './paying.js';

const N = Number(process.env.BENCH_UMA_N ?? 200);

interface Node {
  server: RunningServer;
  auth: string;
  domain: string;
  cleanup: () => Promise<void>;
}

async function node(dialect: Dialect, base: string, port: number, map: string): Promise<Node> {
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  const server = await startServer({ ...env, UMA_BASE_DOMAIN: base, UMA_DOMAIN_ADDRESSES: map, LOG_LEVEL: 'error' }, { port });
  const c = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`;
  const config = await (await fetch(`${server.baseUrl}${API}/config`, { headers: { authorization: auth } })).json();
  return { server, auth, domain: config.umaDomain, cleanup };
}

async function api(n: Node, method: string, route: string, body?: unknown) {
  const res = await fetch(`${n.server.baseUrl}${API}${route}`, {
    method,
    headers: { authorization: n.auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const percentile = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const ms = (x: number) => x.toFixed(1);

async function measure(dialect: Dialect) {
  const bare = await startBare();
  const [portA, portB] = [await freePort(), await freePort()];
  const map = `*.a.test=http://127.0.0.1:${portA},*.b.test=http://127.0.0.1:${portB}`;
  const [a, b] = await Promise.all([node(dialect, 'a.test', portA, map), node(dialect, 'b.test', portB, map)]);
  try {
    const bob = `$bob@${b.domain}`;
    await api(b, 'POST', '/customers', {
      platformCustomerId: 'bob',
      customerType: 'INDIVIDUAL',
      fullName: 'Bob Receiver',
      currencies: ['EUR'],
      umaAddress: bob,
    });
    const alice = await api(a, 'POST', '/customers', {
      platformCustomerId: 'alice',
      customerType: 'INDIVIDUAL',
      fullName: 'Alice Sender',
      currencies: ['USD'],
    });
    const accounts = await api(a, 'GET', `/customers/internal-accounts?customerId=${alice.id}`);
    const account = accounts.data[0].id;
    await api(a, 'POST', `/sandbox/internal-accounts/${account}/fund`, { amount: 1_000_000_000 });

    const bareTimes: number[] = [];
    for (let i = 0; i < N; i++) {
      const t = performance.now();
      await (await fetch(`${bare.url}/`)).text();
      bareTimes.push(performance.now() - t);
    }
    const pids = [a.server.process.pid!, b.server.process.pid!];
    const cpu = () => pids.reduce((s, pid) => s + cpuSeconds(pid), 0) + (dialect === 'postgres' ? postgresCpuSeconds() : 0);
    const times = { lookup: [] as number[], quote: [] as number[], payment: [] as number[] };
    const cpuStart = cpu();
    for (let i = 0; i < N; i++) {
      let t = performance.now();
      const found = await api(a, 'GET', `/receiver/uma/${bob}?sendingCurrency=USD&customerId=${alice.id}`);
      times.lookup.push(performance.now() - t);
      t = performance.now();
      const quote = await api(a, 'POST', '/quotes', {
        source: { sourceType: 'ACCOUNT', accountId: account },
        destination: { destinationType: 'UMA_ADDRESS', umaAddress: bob, currency: 'EUR' },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        lookupId: found.id,
      });
      times.quote.push(performance.now() - t);
      t = performance.now();
      await api(a, 'POST', `/quotes/${quote.id}/execute`);
      for (;;) {
        const tx = await api(a, 'GET', `/transactions/${quote.transactionId}`);
        if (tx.status === 'COMPLETED') break;
        if (tx.status !== 'PROCESSING') throw new Error(`payment ${tx.status}`);
        await new Promise((r) => setTimeout(r, 2));
      }
      times.payment.push(performance.now() - t);
    }
    const cpuPerPaymentMs = ((cpu() - cpuStart) * 1000) / N;
    const rowOf = (name: string, xs: number[]) =>
      `| ${name} | ${ms(percentile(xs, 50))} | ${ms(percentile(xs, 99))} | ${(percentile(xs, 50) / percentile(bareTimes, 50)).toFixed(0)}× |`;
    writeSection(
      `uma-wire-${dialect}`,
      [
        `## UMA between two instances (${dialect})`,
        '',
        `Node ${process.version}, ${os.cpus().length} cores shared by this driver and both servers, ${new Date().toISOString().slice(0, 10)}; one operation at a time, ${N} payments of A's customer to B's, A and B each a Corridor process on ${dialect}.`,
        '',
        '| operation | p50 ms | p99 ms | p50 vs a bare round trip |',
        '|---|---|---|---|',
        rowOf('bare route round trip (baseline)', bareTimes),
        rowOf('lookup: signed LNURLP request and answer, both verified', times.lookup),
        rowOf('quote: signed pay request, invoice verified', times.quote),
        rowOf('execute → COMPLETED: settlement job, credit at B, proof checked', times.payment),
        '',
        `CPU of both servers${dialect === 'postgres' ? ' and PostgreSQL' : ''} per payment (lookup, quote and settlement together, post-transaction callback included): ${cpuPerPaymentMs.toFixed(1)} ms.`,
        'The time from execution to COMPLETED includes the settlement worker noticing the job (it is woken on enqueue) and this driver polling every 2 ms.',
      ].join('\n'),
    );
  } finally {
    await Promise.all([a.server.stop(), b.server.stop()]);
    await Promise.all([a.cleanup(), b.cleanup()]);
    bare.child.kill();
  }
}

export async function run() {
  for (const dialect of DIALECTS) await measure(dialect);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

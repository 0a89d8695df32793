// Webhooks that keep up (issue 15): sustained full payments with webhooks on, against the real
// server, for BENCH_SECONDS (default 60) at the highest rate the node holds (20 connections, no
// pacing). A local receiver answers 200 at once and records when each event arrived. Reported:
// events created and delivered per second while the load runs, commit-to-receiver lag (the
// event's `timestamp`, written in the transaction that commits it, to its arrival), and how long
// what is left at the end of the load takes to drain. `ledger verify` runs at the end.
// Run: npx tsx bench/webhooks.ts (BENCH_DB=sqlite|postgres, BENCH_SECONDS=20 for a short look).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { cli, serverEnvironment, startServer } from '../test/helpers/server.js';
import { API, DIALECTS, writeSection, type Dialect } from './lib.js';
import { call, payingWorld, type Json } from './paying.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const CONNECTIONS = 20;
const DRAIN_LIMIT_MS = 120_000;

/** Answers 200 at once; keeps each webhookId's first arrival time and its `timestamp`. */
async function receiver() {
  const seen = new Map<string, { created: number; received: number }>();
  const sockets = new Set<unknown>();
  let requests = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received = Date.now();
      requests++;
      res.end('ok');
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { webhookId: string; timestamp: string };
        if (!seen.has(body.webhookId)) seen.set(body.webhookId, { created: Date.parse(body.timestamp), received });
      } catch {
        /* not an event */
      }
    });
  });
  server.on('connection', (s) => sockets.add(s));
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    seen,
    requests: () => requests,
    sockets: () => sockets.size,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Waits until the receiver holds `count` events (or the limit); the moment the last arrived. */
async function settle(sink: Awaited<ReturnType<typeof receiver>>, count: number, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (sink.seen.size < count && Date.now() < deadline) await sleep(20);
  return sink.seen.size >= count;
}

async function measure(dialect: Dialect) {
  const sink = await receiver();
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  const serverEnv = { ...env, LOG_LEVEL: 'error' };
  const server = await startServer(serverEnv);
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
  const base = server.baseUrl;
  try {
    const { sources, quote } = await payingWorld(base, auth);
    await call(base, auth, 'PATCH', '/config', { webhookEndpoint: sink.url });
    // One payment first: how many events a payment sends (and a warm connection).
    await call(base, auth, 'POST', '/quotes', JSON.parse(quote(sources[0])));
    await sleep(3000);
    const perPayment = sink.seen.size;
    if (perPayment === 0) throw new Error('no webhook arrived for the warm-up payment');
    const before = sink.seen.size;

    let k = 0;
    const t0 = Date.now();
    const r = await autocannon({
      url: `${base}${API}/quotes`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          setupRequest: (req: Json) => ({ ...req, body: quote(sources[k++ % sources.length]) }),
        },
      ],
    });
    const t1 = Date.now();
    const payments = r['2xx'];
    const expected = before + payments * perPayment;
    const drained = await settle(sink, expected, DRAIN_LIMIT_MS);
    const events = [...sink.seen.values()].filter((e) => e.created >= t0);
    const createdDuring = events.filter((e) => e.created <= t1).length;
    const deliveredDuring = events.filter((e) => e.received <= t1).length;
    const lastArrival = Math.max(...events.map((e) => e.received));
    const drainMs = drained ? Math.max(0, lastArrival - t1) : NaN;
    const lags = events.map((e) => e.received - e.created).sort((a, b) => a - b);
    const loadS = (t1 - t0) / 1000;
    const result = {
      dialect,
      payments: Math.round(payments / loadS),
      non2xx: r.non2xx + r.errors,
      paymentP99: r.latency.p99,
      created: Math.round(createdDuring / loadS),
      delivered: Math.round(deliveredDuring / loadS),
      lagP50: percentile(lags, 50),
      lagP99: percentile(lags, 99),
      drainMs,
      leftAtEnd: createdDuring - deliveredDuring,
      missing: drained ? 0 : expected - sink.seen.size,
      requests: sink.requests(),
      sockets: sink.sockets(),
      verified: '',
    };
    await server.stop();
    const verify = cli(['ledger', 'verify'], serverEnv);
    result.verified = verify.status === 0 ? 'clean' : `FAILED (exit ${verify.status})`;
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return result;
  } finally {
    await server.stop();
    await sink.close();
    await cleanup();
  }
}

export async function run() {
  const label = process.env.BENCH_LABEL ?? 'after';
  for (const dialect of DIALECTS) {
    const m = await measure(dialect);
    const name = dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL';
    // One section per database, so BENCH_DB=sqlite and BENCH_DB=postgres can be run apart.
    writeSection(
      `webhooks-${label}-${dialect}`,
      [
        `### Webhooks under sustained payments, ${name} (${label})`,
        '',
        `Node ${process.version}, ${SECONDS} s of full payments (POST /quotes immediatelyExecute, 40 payers, ${CONNECTIONS} connections, no pacing) with a webhook endpoint on a local receiver that answers 200 at once, ${new Date().toISOString().slice(0, 10)}. ` +
          'Created and delivered: events whose `timestamp` / first arrival falls inside the load window. Lag: arrival minus the event `timestamp` (set in the transaction that commits it). Drain: from the end of the load to the last event arriving.',
        '',
        '| payments/s | payment p99 ms | events created/s | events delivered/s (during load) | lag p50 ms | lag p99 ms | left at end of load | drain ms | receiver requests / sockets | ledger verify |',
        '|---|---|---|---|---|---|---|---|---|---|',
        `| ${m.payments} | ${m.paymentP99} | ${m.created} | ${m.delivered} | ${m.lagP50} | ${m.lagP99} | ${m.leftAtEnd} | ${Number.isNaN(m.drainMs) ? `not drained in ${DRAIN_LIMIT_MS / 1000} s (${m.missing} missing)` : m.drainMs} | ${m.requests} / ${m.sockets} | ${m.verified} |`,
      ].join('\n'),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}

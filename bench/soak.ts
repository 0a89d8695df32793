// Memory over a long run: a steady mixed load (customer creates with Idempotency-Key, lists,
// reads, pings and refused requests) against the real server for SOAK_SECONDS (default 600),
// sampling the server's resident memory every 5 s. Flat means: after warm-up, RSS grows by less
// than 10% and its trend over the second half is under 1 MiB/min.
// Run: npx tsx bench/soak.ts (BENCH_DB=sqlite|postgres, SOAK_SECONDS=60 for a short look).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { API, DIALECTS, benchServer, writeSection, type Dialect } from './lib.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_MS = 5_000;

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** The server's live JavaScript heap (MiB) from its own /metrics: tells a heap leak from native memory. */
async function heapUsedMiB(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0) / 2 ** 20;
}

/** Least-squares slope of (minute, MiB). */
function slopePerMinute(samples: Array<[number, number]>): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((s, [x]) => s + x, 0) / n;
  const my = samples.reduce((s, [, y]) => s + y, 0) / n;
  const num = samples.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = samples.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

async function soak(dialect: Dialect) {
  // One client address sends the refused credentials and the good ones: no failure limit here.
  const s = await benchServer(dialect, { AUTH_FAILURE_LIMIT: '0' });
  const samples: Array<[number, number]> = [];
  const heap: Array<[number, number]> = [];
  const t0 = Date.now();
  const timer = setInterval(() => {
    const minute = (Date.now() - t0) / 60_000;
    samples.push([minute, rssMiB(s.pid)]);
    heapUsedMiB(s.baseUrl).then(
      (mib) => heap.push([minute, mib]),
      () => undefined,
    );
  }, SAMPLE_MS);
  let n = 0;
  try {
    const headers = { authorization: s.auth, 'content-type': 'application/json' };
    const result = await autocannon({
      url: s.baseUrl,
      connections: 8,
      duration: SECONDS,
      // A steady rate, not a flood: memory, not throughput, is measured.
      overallRate: 400,
      requests: [
        { method: 'GET', path: `${API}/ping`, headers },
        {
          method: 'POST',
          path: `${API}/customers`,
          headers,
          setupRequest: (req: Record<string, any>) => {
            n++;
            return {
              ...req,
              headers: { ...headers, 'idempotency-key': `soak-${n}` },
              body: JSON.stringify({ platformCustomerId: `soak-${process.pid}-${n}`, customerType: 'INDIVIDUAL', fullName: 'Soak Customer' }),
            };
          },
        },
        { method: 'GET', path: `${API}/customers?limit=20`, headers },
        { method: 'GET', path: `${API}/customers?limit=5&customerType=INDIVIDUAL`, headers },
        { method: 'GET', path: `${API}/customers`, headers: { authorization: 'Basic bm8tc3VjaDp0b2tlbg==' } },
        { method: 'POST', path: `${API}/customers`, headers, body: '{"broken":' },
      ],
    });
    clearInterval(timer);
    samples.push([(Date.now() - t0) / 60_000, rssMiB(s.pid)]);
    const warm = samples.filter(([m]) => m >= Math.min(1, SECONDS / 600)); // after the first minute (or 10% of a short run)
    const start = warm[0]?.[1] ?? samples[0][1];
    const end = samples[samples.length - 1][1];
    const half = samples[samples.length - 1][0] / 2;
    const secondHalf = samples.filter(([m]) => m >= half);
    return {
      requests: result.requests.total,
      rps: Math.round(result.requests.average),
      errors: result.errors,
      start: Math.round(start),
      end: Math.round(end),
      peak: Math.round(Math.max(...samples.map(([, y]) => y))),
      growth: ((end - start) / start) * 100,
      slope: slopePerMinute(secondHalf),
      heapSlope: slopePerMinute(heap.filter(([m]) => m >= half)),
      heapEnd: Math.round(heap[heap.length - 1]?.[1] ?? 0),
      customers: n,
    };
  } finally {
    clearInterval(timer);
    await s.stop();
  }
}

export async function run() {
  const rows: string[] = [];
  for (const dialect of DIALECTS) {
    const r = await soak(dialect);
    const flat = r.growth < 10 && r.slope < 1;
    rows.push(
      `| ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${r.requests} (${r.rps}/s) | ${r.customers} | ${r.start} | ${r.end} | ${r.peak} | ${r.growth.toFixed(1)}% | ${r.slope.toFixed(2)} | ${r.heapEnd} | ${r.heapSlope.toFixed(2)} | ${flat ? 'flat' : 'GROWING'} |`,
    );
  }
  writeSection(
    'soak',
    `## Memory soak\n\nNode ${process.version}, ${SECONDS} s of a steady mixed load (400 req/s: ping, customer create with Idempotency-Key, two lists, a refused credential, a broken body), RSS sampled every 5 s, ${new Date().toISOString().slice(0, 10)}. ` +
      `"Flat" means RSS grew under 10% after warm-up and its trend over the second half is under 1 MiB/min.${SECONDS < 600 ? ` **A short run (${SECONDS} s), not the 10-minute soak.**` : ''}\n\n` +
      '| database | requests | customers created | RSS after warm-up MiB | RSS at end MiB | peak MiB | growth | RSS MiB/min (2nd half) | JS heap at end MiB | heap MiB/min (2nd half) | verdict |\n|---|---|---|---|---|---|---|---|---|---|---|\n' +
      rows.join('\n'),
  );
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

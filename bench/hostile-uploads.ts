// The worst bulk customer CSVs within the documented limits (2 MiB), uploaded over and over by one
// platform with a MANAGE token, while another platform calls GET /ping: the answers' size, the
// uploads' latency, the server's memory, and how the other platform is served meanwhile, beside
// that platform's GET /ping measured alone just before. Run: npx tsx bench/hostile-uploads.ts
// (BENCH_DB=sqlite to pick one; BENCH_LABEL names the section, e.g. a run on an older commit).
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import { cli, serverEnvironment, startServer } from '../test/helpers/server.js';
import { API, DIALECTS, DURATION_S, machine, writeSection } from './lib.js';

const MAX_CSV_BYTES = 2 * 1024 * 1024;
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 3);
const HEADER = 'platformCustomerId,customerType,';

/** The files: each as large as the limit allows (the issue's 50 KB header besides). */
const FILES: Array<[string, string]> = [
  ['2 MiB header of commas', HEADER + ','.repeat(MAX_CSV_BYTES - HEADER.length - 1)],
  ['50 KB header: 50,000 empty names', `platformCustomerId,customerType${','.repeat(50_000)}\nx,INDIVIDUAL\n`],
  ['2 MiB header of one unknown name repeated', `${HEADER}${'shoe,'.repeat(Math.floor((MAX_CSV_BYTES - HEADER.length - 64) / 5))}\nx,INDIVIDUAL\n`],
  ['2 MiB header of one endless name', `${HEADER}${'n'.repeat(MAX_CSV_BYTES - HEADER.length - 64)}\nx,INDIVIDUAL\n`],
];

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
}

interface Upload {
  file: string;
  status: number;
  bytes: number;
  ms: number;
  code: string;
}

async function upload(baseUrl: string, auth: string, [name, csv]: [string, string]): Promise<Upload> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  const t0 = performance.now();
  try {
    const res = await fetch(`${baseUrl}${API}/customers/bulk/csv`, { method: 'POST', headers: { authorization: auth }, body: form });
    const text = await res.text();
    let code = '';
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? '';
    } catch {
      code = 'not JSON';
    }
    return { file: name, status: res.status, bytes: Buffer.byteLength(text), ms: performance.now() - t0, code };
  } catch (e) {
    return { file: name, status: 0, bytes: 0, ms: performance.now() - t0, code: (e as Error).message };
  }
}

interface PingResult {
  requests: { average: number };
  latency: { p50: number; p99: number; max: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** The uploaders' loop, on a worker thread: each uploads the files in turn until told to stop, then all report. */
const UPLOAD_LOOP = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, auth, files, uploaders } = workerData;
const blobs = files.map(([name, csv]) => [name, new Blob([csv], { type: 'text/csv' })]);
let stop = false;
parentPort.once('message', () => { stop = true; });
const uploads = [];
async function loop(k) {
  for (let i = k; !stop; i++) {
    const [name, blob] = blobs[i % blobs.length];
    const form = new FormData();
    form.append('file', blob, 'customers.csv');
    const t0 = performance.now();
    try {
      const res = await fetch(url, { method: 'POST', headers: { authorization: auth }, body: form });
      const text = await res.text();
      let code = '';
      try { code = JSON.parse(text).code ?? ''; } catch { code = 'not JSON'; }
      uploads.push({ file: name, status: res.status, bytes: Buffer.byteLength(text), ms: performance.now() - t0, code });
    } catch (e) {
      uploads.push({ file: name, status: 0, bytes: 0, ms: performance.now() - t0, code: e.message });
    }
  }
}
Promise.all(Array.from({ length: uploaders }, (_, k) => loop(k))).then(() => parentPort.postMessage(uploads));
`;

function pingLoad(url: string, auth: string): Promise<PingResult> {
  return autocannon({ url, connections: 4, duration: DURATION_S, headers: { authorization: auth } });
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : 0;
};
const ms = (x: number) => x.toFixed(x < 10 ? 1 : 0);

export async function run() {
  const sections: string[] = [];
  for (const dialect of DIALECTS) {
    const { env, dataDir, cleanup } = await serverEnvironment(dialect);
    const serverEnv = { ...env, LOG_LEVEL: 'error' };
    const server = await startServer(serverEnv);
    try {
      const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
      const attacker = basic(creds.clientId, creds.clientSecret);
      const made = cli(['platform', 'create', '--name', 'Bystander', '--json'], serverEnv);
      if (made.status !== 0) throw new Error(`platform create: ${made.stderr}`);
      const bystander = JSON.parse(made.stdout) as { clientId: string; clientSecret: string };
      const pingUrl = `${server.baseUrl}${API}/ping`;
      const pid = server.process.pid!;

      // Each file once, alone: its answer and time.
      const single: Upload[] = [];
      for (const f of FILES) single.push(await upload(server.baseUrl, attacker, f));
      const afterSingles = memoryMiB(pid);

      const alone = await pingLoad(pingUrl, basic(bystander.clientId, bystander.clientSecret));
      const before = memoryMiB(pid);

      // UPLOADERS clients upload the files in turn, without pause, while the other platform pings.
      // They run on a thread of their own: building and sending 2 MiB bodies must not stall the
      // load generator's event loop, or its latencies would measure this process, not the server.
      const worker = new Worker(UPLOAD_LOOP, {
        eval: true,
        workerData: { url: `${server.baseUrl}${API}/customers/bulk/csv`, auth: attacker, files: FILES, uploaders: UPLOADERS },
      });
      const done = new Promise<Upload[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      const attacked = await pingLoad(pingUrl, basic(bystander.clientId, bystander.clientSecret));
      worker.postMessage('stop');
      const uploads = await done;
      await worker.terminate();
      const after = memoryMiB(pid);

      const times = uploads.map((u) => u.ms);
      const statuses = [...new Set(uploads.map((u) => `${u.status} ${u.code}`))].join(', ');
      const pingOk = (r: PingResult) => r['2xx'];
      sections.push(
        [
          `### ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
          '',
          '| file (one upload, alone) | status | answer bytes | ms |',
          '|---|---|---|---|',
          ...single.map((u) => `| ${u.file} | ${u.status} ${u.code} | ${u.bytes} | ${ms(u.ms)} |`),
          '',
          `${UPLOADERS} uploaders, the files in turn, ${DURATION_S} s: ${uploads.length} uploads (${statuses}); upload p50 ${ms(pct(times, 50))} ms, p99 ${ms(pct(times, 99))} ms, max ${ms(Math.max(0, ...times))} ms; largest answer ${Math.max(0, ...uploads.map((u) => u.bytes))} bytes.`,
          '',
          '| other platform, GET /ping (4 connections) | req/s | p50 ms | p99 ms | max ms | 2xx | other |',
          '|---|---|---|---|---|---|---|',
          `| alone | ${Math.round(alone.requests.average)} | ${alone.latency.p50} | ${alone.latency.p99} | ${alone.latency.max} | ${pingOk(alone)} | ${alone.non2xx + alone.errors + alone.timeouts} |`,
          `| during the uploads | ${Math.round(attacked.requests.average)} (${((attacked.requests.average / alone.requests.average) * 100).toFixed(0)}%) | ${attacked.latency.p50} | ${attacked.latency.p99} | ${attacked.latency.max} | ${pingOk(attacked)} | ${attacked.non2xx + attacked.errors + attacked.timeouts} |`,
          '',
          `Server memory (MiB): after one upload of each file RSS ${afterSingles.rss} (peak so far ${afterSingles.peak}); before the concurrent uploads RSS ${before.rss}; after them RSS ${after.rss}, peak ${after.peak}.`,
        ].join('\n'),
      );
    } finally {
      await server.stop();
      await cleanup();
    }
  }
  const label = process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : '';
  writeSection(
    `hostile-uploads${process.env.BENCH_LABEL ? `-${process.env.BENCH_LABEL.split(/[\s:]/)[0]}` : ''}`,
    `## Hostile bulk CSV uploads${label}\n\n${machine(`${UPLOADERS} uploading clients`)}\n\n${sections.join('\n\n')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { serverEnvironment, startServer } from '../test/helpers/server.js';

export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: Dialect[] = (process.env.BENCH_DB ? process.env.BENCH_DB.split(',') : ['sqlite', 'postgres']) as Dialect[];
export const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
export const API = '/2025-10-13';

/** A real server process (what `npm start` runs) on a fresh database, with the bootstrap token. */
export async function benchServer(dialect: Dialect, extraEnv: Record<string, string> = {}) {
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  const server = await startServer({ ...env, LOG_LEVEL: 'error', ...extraEnv });
  const creds = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
  const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
  return {
    baseUrl: server.baseUrl,
    auth,
    pid: server.process.pid!,
    /** Peak resident memory of the server process so far, in MiB. */
    peakRssMiB(): number {
      const status = fs.readFileSync(`/proc/${server.process.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return Math.round(kb / 1024);
    },
    async stop() {
      await server.stop();
      await cleanup();
    },
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Drives one request shape for DURATION_S seconds and reports throughput and latency (ms). */
export async function load(opts: {
  url: string;
  method?: string;
  headers: Record<string, string>;
  body?: () => string;
  connections?: number;
}): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 20,
    duration: DURATION_S,
    requests: [
      {
        method: (opts.method ?? 'GET') as 'GET',
        headers: opts.headers,
        ...(opts.body ? { setupRequest: (req: Record<string, unknown>) => ({ ...req, body: opts.body!() }) } : {}),
      },
    ],
  });
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
}

export function ratio(x: number, baseline: number): string {
  return `${((x / baseline) * 100).toFixed(0)}%`;
}

export function row(name: string, r: LoadResult, baseline: LoadResult): string {
  return `| ${name} | ${r.rps} | ${ratio(r.rps, baseline.rps)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`;
}

export const TABLE_HEAD = '| route | req/s | vs baseline | p50 ms | p99 ms | non-2xx |\n|---|---|---|---|---|---|';

/** Replaces this benchmark's section of bench/RESULTS.md (between its markers). */
export function writeSection(name: string, markdown: string) {
  const file = path.join(import.meta.dirname, 'RESULTS.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  let text = fs.existsSync(file)
    ? fs.readFileSync(file, 'utf8')
    : '# Benchmark results\n\nWritten by `npm run bench`. Every figure is compared with a baseline measured in the same run on the same machine.\n';
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const i = text.indexOf(start);
  const j = text.indexOf(end);
  text = i >= 0 && j > i ? text.slice(0, i) + block + text.slice(j + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(file, text);
}

export function machine(connections = '20 connections'): string {
  return `Node ${process.version}, ${os.cpus().length} cores (load generator and server share them), ${DURATION_S} s per measurement, ${connections}, ${new Date().toISOString().slice(0, 10)}`;
}

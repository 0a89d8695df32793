import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dialect as defaultDialect, PG_URL } from './env.js';
import { randomSchemaName, dropPostgresSchema } from '../../src/db/database.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Environment for a real server process on a fresh data directory and, for PostgreSQL, a fresh schema. */
export async function serverEnvironment(
  dialect: 'sqlite' | 'postgres' = defaultDialect,
): Promise<{ env: Record<string, string>; dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-e2e-'));
  // No load shedding on measured event-loop delay: a busy test machine must not turn answers into 503s.
  const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'warn', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' };
  let schema: string | undefined;
  if (dialect === 'postgres') {
    schema = randomSchemaName('e2e');
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    env.DATABASE_URL = `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  return {
    env,
    dataDir,
    cleanup: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (schema) await dropPostgresSchema(PG_URL, schema);
    },
  };
}

export interface RunningServer {
  baseUrl: string;
  output: () => string;
  process: ChildProcess;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The newest modification time of the files below dir (ms). */
export function newest(dir: string): number {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) t = Math.max(t, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return t;
}

/** Builds dist/ (scripts/build.mjs) when a source file is newer than the last build, so a test never runs stale JavaScript. */
export function ensureBuilt() {
  const stamp = path.join(ROOT, 'dist', '.built');
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs >= newest(path.join(ROOT, 'src'))) return;
  const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`build failed:\n${r.stdout}${r.stderr}`);
}

/** What `npm start` runs (package.json), without the leading `node`. */
function startArguments(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const [node, ...args] = start.split(/\s+/);
  if (node !== 'node') throw new Error(`npm start must run node, not ${node}`);
  return args;
}

/** Starts what `npm start` runs (the built server) and waits until it answers. */
export async function startServer(env: Record<string, string>, opts: { port?: number } = {}): Promise<RunningServer> {
  ensureBuilt();
  // A port chosen beforehand lets two servers be told each other's address before either starts.
  const port = opts.port ?? (await freePort());
  const child = spawn(process.execPath, startArguments(), {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok && out.includes('Corridor is running')) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    baseUrl,
    output: () => out,
    process: child,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        // The server gives itself 15 s to stop; a test never waits longer than 20 s for it.
        const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', (code) => {
          clearTimeout(force);
          resolve(code);
        });
        child.kill(signal);
      }),
  };
}

/** Runs the operator CLI (`npx corridor …`) synchronously. */
export function cli(args: string[], env: Record<string, string>) {
  ensureBuilt();
  const r = spawnSync(process.execPath, ['bin/corridor.js', ...args], { cwd: ROOT, env: { ...process.env, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A PostgreSQL server of a test's own, for faults that would disturb every other test sharing the
 * common one: restarting it (`pg_ctl restart -m immediate|fast`). Made with Debian's binaries
 * (/usr/lib/postgresql/<version>/bin, or PG_BIN) in a temporary directory, listening on a free port
 * of 127.0.0.1 with trust authentication. PostgreSQL refuses to run as root: as root (CI), initdb
 * and pg_ctl run as the `postgres` OS user, the directory owned by it. `stop()` stops the server
 * and removes the directory.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './server.js';

const run = promisify(execFile);

export interface PrivatePostgres {
  port: number;
  /** A connection URL to `database` on it, straight to the server. */
  url(database?: string): string;
  /** Creates a database on it. */
  createDatabase(name: string): Promise<void>;
  /** `pg_ctl restart -m <mode>`, waiting until the server accepts connections again; how long it took. */
  restart(mode: 'immediate' | 'fast'): Promise<number>;
  /** The postmaster's process id (changes with every restart). */
  pid(): number;
  /** The server's log so far. */
  log(): string;
  stop(): Promise<void>;
}

/** The directory of initdb and pg_ctl: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBinaries(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL binaries (initdb, pg_ctl): install them or set PG_BIN');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    fs.chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  /** Runs a PostgreSQL binary, as the `postgres` user when this process is root. */
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', path.join(bin, name), ...args]) : run(path.join(bin, name), args);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`;
  const ctl = (action: string, extra: string[] = []) => tool('pg_ctl', [action, '-D', data, '-w', '-t', '60', ...extra]);
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    try {
      await ctl('stop', ['-m', 'immediate']);
    } catch {
      /* not running */
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await tool('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-N', '-E', 'UTF8']);
    await ctl('start', ['-o', options, '-l', logFile]);
  } catch (e) {
    await stop();
    throw e;
  }
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const admin = new pg.Client({ connectionString: url() });
      await admin.connect();
      try {
        await admin.query(`create database ${name}`);
      } finally {
        await admin.end();
      }
    },
    async restart(mode) {
      const started = Date.now();
      await ctl('restart', ['-m', mode, '-o', options, '-l', logFile]);
      return Date.now() - started;
    },
    pid: () => Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : ''),
    stop,
  };
}

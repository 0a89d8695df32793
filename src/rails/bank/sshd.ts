/**
 * A real OpenSSH SFTP server on 127.0.0.1, for the SFTP tests and the bank simulator: Debian's
 * /usr/sbin/sshd as a child process with a configuration of its own, serving only SFTP
 * (internal-sftp) inside a chroot, to key-authenticated users. What a bank's server does
 * (OpenSSH's refusals, renames that never overwrite, host keys, a server that stops answering)
 * is then what the transport meets in tests, not what an imitation thought it would do.
 *
 * What sshd insists on, and how it is met here:
 * - it runs as root (it chroots each login, which only root can do): so do the tests and CI;
 * - the login user must exist in /etc/passwd: the tests and the simulator log in as root, which
 *   every machine has (no user to create on a fresh CI machine). Root may log in with a key only
 *   (PermitRootLogin prohibit-password), on 127.0.0.1 only, and gets nothing but SFTP inside the
 *   chroot (ForceCommand internal-sftp): acceptable for a loopback test server;
 * - the chroot and every folder above it are owned by root and writable by nobody else, and so
 *   are the authorized keys and their folders (StrictModes, kept on). The working folder is
 *   usually under /tmp, writable by everyone: then these live in /run/corridor-sftp/<id>, the id
 *   derived from the working folder (a restart finds the same files), and <dir>/root links there;
 * - a privilege separation folder, /run/sshd, which the package's service would create.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { projectPath } from '../../common/paths.js';

export const SSHD = '/usr/sbin/sshd';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';
const PRIVSEP_DIR = '/run/sshd';
const SECURE_BASE = '/run/corridor-sftp';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

export interface SftpServerUser {
  /** An account of this machine (sshd refuses others); in practice root. */
  username: string;
  /** One line in OpenSSH format: "ssh-ed25519 AAAA… comment". */
  publicKey: string;
}

export interface SftpServerOptions {
  /** A working folder the server owns: its configuration, host key (kept across restarts), pid file. */
  dir: string;
  /** 0 or absent: a free port. */
  port?: number;
  users: SftpServerUser[];
}

export interface SftpServer {
  host: string;
  port: number;
  /** As `ssh-keygen -lf` prints it: what a client pins. */
  hostKeySha256: string;
  /**
   * The folder SFTP users see as "/": the caller makes inbound/, outbound/ or whatever it needs in
   * it. It is <dir>/root, or /run/corridor-sftp/<id>/root when dir is in a folder others may write
   * (see the top of this file): to discard a server for good, remove path.dirname(root) and dir.
   */
  root: string;
  /** The listening sshd; each connection is served by a process of its own (see signal). */
  pid: number;
  /** Sends a signal to sshd and to every process serving a connection (SIGSTOP freezes the server). */
  signal(signal: NodeJS.Signals): void;
  /** The last lines sshd wrote to stderr (its log): what to look at when a login is refused. */
  log(): string;
  /** Stops sshd and the connections it serves, and waits until they are gone. Files stay. */
  stop(): Promise<void>;
}

/**
 * Makes sure /usr/sbin/sshd is installed, installing Debian's packages when it is not (as root,
 * with apt-get: scripts/ensure-sshd.mjs, which CI may also run on its own). Returns its path.
 */
export function ensureSshd(): string {
  if (fs.existsSync(SSHD)) return SSHD;
  const script = projectPath('scripts', 'ensure-sshd.mjs');
  const r = spawnSync(process.execPath, [script], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0 || !fs.existsSync(SSHD)) throw new Error(`${SSHD} is missing and ${script} did not install it (exit ${r.status}; its message is above)`);
  return SSHD;
}

export async function startSftpServer(opts: SftpServerOptions): Promise<SftpServer> {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error('an SFTP test server needs root: sshd chroots every login, which only root may do');
  }
  if (!fs.existsSync(SSHD)) throw new Error(`${SSHD} is missing: run node scripts/ensure-sshd.mjs (or call ensureSshd())`);
  if (opts.users.length === 0) throw new Error('an SFTP server needs at least one user');
  for (const user of opts.users) checkUser(user);

  const dir = path.resolve(opts.dir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secure = secureFolder(dir);
  const root = path.join(secure, 'root');
  makeRootOnlyDir(root);
  if (secure !== dir) relink(path.join(dir, 'root'), root);
  const keysDir = path.join(secure, 'keys');
  writeAuthorizedKeys(keysDir, opts.users);
  const hostKey = hostKeyIn(dir);
  const hostKeySha256 = fingerprintOf(`${hostKey}.pub`);
  // sshd checks that its privilege separation folder exists; Debian's service would make it.
  fs.mkdirSync(PRIVSEP_DIR, { recursive: true, mode: 0o755 });

  const version = opensshVersion();
  // A free port is free when looked at, not necessarily when sshd binds it: a taken one is retried.
  for (let attempt = 1; ; attempt++) {
    const port = opts.port || (await freePort());
    const config = path.join(dir, 'sshd_config');
    fs.writeFileSync(config, sshdConfig({ port, hostKey, pidFile: path.join(dir, 'sshd.pid'), keysDir, root, users: opts.users, version }), { mode: 0o600 });
    const started = await launch(config, port);
    if (started.ok) return serverOf(started.child, started.log, port, hostKeySha256, root);
    if (started.portTaken && !opts.port && attempt < 5) continue;
    throw new Error(`sshd did not start on 127.0.0.1:${port}: ${started.reason}\n${started.log.text()}`);
  }
}

function checkUser(user: SftpServerUser): void {
  if (!/^[a-z_][a-z0-9_-]*$/.test(user.username)) throw new Error(`not a user name: ${JSON.stringify(user.username)}`);
  if (spawnSync('getent', ['passwd', user.username]).status !== 0) {
    throw new Error(`user ${user.username} does not exist on this machine: sshd refuses logins of unknown users (use root, or create the user first)`);
  }
  if (!/^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/]+={0,2}( [^\n]*)?\n?$/.test(user.publicKey)) {
    throw new Error(`the public key of ${user.username} is not one line in OpenSSH format ("ssh-ed25519 AAAA… comment")`);
  }
}

/** Whether a folder and every folder above it are root's and writable by nobody else (sshd's rule). */
function rootOnlyPath(dir: string): boolean {
  for (let d = fs.realpathSync(dir); ; d = path.dirname(d)) {
    const s = fs.statSync(d);
    if (s.uid !== 0 || (s.mode & 0o022) !== 0) return false;
    if (path.dirname(d) === d) return true;
  }
}

/** Where the chroot and the authorized keys live: the working folder itself when sshd accepts it. */
function secureFolder(dir: string): string {
  if (rootOnlyPath(dir)) return dir;
  makeRootOnlyDir(SECURE_BASE);
  if (!rootOnlyPath(SECURE_BASE)) throw new Error(`${SECURE_BASE} is not owned by root and closed to others; sshd would refuse a chroot under it`);
  const id = createHash('sha256').update(fs.realpathSync(dir)).digest('hex').slice(0, 16);
  const secure = path.join(SECURE_BASE, id);
  makeRootOnlyDir(secure);
  return secure;
}

function makeRootOnlyDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
  // mkdir applies the umask and leaves an existing folder as it was: the mode is set explicitly.
  fs.chownSync(dir, 0, 0);
  fs.chmodSync(dir, 0o755);
}

/** dir/root points at the chroot, so that the working folder shows the files wherever they are. */
function relink(link: string, target: string): void {
  const current = fs.lstatSync(link, { throwIfNoEntry: false });
  if (current?.isSymbolicLink() && fs.readlinkSync(link) === target) return;
  if (current) fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(target, link);
}

/** One file per user (AuthorizedKeysFile …/%u), root's and read-only for others as StrictModes wants. */
function writeAuthorizedKeys(keysDir: string, users: SftpServerUser[]): void {
  makeRootOnlyDir(keysDir);
  for (const name of fs.readdirSync(keysDir)) fs.rmSync(path.join(keysDir, name), { force: true });
  const byUser = new Map<string, string[]>();
  for (const u of users) byUser.set(u.username, [...(byUser.get(u.username) ?? []), u.publicKey.trim()]);
  for (const [username, keys] of byUser) {
    const file = path.join(keysDir, username);
    fs.writeFileSync(file, `${keys.join('\n')}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
  }
}

/** The server's own ed25519 host key, generated once and kept: a restart keeps the pinned fingerprint. */
function hostKeyIn(dir: string): string {
  const key = path.join(dir, 'ssh_host_ed25519_key');
  if (!fs.existsSync(key) || !fs.existsSync(`${key}.pub`)) {
    fs.rmSync(key, { force: true });
    fs.rmSync(`${key}.pub`, { force: true });
    const r = spawnSync(SSH_KEYGEN, ['-q', '-t', 'ed25519', '-N', '', '-C', 'corridor-sftp-test-server', '-f', key], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ssh-keygen could not make a host key: ${r.stderr || r.error?.message}`);
  }
  // sshd refuses a private host key that others may read.
  fs.chmodSync(key, 0o600);
  return key;
}

/** The fingerprint as OpenSSH prints it, from OpenSSH itself (so pinning is checked against the real thing). */
function fingerprintOf(publicKeyFile: string): string {
  const r = spawnSync(SSH_KEYGEN, ['-l', '-E', 'sha256', '-f', publicKeyFile], { encoding: 'utf8' });
  const fingerprint = /\bSHA256:[A-Za-z0-9+/]{43}\b/.exec(r.stdout ?? '')?.[0];
  if (r.status !== 0 || !fingerprint) throw new Error(`ssh-keygen could not read ${publicKeyFile}: ${r.stderr || r.stdout}`);
  return fingerprint;
}

function opensshVersion(): [number, number] {
  // -V exists from 9.1; older ones print their version in the usage an unknown option prints.
  const r = spawnSync(SSHD, ['-V'], { encoding: 'utf8' });
  const m = /OpenSSH_(\d+)\.(\d+)/.exec(`${r.stderr}${r.stdout}`);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

interface ConfigInput {
  port: number;
  hostKey: string;
  pidFile: string;
  keysDir: string;
  root: string;
  users: SftpServerUser[];
  version: [number, number];
}

function sshdConfig(c: ConfigInput): string {
  const usernames = [...new Set(c.users.map((u) => u.username))];
  const [major, minor] = c.version;
  return [
    '# Written by corridor (src/rails/bank/sshd.ts) at every start: an SFTP-only server on loopback.',
    `ListenAddress 127.0.0.1:${c.port}`,
    `HostKey ${c.hostKey}`,
    `PidFile ${c.pidFile}`,
    // No PAM: no system login policy to consult, and keys are the only way in.
    'UsePAM no',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication yes',
    'AuthenticationMethods publickey',
    `AuthorizedKeysFile ${c.keysDir}/%u`,
    'StrictModes yes',
    `AllowUsers ${usernames.join(' ')}`,
    // Root logs in with a key, on 127.0.0.1, into an SFTP-only chroot (see the top of this file).
    `PermitRootLogin ${usernames.includes('root') ? 'prohibit-password' : 'no'}`,
    'Subsystem sftp internal-sftp',
    // -d /: sessions start at the chroot's top, whatever the user's home directory is.
    'ForceCommand internal-sftp -d /',
    `ChrootDirectory ${c.root}`,
    'DisableForwarding yes',
    'PermitTTY no',
    'PrintMotd no',
    'PrintLastLog no',
    // OpenSSH 9.8 and later shut out an address after failed logins; tests fail logins on purpose.
    ...(major > 9 || (major === 9 && minor >= 8) ? ['PerSourcePenalties no'] : []),
    '',
  ].join('\n');
}

/** The last lines of sshd's stderr, kept for the messages of failures. */
class LogTail {
  private lines: string[] = [];
  private partial = '';
  add(chunk: string): string[] {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    this.lines.push(...parts);
    if (this.lines.length > 300) this.lines.splice(0, this.lines.length - 300);
    return parts;
  }
  text(): string {
    return [...this.lines, this.partial].filter(Boolean).join('\n');
  }
}

type Launch = { ok: true; child: ChildProcess; log: LogTail } | { ok: false; reason: string; portTaken: boolean; log: LogTail };

/** Starts sshd and waits until it listens (its log says so, and the port takes a connection) or dies. */
function launch(config: string, port: number): Promise<Launch> {
  const log = new LogTail();
  // Its own process group: a Ctrl-C meant for the tests does not reach it before stop() does.
  const child = spawn(SSHD, ['-D', '-e', '-f', config], { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise<Launch>((resolve) => {
    let settled = false;
    const done = (result: Launch) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off('exit', onExit);
      resolve(result);
    };
    const timer = setTimeout(() => {
      killTree(child.pid, 'SIGKILL');
      done({ ok: false, reason: `not listening after ${START_TIMEOUT_MS} ms`, portTaken: false, log });
    }, START_TIMEOUT_MS);
    const onExit = (code: number | null, signal: string | null) => {
      const text = log.text();
      done({ ok: false, reason: `sshd exited (${signal ?? `exit ${code}`})`, portTaken: /Address already in use/.test(text), log });
    };
    child.once('exit', onExit);
    child.once('error', (err) => done({ ok: false, reason: err.message, portTaken: false, log }));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (!log.add(chunk).some((line) => line.includes(`Server listening on 127.0.0.1 port ${port}`))) return;
      void accepts(port).then((ok) =>
        done(ok ? { ok: true, child, log } : { ok: false, reason: 'listening, but the port refuses connections', portTaken: false, log }),
      );
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ host: '127.0.0.1', port });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A process's state letter and parent, or undefined when it is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

/** The processes below pid, from /proc: sshd serves each connection in a forked process in a session of its own. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  for (let queue = [pid]; queue.length;) {
    const next = children.get(queue.shift()!) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

/** Waits until the processes have exited (a zombie waiting for its parent counts as exited). */
async function gone(pids: number[], timeoutMs: number): Promise<void> {
  const alive = (p: number) => {
    const state = procStat(p)?.state;
    return state !== undefined && state !== 'Z';
  };
  for (const deadline = Date.now() + timeoutMs; pids.some(alive);) {
    if (Date.now() > deadline) {
      for (const p of pids.filter(alive)) {
        try {
          process.kill(p, 'SIGKILL');
        } catch {
          // exited meanwhile
        }
      }
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function killTree(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      process.kill(p, signal);
    } catch {
      // already gone
    }
  }
}

function serverOf(child: ChildProcess, log: LogTail, port: number, hostKeySha256: string, root: string): SftpServer {
  const pid = child.pid!;
  let exited = child.exitCode !== null || child.signalCode !== null;
  const exit = new Promise<void>((resolve) => {
    if (exited) resolve();
    child.once('exit', () => {
      exited = true;
      resolve();
    });
  });
  // sshd is detached: a test process that ends without stop() must not leave it listening.
  const onExit = () => killTree(pid, 'SIGKILL');
  process.once('exit', onExit);
  // Neither sshd nor its log holds the process open on their own.
  child.unref();
  (child.stderr as net.Socket | null)?.unref();
  return {
    host: '127.0.0.1',
    port,
    hostKeySha256,
    root,
    pid,
    signal: (signal) => {
      if (!exited) killTree(pid, signal);
    },
    log: () => log.text(),
    stop: async () => {
      process.off('exit', onExit);
      if (exited) return;
      // A frozen server (SIGSTOP) would never act on the SIGTERM: it is woken as well.
      const all = [pid, ...descendants(pid)];
      for (const signal of ['SIGTERM', 'SIGCONT'] as const) {
        for (const p of all) {
          try {
            process.kill(p, signal);
          } catch {
            // already gone
          }
        }
      }
      const timer = setTimeout(() => killTree(pid, 'SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(timer);
      await gone(all, STOP_TIMEOUT_MS);
    },
  };
}

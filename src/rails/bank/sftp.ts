/**
 * The SFTP transport of the bank rails: payout files go up to the partner bank's server, its
 * reports come back from an inbound folder. Built on ssh2-sftp-client over ssh2 (pure
 * JavaScript, no native addon): both are maintained and widely used, where the alternatives
 * (node-sftp, sftp-promises) were abandoned years ago, so SSH fixes reach us by an update.
 *
 * What a payout needs from it, beyond the library:
 * - the server is the bank's only when its host key has the fingerprint pinned in the bank's
 *   profile (no trust on first use: a man in the middle would receive the payout files);
 * - a file goes up exactly once whatever instant the process dies at (uploadOnce);
 * - no call waits forever: connecting and every request to the server are bounded, and a server
 *   that stops answering closes the connection instead of holding a worker;
 * - every failure is an SftpError whose code says what to do (retry later, fix the key, call
 *   the bank) and whose message names the server.
 */
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import SftpClient from 'ssh2-sftp-client';

export type SftpErrorCode =
  | 'host-key-mismatch'
  | 'auth-failed'
  | 'connection-refused'
  | 'timeout'
  | 'no-such-folder'
  | 'no-such-file'
  /** A different content already stands under the name: never overwritten. */
  | 'conflict'
  | 'too-large'
  /** What the server holds after a write is not what was written. */
  | 'verify-failed'
  /** The connection is gone (closed, timed out earlier, reset by the server). */
  | 'closed'
  | 'failed';

export class SftpError extends Error {
  override readonly name = 'SftpError';
  constructor(
    readonly code: SftpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface SftpConnection {
  host: string;
  port: number;
  username: string;
  /** The client key, PEM or OpenSSH format. */
  privateKey: string | Buffer;
  /** The server's host key as OpenSSH prints it (`ssh-keygen -lf`): "SHA256:" and unpadded base64. */
  hostKeySha256: string;
  /** Bounds connecting, and each request to the server (one transfer is one request). */
  timeoutMs: number;
  /** download() refuses a file larger than this; default 64 MiB (bank reports are far smaller). */
  maxDownloadBytes?: number;
}

export interface RemoteFile {
  name: string;
  size: number;
  modifiedAt: Date;
}

export interface Sftp {
  /**
   * Puts bytes under folder/name exactly once: 'already-there' when the same bytes already stand
   * under the name (an earlier attempt finished), 'uploaded' when this call put them there.
   */
  uploadOnce(folder: string, name: string, bytes: Uint8Array): Promise<'uploaded' | 'already-there'>;
  /** Regular files of a folder, by name, without the temporary names of unfinished uploads. */
  list(folder: string): Promise<RemoteFile[]>;
  download(folder: string, name: string): Promise<Buffer>;
  /** 'not-there' is no error: a retry after a crash finds the file already removed. */
  remove(folder: string, name: string): Promise<'removed' | 'not-there'>;
  /** Moves a file to another folder (banks that want processed files archived on their side). */
  moveTo(folder: string, name: string, toFolder: string): Promise<'moved' | 'already-there'>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024;

/** A key's fingerprint exactly as `ssh-keygen -lf` prints it, from the key's wire-format blob. */
export function sshFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * The temporary name of one attempt to upload a file: `.<name>.<attempt>.part`. Dotted names are
 * hidden files, which banks' pickup jobs skip (every profile we know of reads only its own file
 * name patterns). The attempt's own random part is what makes verify-then-rename safe: both go by
 * path, so with one shared temporary name a second attempt (a worker whose lease ran out, still
 * running) could replace the file between the first one's check and its rename, and a half
 * written file would get the final name.
 */
export const partName = (name: string, attempt: string = randomBytes(4).toString('hex')) => `.${name}.${attempt}.part`;

/** Whether a folder entry is a temporary file of an upload of name, by any attempt. */
export const isPartOf = (name: string, entry: string) =>
  entry.length === name.length + 15 && entry.startsWith(`.${name}.`) && /^\.[0-9a-f]{8}\.part$/.test(entry.slice(name.length + 1));

const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}$/;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const join = (folder: string, name: string) => (folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`);

function checkName(name: string): void {
  // A dotted name is a temporary one (see partName); a slash would leave the folder.
  if (name === '' || name.startsWith('.') || name.includes('/') || name.includes('\0')) {
    throw new SftpError('failed', `not a file name for the bank's server: ${JSON.stringify(name)}`);
  }
}

/** ssh2-sftp-client reports "no such file" as the SFTP status 2 or as ENOENT, depending on the call. */
const isMissing = (err: unknown) => {
  const code = (err as { code?: unknown } | undefined)?.code;
  return code === 2 || code === 'ENOENT';
};

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function openSftp(conn: SftpConnection): Promise<Sftp> {
  if (!FINGERPRINT.test(conn.hostKeySha256)) {
    throw new SftpError(
      'failed',
      `hostKeySha256 must be a fingerprint as ssh-keygen -lf prints it ("SHA256:" and 43 base64 characters), got ${JSON.stringify(conn.hostKeySha256)}`,
    );
  }
  const where = `${conn.host}:${conn.port}`;
  const started = Date.now();
  const sock = await connectTcp(conn.host, conn.port, conn.timeoutMs, where);
  // The library's default listeners print to the console; what matters reaches us as rejections.
  const client = new SftpClient('bank', { error: () => {}, end: () => {}, close: () => {} });
  let seen: string | undefined;
  try {
    const remaining = Math.max(1, conn.timeoutMs - (Date.now() - started));
    const connecting = client.connect({
      sock,
      username: conn.username,
      privateKey: conn.privateKey,
      readyTimeout: remaining,
      hostVerifier: (key: Buffer) => {
        seen = sshFingerprint(key);
        return seen === conn.hostKeySha256;
      },
    });
    await bounded(connecting, remaining, () => sock.destroy(), `connecting to ${where}`);
  } catch (err) {
    sock.destroy();
    if (seen !== undefined && seen !== conn.hostKeySha256) {
      throw new SftpError(
        'host-key-mismatch',
        `host key mismatch at ${where}: expected ${conn.hostKeySha256}, the server presented ${seen}; connection refused (a different server, or the bank changed its key: confirm the new fingerprint with the bank)`,
      );
    }
    if (err instanceof SftpError) throw err;
    if (/authentication methods failed/i.test(messageOf(err))) {
      throw new SftpError('auth-failed', `authentication failed at ${where} for user ${conn.username}: the server refused the key`, { cause: err });
    }
    if (/timed out/i.test(messageOf(err))) {
      throw new SftpError('timeout', `no SSH handshake with ${where} within ${conn.timeoutMs} ms`, { cause: err });
    }
    throw new SftpError('failed', `could not open SFTP at ${where}: ${messageOf(err)}`, { cause: err });
  }
  return new Session(client, sock, conn, where);
}

/** The TCP connection, made here so that its wait is bounded and its refusal told apart. */
function connectTcp(host: string, port: number, timeoutMs: number, where: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host, port });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new SftpError('timeout', `no TCP connection to ${where} within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.once('connect', () => {
      clearTimeout(timer);
      sock.removeAllListeners('error');
      resolve(sock);
    });
    sock.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      sock.destroy();
      if (err.code === 'ECONNREFUSED') reject(new SftpError('connection-refused', `connection refused by ${where} (no SFTP server listening)`, { cause: err }));
      else reject(new SftpError('failed', `could not connect to ${where}: ${err.message}`, { cause: err }));
    });
  });
}

/** Waits for work at most ms; when the time is up, runs onTimeout (which ends the connection) and fails. */
function bounded<T>(work: Promise<T>, ms: number, onTimeout: () => void, what: string): Promise<T> {
  // The work may still settle after the time is up: its late failure is expected, not unhandled.
  work.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new SftpError('timeout', `${what}: no answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
}

class Session implements Sftp {
  /** Why the connection is gone; once set, every call fails at once with it. */
  private gone: string | undefined;
  /**
   * Calls run one at a time: the library keeps its event bookkeeping per client, not per call,
   * and a bank's server gains nothing from overlapping requests on one connection.
   */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly maxDownload: number;

  constructor(
    private readonly client: SftpClient,
    private readonly sock: net.Socket,
    private readonly conn: SftpConnection,
    private readonly where: string,
  ) {
    this.maxDownload = conn.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
    sock.once('close', () => {
      this.gone ??= `the connection to ${where} was closed by the server`;
    });
  }

  uploadOnce(folder: string, name: string, bytes: Uint8Array): Promise<'uploaded' | 'already-there'> {
    const data = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return this.serial(async () => {
      checkName(name);
      await this.requireFolder(folder);
      const final = join(folder, name);
      const part = join(folder, partName(name));
      const digest = sha256(data);
      if (await this.entry(final)) return this.alreadyThere(final, data, digest);
      // Temporary files left by earlier attempts that died, half written or whole. Should one be
      // an attempt still running, it fails at its read-back or its rename, and is retried.
      const entries = await this.step(`listing ${folder}`, () => this.client.list(folder), folder);
      for (const e of entries) if (isPartOf(name, e.name)) await this.removeIfThere(join(folder, e.name));
      await this.step(`writing ${part}`, () => this.client.put(data, part));
      const back = await this.read(part, data.length);
      if (back.length !== data.length || sha256(back) !== digest) {
        await this.removeIfThere(part);
        throw new SftpError(
          'verify-failed',
          `${part} at ${this.where} read back ${back.length} bytes that differ from the ${data.length} written; removed, nothing renamed`,
        );
      }
      try {
        // SFTP's rename refuses an existing target (OpenSSH links, then unlinks): a file that
        // appeared meanwhile (a concurrent attempt finished first) is never overwritten.
        await this.step(`renaming ${part} to ${name}`, () => this.client.rename(part, final));
      } catch (err) {
        if (err instanceof SftpError && (err.code === 'timeout' || err.code === 'closed')) throw err;
        if (!(await this.entry(final))) throw err;
        await this.removeIfThere(part);
        return this.alreadyThere(final, data, digest);
      }
      return 'uploaded';
    });
  }

  list(folder: string): Promise<RemoteFile[]> {
    return this.serial(async () => {
      const entries = await this.step(`listing ${folder}`, () => this.client.list(folder), folder);
      return entries
        .filter((e) => e.type === '-' && !e.name.startsWith('.'))
        .map((e) => ({ name: e.name, size: e.size, modifiedAt: new Date(e.modifyTime) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    });
  }

  download(folder: string, name: string): Promise<Buffer> {
    return this.serial(async () => {
      checkName(name);
      const file = join(folder, name);
      const found = await this.entry(file);
      if (!found) throw new SftpError('no-such-file', `no file ${file} at ${this.where}`);
      if (!found.isFile) throw new SftpError('no-such-file', `${file} at ${this.where} is not a regular file`);
      const tooLarge = (size: number) =>
        new SftpError('too-large', `${file} at ${this.where} holds ${size} bytes, more than the ${this.maxDownload} a download may hold; not downloaded`);
      if (found.size > this.maxDownload) throw tooLarge(found.size);
      // The file may grow after the stat: the read stops one byte past the cap, which tells.
      const bytes = await this.read(file, this.maxDownload);
      if (bytes.length > this.maxDownload) throw tooLarge(bytes.length);
      return bytes;
    });
  }

  remove(folder: string, name: string): Promise<'removed' | 'not-there'> {
    return this.serial(async () => {
      checkName(name);
      return (await this.removeIfThere(join(folder, name))) ? 'removed' : 'not-there';
    });
  }

  moveTo(folder: string, name: string, toFolder: string): Promise<'moved' | 'already-there'> {
    return this.serial(async () => {
      checkName(name);
      await this.requireFolder(toFolder);
      const from = join(folder, name);
      const to = join(toFolder, name);
      try {
        await this.step(`moving ${from} to ${toFolder}`, () => this.client.rename(from, to));
        return 'moved';
      } catch (err) {
        if (err instanceof SftpError && (err.code === 'timeout' || err.code === 'closed')) throw err;
        const [source, target] = [await this.entry(from), await this.entry(to)];
        if (!target) throw source ? err : new SftpError('no-such-file', `no file ${from} at ${this.where}`, { cause: err });
        // An earlier move that finished before its answer was lost.
        if (!source) return 'already-there';
        if (
          !source.isFile ||
          !target.isFile ||
          source.size !== target.size ||
          sha256(await this.read(from, source.size)) !== sha256(await this.read(to, target.size))
        ) {
          throw new SftpError('conflict', `${to} at ${this.where} already holds a different file than ${from}; neither touched`);
        }
        await this.removeIfThere(from);
        return 'already-there';
      }
    });
  }

  async close(): Promise<void> {
    if (this.gone) return;
    this.gone = `the connection to ${this.where} was closed`;
    try {
      await bounded(this.client.end(), this.conn.timeoutMs, () => this.sock.destroy(), `closing ${this.where}`);
    } catch {
      // A server that does not answer the goodbye: the socket is destroyed, nothing is left open.
    } finally {
      this.sock.destroy();
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** One request to the server, bounded; its failure becomes an SftpError. */
  private async step<T>(what: string, request: () => Promise<T>, folder?: string): Promise<T> {
    if (this.gone) throw new SftpError('closed', `${what}: ${this.gone}`);
    try {
      return await bounded(request(), this.conn.timeoutMs, () => this.abandon(what), `${what} at ${this.where}`);
    } catch (err) {
      if (err instanceof SftpError) throw err;
      if (this.gone) throw new SftpError('closed', `${what}: ${this.gone}`, { cause: err });
      if (isMissing(err) && folder !== undefined) throw new SftpError('no-such-folder', `no folder ${folder} at ${this.where}`, { cause: err });
      throw new SftpError('failed', `${what} at ${this.where}: ${messageOf(err)}`, { cause: err });
    }
  }

  /** A request that got no answer in time: the connection is in an unknown state, so it ends. */
  private abandon(what: string): void {
    this.gone ??= `${what} got no answer within ${this.conn.timeoutMs} ms; the connection was closed`;
    this.sock.destroy();
  }

  private async entry(file: string): Promise<Entry | undefined> {
    try {
      const s = await this.step(`stat ${file}`, () => this.client.stat(file));
      return { isFile: s.isFile, isDirectory: s.isDirectory, size: s.size };
    } catch (err) {
      if (err instanceof SftpError && isMissing(err.cause)) return undefined;
      throw err;
    }
  }

  private async requireFolder(folder: string): Promise<void> {
    const found = await this.entry(folder);
    if (!found?.isDirectory) throw new SftpError('no-such-folder', `no folder ${folder} at ${this.where}`);
  }

  private async removeIfThere(file: string): Promise<boolean> {
    try {
      await this.step(`removing ${file}`, () => this.client.delete(file));
      return true;
    } catch (err) {
      if (err instanceof SftpError && isMissing(err.cause)) return false;
      throw err;
    }
  }

  /** The first cap + 1 bytes of a file at most: one byte more than allowed is enough to refuse it. */
  private read(file: string, cap: number): Promise<Buffer> {
    return this.step(
      `reading ${file}`,
      () =>
        new Promise<Buffer>((resolve, reject) => {
          const chunks: Buffer[] = [];
          const stream = this.client.createReadStream(file, { start: 0, end: cap });
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.once('error', reject);
          stream.once('end', () => resolve(Buffer.concat(chunks)));
        }),
    );
  }

  /** The name is taken: the same bytes mean an earlier attempt finished; others are a conflict. */
  private async alreadyThere(final: string, data: Buffer, digest: string): Promise<'already-there'> {
    const found = await this.entry(final);
    if (found?.isFile && found.size === data.length) {
      const there = await this.read(final, data.length);
      if (there.length === data.length && sha256(there) === digest) return 'already-there';
    }
    throw new SftpError(
      'conflict',
      `${final} at ${this.where} already holds different content (${found?.isFile ? `${found.size} bytes` : 'not a regular file'}) than the ${data.length} bytes to upload; not overwritten`,
    );
  }
}

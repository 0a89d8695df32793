// The SFTP transport against Debian's OpenSSH server (sshd with internal-sftp), as a bank runs it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSftp, partName, SftpError, sshFingerprint, type Sftp, type SftpConnection, type SftpErrorCode } from './sftp.js';
import { ensureSshd, startSftpServer, type SftpServer } from './sshd.js';

// Generous for a loaded CI machine: the tests of waits that are cut short set their own.
const TIMEOUT_MS = 10_000;
const key = ssh2.utils.generateKeyPairSync('ed25519');
let server: SftpServer;
let dir: string;
const open: Sftp[] = [];

async function connect(overrides: Partial<SftpConnection> = {}): Promise<Sftp> {
  const sftp = await openSftp({
    host: server.host,
    port: server.port,
    username: 'root',
    privateKey: key.private,
    hostKeySha256: server.hostKeySha256,
    timeoutMs: TIMEOUT_MS,
    ...overrides,
  });
  open.push(sftp);
  return sftp;
}

/** A folder of its own for each test, seen by SFTP as /<name>. */
function folder(name: string): { remote: string; local: string } {
  const local = path.join(server.root, name);
  fs.mkdirSync(local);
  return { remote: `/${name}`, local };
}

async function failure(work: Promise<unknown>): Promise<SftpError> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SftpError);
  return err as SftpError;
}

async function failsWith(work: Promise<unknown>, code: SftpErrorCode): Promise<SftpError> {
  const err = await failure(work);
  expect(err.code, err.message).toBe(code);
  return err;
}

beforeAll(async () => {
  ensureSshd();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-sftp-'));
  server = await startSftpServer({ dir, users: [{ username: 'root', publicKey: key.public }] });
});

afterAll(async () => {
  for (const sftp of open) await sftp.close();
  await server?.stop();
  // The chroot lives outside a folder under /tmp (see sshd.ts): both go.
  if (server) fs.rmSync(path.dirname(server.root), { recursive: true, force: true });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('uploadOnce', () => {
  it('uploads a file once; the same bytes again are already there, without a write', async () => {
    const out = folder('once');
    const sftp = await connect();
    const bytes = new TextEncoder().encode('101 PAYOUT FILE\n'); // a Uint8Array, not a Buffer
    expect(await sftp.uploadOnce(out.remote, 'payout-1.ach', bytes)).toBe('uploaded');
    const file = path.join(out.local, 'payout-1.ach');
    expect(fs.readFileSync(file)).toEqual(Buffer.from(bytes));
    fs.utimesSync(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));

    expect(await sftp.uploadOnce(out.remote, 'payout-1.ach', bytes)).toBe('already-there');
    expect(fs.statSync(file).mtimeMs).toBe(Date.parse('2020-01-01T00:00:00Z'));
    expect(fs.readdirSync(out.local)).toEqual(['payout-1.ach']);
  });

  it('refuses different bytes under a name already taken and leaves the original intact', async () => {
    const out = folder('conflict');
    const sftp = await connect();
    const original = randomBytes(5000);
    expect(await sftp.uploadOnce(out.remote, 'payout-2.xml', original)).toBe('uploaded');
    // Same size, different bytes: only the content tells them apart.
    const other = Buffer.from(original);
    other[4999] ^= 0xff;
    const err = await failsWith(sftp.uploadOnce(out.remote, 'payout-2.xml', other), 'conflict');
    expect(err.message).toContain('/conflict/payout-2.xml');
    await failsWith(sftp.uploadOnce(out.remote, 'payout-2.xml', randomBytes(10)), 'conflict');
    expect(fs.readFileSync(path.join(out.local, 'payout-2.xml')).equals(original)).toBe(true);
    expect(fs.readdirSync(out.local)).toEqual(['payout-2.xml']);
  });

  it('removes the temporary files crashes left behind and completes the upload', async () => {
    const out = folder('crashed');
    // Earlier attempts died half way through writing their temporary files.
    fs.writeFileSync(path.join(out.local, partName('payout-3.ach')), 'half a fi');
    fs.writeFileSync(path.join(out.local, partName('payout-3.ach')), 'half a file');
    // Another file's (its name starts with this one's) is not this upload's business.
    fs.writeFileSync(path.join(out.local, partName('payout-3.ach.sig')), 'half');
    const sftp = await connect();
    const bytes = randomBytes(100_000);
    expect(await sftp.uploadOnce(out.remote, 'payout-3.ach', bytes)).toBe('uploaded');
    expect(fs.readdirSync(out.local).sort()).toEqual([expect.stringMatching(/^\.payout-3\.ach\.sig\.[0-9a-f]{8}\.part$/), 'payout-3.ach']);
    expect(
      createHash('sha256')
        .update(fs.readFileSync(path.join(out.local, 'payout-3.ach')))
        .digest('hex'),
    ).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('two connections uploading the same file together put it there once', async () => {
    const out = folder('together');
    const [a, b] = [await connect(), await connect()];
    const bytes = randomBytes(200_000);
    const answers = await Promise.allSettled([a.uploadOnce(out.remote, 'payout-4.ach', bytes), b.uploadOnce(out.remote, 'payout-4.ach', bytes)]);
    // However the two interleave, neither sees a conflict nor leaves a wrong file: one may fail
    // the other (it removed the other's temporary file as a crash's), and a retry completes.
    for (const r of answers) {
      if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(SftpError);
      if (r.status === 'rejected') expect(r.reason.code).not.toBe('conflict');
    }
    const retry = await a.uploadOnce(out.remote, 'payout-4.ach', bytes);
    if (answers.some((r) => r.status === 'fulfilled')) expect(retry).toBe('already-there');
    // (Buffer.equals: a deep equality over 200 000 elements takes seconds.)
    expect(fs.readFileSync(path.join(out.local, 'payout-4.ach')).equals(bytes)).toBe(true);
  });

  it('refuses names that are temporary or leave the folder, and folders that do not exist', async () => {
    const sftp = await connect();
    for (const name of ['.hidden', '../x', 'a/b', '']) await failsWith(sftp.uploadOnce('/once', name, Buffer.from('x')), 'failed');
    await failsWith(sftp.uploadOnce('/no-such-folder', 'payout.ach', Buffer.from('x')), 'no-such-folder');
    expect(fs.existsSync(path.join(server.root, 'no-such-folder'))).toBe(false);
  });
});

describe('list, download, remove, moveTo', () => {
  it('lists regular files by name, without temporary files or folders', async () => {
    const inbound = folder('listing');
    fs.writeFileSync(path.join(inbound.local, 'b-return.ach'), 'bb');
    fs.writeFileSync(path.join(inbound.local, 'a-ack.xml'), 'a');
    fs.writeFileSync(path.join(inbound.local, partName('c-late.ach')), 'c');
    fs.mkdirSync(path.join(inbound.local, 'archive'));
    fs.utimesSync(path.join(inbound.local, 'a-ack.xml'), new Date('2026-03-01T10:00:00Z'), new Date('2026-03-01T10:00:00Z'));
    const sftp = await connect();
    const files = await sftp.list(inbound.remote);
    expect(files.map((f) => [f.name, f.size])).toEqual([
      ['a-ack.xml', 1],
      ['b-return.ach', 2],
    ]);
    expect(files[0].modifiedAt).toEqual(new Date('2026-03-01T10:00:00Z'));
    await failsWith(sftp.list('/no-such-folder'), 'no-such-folder');
  });

  it('downloads a file up to the cap and refuses a larger one', async () => {
    const inbound = folder('capped');
    fs.writeFileSync(path.join(inbound.local, 'small.xml'), '0123456789');
    fs.writeFileSync(path.join(inbound.local, 'large.xml'), '0123456789A');
    const sftp = await connect({ maxDownloadBytes: 10 });
    expect((await sftp.download(inbound.remote, 'small.xml')).toString()).toBe('0123456789');
    const err = await failsWith(sftp.download(inbound.remote, 'large.xml'), 'too-large');
    expect(err.message).toContain('11 bytes');
    await failsWith(sftp.download(inbound.remote, 'missing.xml'), 'no-such-file');
  });

  it('downloads a file of many packets whole', async () => {
    const inbound = folder('whole');
    const bytes = randomBytes(3 * 1024 * 1024 + 17);
    fs.writeFileSync(path.join(inbound.local, 'statement.xml'), bytes);
    const sftp = await connect();
    expect((await sftp.download(inbound.remote, 'statement.xml')).equals(bytes)).toBe(true);
  });

  it('removes a file, and a second removal finds it gone', async () => {
    const inbound = folder('removing');
    fs.writeFileSync(path.join(inbound.local, 'done.xml'), 'x');
    const sftp = await connect();
    expect(await sftp.remove(inbound.remote, 'done.xml')).toBe('removed');
    expect(fs.existsSync(path.join(inbound.local, 'done.xml'))).toBe(false);
    expect(await sftp.remove(inbound.remote, 'done.xml')).toBe('not-there');
  });

  it('moves a file to another folder once, and never over a different file', async () => {
    const inbound = folder('moving');
    const archive = folder('moving-archive');
    fs.writeFileSync(path.join(inbound.local, 'r1.ach'), 'one');
    const sftp = await connect();
    expect(await sftp.moveTo(inbound.remote, 'r1.ach', archive.remote)).toBe('moved');
    expect(fs.readFileSync(path.join(archive.local, 'r1.ach'), 'utf8')).toBe('one');
    // A retry of a move whose answer was lost.
    expect(await sftp.moveTo(inbound.remote, 'r1.ach', archive.remote)).toBe('already-there');

    // The same name with the same bytes in both folders: the source goes.
    fs.writeFileSync(path.join(inbound.local, 'r1.ach'), 'one');
    expect(await sftp.moveTo(inbound.remote, 'r1.ach', archive.remote)).toBe('already-there');
    expect(fs.existsSync(path.join(inbound.local, 'r1.ach'))).toBe(false);

    // Different bytes under the name in the archive: SFTP's rename does not overwrite, neither do we.
    fs.writeFileSync(path.join(inbound.local, 'r1.ach'), 'two');
    await failsWith(sftp.moveTo(inbound.remote, 'r1.ach', archive.remote), 'conflict');
    expect(fs.readFileSync(path.join(inbound.local, 'r1.ach'), 'utf8')).toBe('two');
    expect(fs.readFileSync(path.join(archive.local, 'r1.ach'), 'utf8')).toBe('one');
    await failsWith(sftp.moveTo(inbound.remote, 'missing.ach', archive.remote), 'no-such-file');
  });
});

describe('connecting', () => {
  it('pins the host key: the fingerprint ssh-keygen prints is what the client computes', async () => {
    const sftp = await connect();
    expect(await sftp.list('/')).toEqual([]);
    // ssh-keygen -lf, run by startSftpServer, agrees with our reading of the key the server sends.
    const blob = Buffer.from(fs.readFileSync(path.join(dir, 'ssh_host_ed25519_key.pub'), 'utf8').split(' ')[1], 'base64');
    expect(sshFingerprint(blob)).toBe(server.hostKeySha256);
  });

  it('refuses a server whose host key is not the pinned one, naming both fingerprints', async () => {
    const pinned = sshFingerprint(randomBytes(51));
    const err = await failsWith(connect({ hostKeySha256: pinned }), 'host-key-mismatch');
    expect(err.message).toContain(pinned);
    expect(err.message).toContain(server.hostKeySha256);
  });

  it('refuses a fingerprint not written as OpenSSH writes it', async () => {
    const hex = createHash('sha256').update('x').digest('hex');
    await failsWith(connect({ hostKeySha256: hex }), 'failed');
    await failsWith(connect({ hostKeySha256: `${server.hostKeySha256}=` }), 'failed');
  });

  it('reports a key the server does not know as an authentication failure', async () => {
    const stranger = ssh2.utils.generateKeyPairSync('ed25519');
    const err = await failsWith(connect({ privateKey: stranger.private }), 'auth-failed');
    expect(err.message).toContain('root');
  });

  it('reports a stopped server as a refused connection, at once; started again, it is the same server', async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-sftp-down-'));
    const other = await startSftpServer({ dir: otherDir, users: [{ username: 'root', publicKey: key.public }] });
    try {
      await (await connect({ port: other.port, hostKeySha256: other.hostKeySha256 })).close();
      await other.stop();
      const started = Date.now();
      const err = await failsWith(connect({ port: other.port, hostKeySha256: other.hostKeySha256, timeoutMs: 10_000 }), 'connection-refused');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(err.message).toContain(String(other.port));

      // Started again on the same folder: the same host key (the pinned fingerprint holds) and files.
      fs.writeFileSync(path.join(other.root, 'kept.xml'), 'x');
      const again = await startSftpServer({ dir: otherDir, users: [{ username: 'root', publicKey: key.public }] });
      try {
        expect(again.hostKeySha256).toBe(other.hostKeySha256);
        expect(again.root).toBe(other.root);
        expect(await (await connect({ port: again.port, hostKeySha256: again.hostKeySha256 })).list('/')).toEqual([
          expect.objectContaining({ name: 'kept.xml', size: 1 }),
        ]);
      } finally {
        await again.stop();
      }
    } finally {
      await other.stop();
      fs.rmSync(path.dirname(other.root), { recursive: true, force: true });
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  });
});

describe('a server that stops answering', () => {
  it('fails a request within the timeout and closes the connection', async () => {
    const inbound = folder('frozen');
    fs.writeFileSync(path.join(inbound.local, 'report.xml'), 'x');
    const sftp = await connect({ timeoutMs: 1_000 });
    expect(await sftp.list(inbound.remote)).toHaveLength(1);
    server.signal('SIGSTOP');
    try {
      const started = Date.now();
      const err = await failsWith(sftp.list(inbound.remote), 'timeout');
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(900);
      expect(took).toBeLessThan(5_000);
      expect(err.message).toContain('1000 ms');
      // The connection is in an unknown state: it is not used again.
      await failsWith(sftp.list(inbound.remote), 'closed');
    } finally {
      server.signal('SIGCONT');
    }
  });

  it('fails a connection within the timeout when the server does not answer the handshake', async () => {
    server.signal('SIGSTOP');
    try {
      const started = Date.now();
      // The kernel still accepts the TCP connection; the SSH greeting never comes.
      await failsWith(connect({ timeoutMs: 1_000 }), 'timeout');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      server.signal('SIGCONT');
    }
    // Woken up, it serves again.
    expect(await (await connect()).list('/frozen')).toHaveLength(1);
  });
});

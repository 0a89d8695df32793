/**
 * Partner-bank SFTP keys at rest: `npx corridor bank key import` stores a bank's private key sealed
 * under the KEK, bound to its bank; the rail opens it (or, without one, reads the profile's key
 * file); `keys rotate-kek` seals it again with a new KEK.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { BankKeyError, importBankKey, listBankKeys, openBankKey } from '../src/rails/bank/credentials.js';
import { loadSecrets } from '../src/secrets/kek.js';
import { resealAll } from '../src/secrets/rotate.js';
import { dialect, freshDatabase, TEST_KEK } from './helpers/context.js';
import { cli, serverEnvironment } from './helpers/server.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bank-keys-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A key pair made by OpenSSH itself, and its fingerprint as `ssh-keygen -lf` prints it. */
function sshKey(name: string, opts: { args?: string[]; passphrase?: string } = {}): { file: string; text: string; fingerprint: string } {
  const file = path.join(dir, name);
  const made = spawnSync('ssh-keygen', ['-q', ...(opts.args ?? ['-t', 'ed25519']), '-N', opts.passphrase ?? '', '-C', name, '-f', file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`ssh-keygen: ${made.stderr}`);
  const listed = spawnSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' });
  return { file, text: fs.readFileSync(file, 'utf8'), fingerprint: listed.stdout.split(' ')[1] };
}

const secretsOf = (kek: string, previous?: string) =>
  loadSecrets(loadConfig({ DATA_DIR: '/nonexistent', CORRIDOR_KEK: kek, ...(previous ? { CORRIDOR_KEK_PREVIOUS: previous } : {}) }));

describe(`bank SFTP keys at rest (${dialect})`, async () => {
  const { db, drop } = await freshDatabase();
  await migrate(db);
  afterAll(drop);
  const secrets = secretsOf(TEST_KEK);
  const row = (bankId: string) => db.executor().selectFrom('bank_credentials').selectAll().where('bank_id', '=', bankId).executeTakeFirst();

  it('imports a key sealed under the KEK; the rail opens the same key, with the fingerprint OpenSSH shows', async () => {
    const key = sshKey('us-key');
    const done = await importBankKey(db, secrets, 'first-example-us', key.file);
    expect(done).toEqual({ bankId: 'first-example-us', publicKeySha256: key.fingerprint, replaced: false });
    expect(key.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);

    const stored = await row('first-example-us');
    expect(stored?.private_key).toMatch(/^enc:v1:/);
    expect(stored?.private_key).not.toContain('PRIVATE KEY');
    expect(stored?.public_key_sha256).toBe(key.fingerprint);

    // The file can go: the key now lives in the database only.
    fs.rmSync(key.file);
    const opened = await openBankKey(db, secrets, 'first-example-us', key.file);
    expect(opened).toEqual({ privateKey: key.text, publicKeySha256: key.fingerprint, source: 'database' });
  });

  it('a second import replaces the key of the bank, keeping when it was first imported', async () => {
    const first = sshKey('eu-key-1');
    const second = sshKey('eu-key-2', { args: ['-t', 'rsa', '-b', '2048'] });
    await importBankKey(db, secrets, 'example-eu', first.file, { now: () => new Date('2026-11-01T00:00:00Z') });
    const again = await importBankKey(db, secrets, 'example-eu', second.file, { now: () => new Date('2026-11-20T00:00:00Z') });
    expect(again).toEqual({ bankId: 'example-eu', publicKeySha256: second.fingerprint, replaced: true });
    expect(await row('example-eu')).toMatchObject({ created_at: '2026-11-01T00:00:00.000Z', updated_at: '2026-11-20T00:00:00.000Z' });
    expect((await openBankKey(db, secrets, 'example-eu')).privateKey).toBe(second.text);
    expect((await listBankKeys(db)).map((k) => [k.bankId, k.publicKeySha256])).toEqual([
      ['example-eu', second.fingerprint],
      ['first-example-us', expect.stringMatching(/^SHA256:/)],
    ]);
  });

  it('reads every key the SFTP client reads, with the fingerprint OpenSSH shows, and refuses PKCS#8', async () => {
    const kinds: Array<[string, string[]]> = [
      ['ed25519', ['-t', 'ed25519']],
      ['rsa', ['-t', 'rsa', '-b', '2048']],
      ['ecdsa-384', ['-t', 'ecdsa', '-b', '384']],
      ['rsa-pem', ['-t', 'rsa', '-b', '2048', '-m', 'PEM']],
      ['ecdsa-pem', ['-t', 'ecdsa', '-b', '256', '-m', 'PEM']],
      ['ecdsa-521-pem', ['-t', 'ecdsa', '-b', '521', '-m', 'PEM']],
    ];
    for (const [name, args] of kinds) {
      const key = sshKey(`kind-${name}`, { args });
      expect(ssh2.utils.parseKey(key.text), name).not.toBeInstanceOf(Error); // the client takes it
      expect(await importBankKey(db, secrets, `kind-${name}`, key.file), name).toMatchObject({ publicKeySha256: key.fingerprint });
    }
    const pkcs8 = sshKey('kind-pkcs8', { args: ['-t', 'rsa', '-b', '2048', '-m', 'PKCS8'] });
    expect(ssh2.utils.parseKey(pkcs8.text)).toBeInstanceOf(Error); // the client does not
    await expect(importBankKey(db, secrets, 'kind-pkcs8', pkcs8.file)).rejects.toThrow(/is not a private key the SFTP client reads/);
    const lockedPem = sshKey('kind-locked-pem', { args: ['-t', 'rsa', '-b', '2048', '-m', 'PEM'], passphrase: 'secret words' });
    await expect(importBankKey(db, secrets, 'kind-locked-pem', lockedPem.file)).rejects.toThrow(/protected by a passphrase/);
  });

  it("without an imported key the profile's key file is read, and without either the error says what to run", async () => {
    const key = sshKey('file-only');
    expect(await openBankKey(db, secrets, 'file-only-bank', key.file)).toEqual({ privateKey: key.text, publicKeySha256: key.fingerprint, source: 'file' });
    await expect(openBankKey(db, secrets, 'no-key-bank')).rejects.toThrow(
      'no SFTP key for bank no-key-bank: import one with `npx corridor bank key import no-key-bank <file>`, or set banks[].sftp.privateKeyFile in BANKS_FILE',
    );
    await expect(openBankKey(db, secrets, 'no-key-bank', path.join(dir, 'gone'))).rejects.toThrow(/gone cannot be read/);
  });

  it('refuses what the rail could not use: a passphrase, a public key, something else, a missing file, a bad bank id', async () => {
    const locked = sshKey('locked', { passphrase: 'correct horse' });
    await expect(importBankKey(db, secrets, 'locked-bank', locked.file)).rejects.toThrow(/protected by a passphrase/);
    await expect(importBankKey(db, secrets, 'locked-bank', `${locked.file}.pub`)).rejects.toThrow(/holds a public key: give the private half/);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a key\n');
    await expect(importBankKey(db, secrets, 'locked-bank', path.join(dir, 'notes.txt'))).rejects.toThrow(/is not a private key the SFTP client reads/);
    await expect(importBankKey(db, secrets, 'locked-bank', path.join(dir, 'missing'))).rejects.toThrow(BankKeyError);
    await expect(importBankKey(db, secrets, 'Locked Bank', sshKey('ok').file)).rejects.toThrow(/bank id must be 1 to 32 lower-case letters/);
    expect(await row('locked-bank')).toBeUndefined();
  });

  it("a sealed key copied to another bank's row does not open there", async () => {
    const key = sshKey('copied');
    await importBankKey(db, secrets, 'bank-a', key.file);
    await importBankKey(db, secrets, 'bank-b', sshKey('other').file);
    const a = await row('bank-a');
    await db.tx((trx) => trx.updateTable('bank_credentials').set({ private_key: a!.private_key }).where('bank_id', '=', 'bank-b').execute());
    await expect(openBankKey(db, secrets, 'bank-b')).rejects.toThrow(/does not open/);
  });

  it('keys rotate-kek seals bank keys with the new KEK; a node with only the new key opens them', async () => {
    const key = sshKey('rotated');
    await importBankKey(db, secrets, 'rotated-bank', key.file);
    const newKek = randomBytes(32).toString('base64');
    // bank-b holds a value moved from bank-a (previous test): it cannot be opened, so set it right first.
    await importBankKey(db, secrets, 'bank-b', sshKey('other-2').file);
    const report = await resealAll(db, secretsOf(newKek, TEST_KEK));
    const count = (await listBankKeys(db)).length;
    expect(report.bankKeys).toEqual({ checked: count, sealed: count });
    expect((await resealAll(db, secretsOf(newKek, TEST_KEK))).bankKeys).toEqual({ checked: count, sealed: 0 });
    expect((await openBankKey(db, secretsOf(newKek), 'rotated-bank')).privateKey).toBe(key.text);
    await expect(openBankKey(db, secrets, 'rotated-bank')).rejects.toThrow(/unknown key-encryption key/);
  });

  it('npx corridor bank key import and list, against the database of a real install', async () => {
    const { env, cleanup } = await serverEnvironment(dialect);
    try {
      const key = sshKey('cli-key');
      const imported = cli(['bank', 'key', 'import', 'cli-bank', key.file, '--json'], env);
      expect(imported.status, imported.stderr).toBe(0);
      expect(JSON.parse(imported.stdout)).toEqual({ bankId: 'cli-bank', publicKeySha256: key.fingerprint, replaced: false });
      const human = cli(['bank', 'key', 'import', 'cli-bank', key.file], env);
      expect(human.stdout).toContain(`replaced the SFTP key of bank cli-bank (public key ${key.fingerprint})`);
      expect(cli(['bank', 'key', 'list'], env).stdout).toMatch(new RegExp(`^cli-bank  ${key.fingerprint.replace(/[+/]/g, '\\$&')}  imported 20`));

      const refused = cli(['bank', 'key', 'import', 'cli-bank', `${key.file}.pub`], env);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain('holds a public key');

      // What the command stored opens with the install's KEK (the data directory's, here) in this process too.
      const url = env.DATABASE_URL ?? path.join(env.DATA_DIR, 'corridor.db');
      const installed = await openDatabase({ url });
      try {
        const opened = await openBankKey(installed, loadSecrets(loadConfig(env)), 'cli-bank');
        expect(opened.privateKey).toBe(key.text);
        const audit = await installed.executor().selectFrom('audit_log').select(['action', 'target', 'outcome']).orderBy('id').execute();
        expect(audit.filter((a) => a.action.startsWith('bank key import')).map((a) => a.outcome)).toEqual(['SUCCEEDED', 'SUCCEEDED', 'FAILED']);
      } finally {
        await installed.close();
      }
    } finally {
      await cleanup();
    }
    // It builds the CLI first when a source is newer than the build, and runs it four times.
  }, 300_000);
});

/**
 * The SFTP client key of each partner bank. It is a secret: whoever holds it can upload payout
 * files in the operator's name. The operator imports it once (`npx corridor bank key import
 * <bankId> <file>`); it is then kept in `bank_credentials` sealed under the KEK, like webhook and
 * UMA keys (src/secrets), and the file can be deleted. A database backup then holds no usable key,
 * `keys rotate-kek` seals it again with a new KEK, and every node reads the same key.
 *
 * While no key has been imported for a bank, its `sftp.privateKeyFile` (BANKS_FILE) is read
 * instead, so an install can start with a file and move the key into the database later.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import { systemClock, type Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';
import type { Sealer } from '../../secrets/envelope.js';

/** What a sealed key is bound to (GCM additional data): a key copied to another bank's row does not open. */
export const bankKeyContext = (bankId: string) => `bank_credentials|${bankId}`;

export class BankKeyError extends Error {
  override readonly name = 'BankKeyError';
}

/** Key files are a few kilobytes; anything far larger is the wrong file. */
const MAX_KEY_FILE_BYTES = 64 * 1024;
const BANK_ID = /^[a-z0-9-]{1,32}$/;

export interface BankKey {
  /** The private key as the SFTP client takes it (OpenSSH or PEM text). */
  privateKey: string;
  /** Its public half's fingerprint (SHA256:…, as `ssh-keygen -lf` prints it). */
  publicKeySha256: string;
  /** Where it came from: imported into the database, or the profile's privateKeyFile. */
  source: 'database' | 'file';
}

export interface StoredBankKey {
  bankId: string;
  publicKeySha256: string;
  createdAt: string;
  updatedAt: string;
}

// SSH wire encoding (RFC 4251): a string is a 32-bit length and its bytes; an mpint is a string of
// the big-endian two's-complement number.
const sshString = (bytes: Uint8Array | string) => {
  const body = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  return Buffer.concat([len, body]);
};
const sshMpint = (unsigned: Buffer) => {
  let i = 0;
  while (i < unsigned.length - 1 && unsigned[i] === 0) i++;
  const trimmed = unsigned.subarray(i);
  return sshString(trimmed[0] & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
};
const EC_CURVES: Record<string, string> = { 'P-256': 'nistp256', 'P-384': 'nistp384', 'P-521': 'nistp521' };

/** Reads an SSH string at an offset of an OpenSSH key; undefined past the end (a truncated key). */
function readString(buf: Buffer, at: number): { value: Buffer; next: number } | undefined {
  if (at + 4 > buf.length) return undefined;
  const len = buf.readUInt32BE(at);
  if (at + 4 + len > buf.length) return undefined;
  return { value: buf.subarray(at + 4, at + 4 + len), next: at + 4 + len };
}

/** The public key blob of an OpenSSH private key file ("openssh-key-v1"), which it carries in the clear. */
function openSshPublicBlob(text: string, where: string): Buffer {
  const body = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text)![1];
  const buf = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  const magic = Buffer.from('openssh-key-v1\0', 'latin1');
  const broken = () => new BankKeyError(`${where} is not a well-formed OpenSSH private key`);
  if (!buf.subarray(0, magic.length).equals(magic)) throw broken();
  const cipher = readString(buf, magic.length);
  const kdf = cipher && readString(buf, cipher.next);
  const kdfOptions = kdf && readString(buf, kdf.next);
  if (!kdfOptions || kdfOptions.next + 4 > buf.length) throw broken();
  if (cipher.value.toString('latin1') !== 'none') throw passphraseError(where);
  if (buf.readUInt32BE(kdfOptions.next) !== 1) throw new BankKeyError(`${where} holds several keys: give a file with one`);
  const publicBlob = readString(buf, kdfOptions.next + 4);
  const secret = publicBlob && readString(buf, publicBlob.next);
  // Unencrypted, the private part starts with the same check number twice, then the key's type.
  if (!secret || secret.value.length < 8 || secret.value.readUInt32BE(0) !== secret.value.readUInt32BE(4)) throw broken();
  const publicType = readString(publicBlob.value, 0);
  const privateType = readString(secret.value, 8);
  if (!publicType || !privateType || !publicType.value.equals(privateType.value)) throw broken();
  return publicBlob.value;
}

/** The public key blob of a PEM private key (PKCS#1 RSA or SEC1 EC), as SSH encodes it. */
function pemPublicBlob(text: string, where: string): Buffer {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE' || /Proc-Type: 4,ENCRYPTED/.test(text)) throw passphraseError(where);
    throw new BankKeyError(`${where} is not a private key the SFTP client reads (${(e as Error).message})`);
  }
  const jwk = createPublicKey(key).export({ format: 'jwk' });
  const b64 = (v: string | undefined) => Buffer.from(v ?? '', 'base64url');
  if (jwk.kty === 'RSA') return Buffer.concat([sshString('ssh-rsa'), sshMpint(b64(jwk.e)), sshMpint(b64(jwk.n))]);
  const curve = jwk.kty === 'EC' ? EC_CURVES[jwk.crv ?? ''] : undefined;
  if (curve) return Buffer.concat([sshString(`ecdsa-sha2-${curve}`), sshString(curve), sshString(Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]))]);
  throw new BankKeyError(`${where} is a ${key.asymmetricKeyType} key in PEM, which the SFTP client does not use: give an OpenSSH key or a PEM RSA or EC key`);
}

const passphraseError = (where: string) =>
  new BankKeyError(`${where} is protected by a passphrase, which the rail cannot type: remove it with \`ssh-keygen -p -N "" -f <file>\` on a copy`);

/**
 * Checks that text is a private key the SFTP client (ssh2) reads, and answers the fingerprint of
 * its public half. The client reads OpenSSH keys and PEM keys (PKCS#1 RSA, SEC1 EC) without a
 * passphrase: the rail runs unattended, so a key it cannot open alone is refused here rather than
 * at the first upload. PKCS#8 ("BEGIN PRIVATE KEY") is not among them. Read here with node:crypto
 * rather than ssh2's parser: ssh2 carries optional native addons that the operator CLI's bundle
 * (scripts/build.mjs) cannot hold.
 */
export function checkPrivateKey(text: string, where: string): string {
  let blob: Buffer;
  if (text.includes('-----BEGIN OPENSSH PRIVATE KEY-----')) blob = openSshPublicBlob(text, where);
  else if (/-----BEGIN (RSA|EC) PRIVATE KEY-----/.test(text)) blob = pemPublicBlob(text, where);
  else if (/^(ssh-|ecdsa-)\S+ [A-Za-z0-9+/=]+/.test(text.trim()) || text.includes('PUBLIC KEY-----'))
    throw new BankKeyError(`${where} holds a public key: give the private half (the file without .pub)`);
  else
    throw new BankKeyError(
      `${where} is not a private key the SFTP client reads: use an OpenSSH key (\`ssh-keygen -t ed25519\`) or a PEM RSA or EC key (BEGIN RSA PRIVATE KEY, BEGIN EC PRIVATE KEY)`,
    );
  // As OpenSSH prints it, and as sftp.ts pins host keys: SHA-256 of the public key blob, unpadded base64.
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function readKeyFile(file: string): string {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    throw new BankKeyError(`${file} cannot be read: ${(e as Error).message}`);
  }
  if (!stat.isFile()) throw new BankKeyError(`${file} is not a file`);
  if (stat.size > MAX_KEY_FILE_BYTES) throw new BankKeyError(`${file} is ${stat.size} bytes, too large for a private key: is it the right file?`);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new BankKeyError(`${file} cannot be read: ${(e as Error).message}`);
  }
}

/**
 * Stores the private key in `file` for a bank, sealed under the current KEK; a key imported earlier
 * for that bank is replaced. Answers the public fingerprint (what the bank must have on file).
 */
export async function importBankKey(
  db: Database,
  secrets: Sealer,
  bankId: string,
  file: string,
  clock: Clock = systemClock,
): Promise<{ bankId: string; publicKeySha256: string; replaced: boolean }> {
  if (!BANK_ID.test(bankId))
    throw new BankKeyError(`bank id must be 1 to 32 lower-case letters, digits or dashes (as in BANKS_FILE), got ${JSON.stringify(bankId)}`);
  const privateKey = readKeyFile(file);
  const publicKeySha256 = checkPrivateKey(privateKey, file);
  const sealed = secrets.sealText(privateKey, bankKeyContext(bankId));
  const now = clock.now().toISOString();
  const replaced = await db.tx(async (trx) => {
    const before = await trx.selectFrom('bank_credentials').select('bank_id').where('bank_id', '=', bankId).executeTakeFirst();
    await trx
      .insertInto('bank_credentials')
      .values({ bank_id: bankId, private_key: sealed, public_key_sha256: publicKeySha256, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('bank_id').doUpdateSet({ private_key: sealed, public_key_sha256: publicKeySha256, updated_at: now }))
      .execute();
    return before !== undefined;
  });
  return { bankId, publicKeySha256, replaced };
}

/**
 * The SFTP key of a bank: the one imported into the database, else the profile's privateKeyFile
 * (`privateKeyFile`, absolute as bank/config.ts resolves it). Throws a BankKeyError naming the bank
 * and the command to run when there is neither.
 */
export async function openBankKey(db: Database, secrets: Sealer, bankId: string, privateKeyFile?: string): Promise<BankKey> {
  const row = await db.executor().selectFrom('bank_credentials').select(['private_key', 'public_key_sha256']).where('bank_id', '=', bankId).executeTakeFirst();
  if (row) return { privateKey: secrets.openText(row.private_key, bankKeyContext(bankId)), publicKeySha256: row.public_key_sha256, source: 'database' };
  if (privateKeyFile === undefined)
    throw new BankKeyError(
      `no SFTP key for bank ${bankId}: import one with \`npx corridor bank key import ${bankId} <file>\`, or set banks[].sftp.privateKeyFile in BANKS_FILE`,
    );
  const privateKey = readKeyFile(privateKeyFile);
  return { privateKey, publicKeySha256: checkPrivateKey(privateKey, privateKeyFile), source: 'file' };
}

/** The imported keys, without their secret part (`npx corridor bank key list`). */
export async function listBankKeys(db: Database): Promise<StoredBankKey[]> {
  const rows = await db
    .executor()
    .selectFrom('bank_credentials')
    .select(['bank_id', 'public_key_sha256', 'created_at', 'updated_at'])
    .orderBy('bank_id')
    .execute();
  return rows.map((r) => ({ bankId: r.bank_id, publicKeySha256: r.public_key_sha256, createdAt: r.created_at, updatedAt: r.updated_at }));
}

/** Seals every bank key again with the current KEK (`npx corridor keys rotate-kek`); one row per transaction. */
export async function resealBankKeys(db: Database, secrets: Sealer): Promise<{ checked: number; sealed: number }> {
  const rows = await db.executor().selectFrom('bank_credentials').select(['bank_id', 'private_key']).execute();
  let sealed = 0;
  for (const row of rows) {
    if (secrets.isCurrentText(row.private_key)) continue;
    const context = bankKeyContext(row.bank_id);
    const again = secrets.sealText(secrets.openText(row.private_key, context), context);
    // Only if unchanged since read: an import meanwhile is already sealed with the current key.
    await db.tx((trx) =>
      trx.updateTable('bank_credentials').set({ private_key: again }).where('bank_id', '=', row.bank_id).where('private_key', '=', row.private_key).execute(),
    );
    sealed += 1;
  }
  return { checked: rows.length, sealed };
}

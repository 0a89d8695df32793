/**
 * Where the key-encryption key (KEK) comes from, in this order:
 * 1. CORRIDOR_KEK: base64 of 32 random bytes (`openssl rand -base64 32`);
 * 2. CORRIDOR_KEK_FILE: a file holding that base64 text (or the 32 raw bytes), e.g. a mounted secret;
 * 3. the embedded default: `<DATA_DIR>/kek.key`, generated (mode 0600) on first start with a
 *    warning. It protects a copied database (a backup, a dump) but not a copied data directory;
 * 4. a data directory that cannot hold it: a key for this process only, with a warning (what
 *    it seals cannot be read after a restart; the server refuses to start that way, see main.ts).
 * CORRIDOR_KEK_PREVIOUS (base64, comma-separated) adds keys that only open values, for a rotation.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { createSealer, KEK_BYTES, SecretError, type Sealer } from './envelope.js';

export type KekSource = 'CORRIDOR_KEK' | 'CORRIDOR_KEK_FILE' | 'data directory' | 'this process only';

export interface Secrets extends Sealer {
  readonly source: KekSource;
  /** The file of the embedded default, when that is the source. */
  readonly file?: string;
}

export const KEK_FILE_NAME = 'kek.key';
/** During `keys rotate-kek --generate`: the key being introduced, then the one being retired. */
export const NEXT_KEK_FILE_NAME = 'kek.next.key';
export const PREVIOUS_KEK_FILE_NAME = 'kek.previous.key';

/** Decodes base64 text of exactly 32 bytes; undefined otherwise. */
export function decodeKek(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]{43}=$/.test(trimmed)) return undefined;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEK_BYTES ? key : undefined;
}

export function readKekFile(file: string): Buffer {
  const raw = fs.readFileSync(file);
  if (raw.length === KEK_BYTES) return raw;
  const key = decodeKek(raw.toString('utf8'));
  if (!key) throw new SecretError(`${file} must hold base64 of ${KEK_BYTES} bytes (openssl rand -base64 32) or the ${KEK_BYTES} raw bytes`);
  return key;
}

let processKek: Buffer | undefined;
const warned = new Set<string>();
function warnOnce(warn: (message: string) => void, message: string) {
  if (warned.has(message)) return;
  warned.add(message);
  warn(message);
}

/** The KEK of this configuration and the Secrets sealing with it. */
export function loadSecrets(
  config: Pick<Config, 'dataDir' | 'kek' | 'kekFile' | 'kekPrevious'>,
  warn: (message: string) => void = (m) => process.emitWarning(m),
): Secrets {
  const previous = (config.kekPrevious ?? []).map((k) => decodeKek(k)!);
  // A rotation of the embedded key interrupted half way leaves these: they still open values.
  if (!config.kek && !config.kekFile) {
    for (const name of [NEXT_KEK_FILE_NAME, PREVIOUS_KEK_FILE_NAME]) {
      const other = path.join(config.dataDir, name);
      if (fs.existsSync(other)) previous.push(readKekFile(other));
    }
  }
  const make = (current: Buffer, source: KekSource, file?: string): Secrets => Object.assign(createSealer({ current, previous }), { source, file });
  if (config.kek) return make(decodeKek(config.kek)!, 'CORRIDOR_KEK');
  if (config.kekFile) return make(readKekFile(config.kekFile), 'CORRIDOR_KEK_FILE');
  const file = path.join(config.dataDir, KEK_FILE_NAME);
  if (fs.existsSync(file)) return make(readKekFile(file), 'data directory', file);
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
    // 'wx': two processes starting at once on one data directory keep the first key.
    fs.writeFileSync(file, `${randomBytes(KEK_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    warnOnce(
      warn,
      `generated a key-encryption key in ${file}: webhook signing keys and KYC documents are encrypted with it. Back it up apart from the database; a hosted install should set CORRIDOR_KEK or CORRIDOR_KEK_FILE instead (docs/operations.md)`,
    );
    return make(readKekFile(file), 'data directory', file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return make(readKekFile(file), 'data directory', file);
    warnOnce(
      warn,
      `no key-encryption key is configured and ${config.dataDir} cannot hold one (${(e as Error).message}); using a key for this process only: set CORRIDOR_KEK`,
    );
    processKek ??= randomBytes(KEK_BYTES);
    return make(processKek, 'this process only');
  }
}

/**
 * A platform's UMA keys, per (platform, environment): the signing key (its signatures on LNURLP
 * responses, pay-request responses, post-transaction callbacks and its own requests), the
 * encryption key (counterparties encrypt travel-rule information to it) and the Lightning node key
 * (it signs the platform's BOLT11 invoices). All secp256k1, made on first use, the private halves
 * sealed under the KEK like webhook keys (context: the row's own key, so a sealed key copied into
 * another row does not open).
 *
 * Rotation adds a generation; the newest is the one in use and published. Counterparties may have
 * cached the previous public keys until the published expiry, so older encryption keys still open
 * what was encrypted to them for ROTATION_GRACE_MS.
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { Sealer } from '../../secrets/envelope.js';
import { selfSignedCertificate } from './certificate.js';
import type { UmaKeyPurpose, UmaKeysTable } from './tables.js';

/** How long a certificate is valid; the published expiry (PUBLISHED_KEYS_TTL_MS) is far shorter. */
const CERTIFICATE_VALIDITY_MS = 2 * 365 * 24 * 3600_000;
/** Counterparties may cache published keys this long (the lnurlpubkey expirationTimestamp). */
export const PUBLISHED_KEYS_TTL_MS = 3600_000;
/** A rotated encryption key still decrypts for twice the published cache time. */
export const ROTATION_GRACE_MS = 2 * PUBLISHED_KEYS_TTL_MS;
/** Another node may rotate: the keys read here are trusted this long. */
const LOCAL_CACHE_MS = 30_000;
const CACHE_MAX_ENTRIES = 1_000;

export const PURPOSES: readonly UmaKeyPurpose[] = ['SIGNING', 'ENCRYPTION', 'NODE'];

export interface UmaKey {
  purpose: UmaKeyPurpose;
  generation: number;
  /** uncompressed secp256k1 public key (65 bytes), as the UMA SDK and certificates carry it */
  publicKey: Buffer;
  /** 32 bytes, for the UMA SDK's signing and decryption calls; never logged */
  privateKey: Buffer;
  certificatePem: string | null;
  notAfter: Date;
}

export interface UmaKeySet {
  signing: UmaKey;
  encryption: UmaKey;
  node: UmaKey;
}

/** What a sealed private key belongs to (the GCM additional data). */
export const umaKeyContext = (row: Pick<UmaKeysTable, 'platform_id' | 'environment' | 'purpose' | 'generation'>) =>
  `uma_keys|${row.platform_id}|${row.environment}|${row.purpose}|${row.generation}`;

function rawKeys(privateKey: KeyObject): { privateKey: Buffer; publicKey: Buffer } {
  const jwk = privateKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x!, 'base64url');
  const y = Buffer.from(jwk.y!, 'base64url');
  return { privateKey: Buffer.from(jwk.d!, 'base64url'), publicKey: Buffer.concat([Buffer.from([4]), x, y]) };
}

/** A Node key object for a raw secp256k1 private key and its public key. */
export function keyObjectOf(privateKey: Buffer, publicKey: Buffer): KeyObject {
  return createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'secp256k1',
      d: privateKey.toString('base64url'),
      x: publicKey.subarray(1, 33).toString('base64url'),
      y: publicKey.subarray(33, 65).toString('base64url'),
    },
  });
}

export function createUmaKeys(deps: { db: Database; clock: Clock; secrets: Sealer }) {
  const { db, clock, secrets } = deps;
  const cache = new Map<string, { at: number; keys: UmaKeySet }>();
  const cacheKey = (scope: Scope) => `${scope.platformId}|${scope.environment}`;

  function newRow(scope: Scope, purpose: UmaKeyPurpose, generation: number, domain: string): UmaKeysTable {
    const now = clock.now();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
    const raw = rawKeys(privateKey);
    const notAfter = new Date(now.getTime() + CERTIFICATE_VALIDITY_MS);
    const base = { platform_id: scope.platformId, environment: scope.environment, purpose, generation };
    return {
      ...base,
      public_key_hex: raw.publicKey.toString('hex'),
      private_key: secrets.sealText(raw.privateKey.toString('hex'), umaKeyContext(base)),
      // The node key signs invoices only; nobody fetches a certificate for it.
      certificate_pem: purpose === 'NODE' ? null : selfSignedCertificate({ domain, privateKey, notBefore: now, notAfter, serial: randomBytes(16) }),
      not_after: notAfter.toISOString(),
      created_at: now.toISOString(),
    };
  }

  function keyOf(row: UmaKeysTable): UmaKey {
    return {
      purpose: row.purpose,
      generation: Number(row.generation),
      publicKey: Buffer.from(row.public_key_hex, 'hex'),
      privateKey: Buffer.from(secrets.openText(row.private_key, umaKeyContext(row)), 'hex'),
      certificatePem: row.certificate_pem,
      notAfter: new Date(row.not_after),
    };
  }

  const readAll = (scope: Scope) =>
    db
      .executor()
      .selectFrom('uma_keys')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .orderBy('generation', 'desc')
      .execute();

  /** Inserts generation `generation` of every purpose; a concurrent insert of the same one wins and is read back. */
  async function insertGeneration(scope: Scope, generation: number, domain: string) {
    const rows = PURPOSES.map((p) => newRow(scope, p, generation, domain));
    await db.tx(async (trx) => {
      for (const row of rows)
        await trx
          .insertInto('uma_keys')
          .values(row)
          .onConflict((oc) => oc.columns(['platform_id', 'environment', 'purpose', 'generation']).doNothing())
          .execute();
    });
  }

  function newest(rows: UmaKeysTable[]): UmaKeySet | undefined {
    const pick = (purpose: UmaKeyPurpose) => rows.find((r) => r.purpose === purpose);
    const [signing, encryption, node] = PURPOSES.map(pick);
    if (!signing || !encryption || !node) return undefined;
    return { signing: keyOf(signing), encryption: keyOf(encryption), node: keyOf(node) };
  }

  async function current(scope: Scope, domain: string): Promise<UmaKeySet> {
    const hit = cache.get(cacheKey(scope));
    if (hit && clock.now().getTime() - hit.at < LOCAL_CACHE_MS) return hit.keys;
    let keys = newest(await readAll(scope));
    if (!keys) {
      await insertGeneration(scope, 1, domain);
      keys = newest(await readAll(scope));
      if (!keys) throw new Error('UMA keys vanished after insert');
    }
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(cacheKey(scope), { at: clock.now().getTime(), keys });
    return keys;
  }

  return {
    /** The keys in use for this scope; made on first use. `domain` names the certificates of new keys. */
    current,

    /** Adds a generation of all three keys; returns the new set. */
    async rotate(scope: Scope, domain: string): Promise<UmaKeySet> {
      const rows = await readAll(scope);
      const next = Number(rows[0]?.generation ?? 0) + 1;
      await insertGeneration(scope, next, domain);
      cache.delete(cacheKey(scope));
      return current(scope, domain);
    },

    /**
     * The encryption private keys that may open a counterparty's ciphertext, newest first: the
     * current one, and those rotated out less than ROTATION_GRACE_MS ago.
     */
    async decryptionKeys(scope: Scope): Promise<Buffer[]> {
      const rows = (await readAll(scope)).filter((r) => r.purpose === 'ENCRYPTION');
      const now = clock.now().getTime();
      return rows.filter((r, i) => i === 0 || now - new Date(rows[i - 1].created_at).getTime() < ROTATION_GRACE_MS).map((r) => keyOf(r).privateKey);
    },
  };
}

export type UmaKeys = ReturnType<typeof createUmaKeys>;

/** Seals every UMA private key again with the current KEK (`npx corridor keys rotate-kek`). */
export async function resealUmaKeys(db: Database, secrets: Sealer): Promise<{ checked: number; sealed: number }> {
  const rows = await db.executor().selectFrom('uma_keys').selectAll().execute();
  let sealed = 0;
  for (const row of rows) {
    if (secrets.isCurrentText(row.private_key)) continue;
    const context = umaKeyContext(row);
    const again = secrets.sealText(secrets.openText(row.private_key, context), context);
    await db.tx((trx) =>
      trx
        .updateTable('uma_keys')
        .set({ private_key: again })
        .where('platform_id', '=', row.platform_id)
        .where('environment', '=', row.environment)
        .where('purpose', '=', row.purpose)
        .where('generation', '=', row.generation)
        .where('private_key', '=', row.private_key)
        .execute(),
    );
    sealed += 1;
  }
  return { checked: rows.length, sealed };
}

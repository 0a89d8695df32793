/**
 * Webhook signing keys: one Ed25519 pair per (platform, environment), and one P-256 pair for the
 * GRID profile's X-Grid-Signature (table webhook_p256_keys), each generated on first use
 * (GET /config or the first delivery, whichever comes first) and stored. The private half stays
 * inside this file's closure: callers get the public PEM or a WebhookSigner, which prints as
 * "[redacted]", so neither a response nor a log line can carry it. In the database the private
 * key is sealed with the key-encryption key (AES-256-GCM, src/secrets); rows written before that
 * still read, until `npx corridor keys rotate-kek` seals them.
 */
import type { Clock } from '../common/clock.js';
import type { Scope } from '../common/scope.js';
import type { Database } from '../db/database.js';
import type { Sealer } from '../secrets/envelope.js';
import { generateP256KeyPair, GridSigner } from './grid-signing.js';
import { generateSigningKeyPair, WebhookSigner, type SigningKeyPair } from './signing.js';

interface StoredKey<S> {
  publicKeyPem: string;
  signer: S;
}

/** The two kinds of pair: Ed25519 (X-Corridor-Signature) and P-256 (the GRID profile's X-Grid-Signature). */
interface KeyKind<S> {
  table: 'webhook_keys' | 'webhook_p256_keys';
  context: (platformId: string, environment: string) => string;
  generate: () => SigningKeyPair;
  signer: (privateKeyPem: string) => S;
}

// Keys never change once made, so a bounded in-memory cache is always right.
const CACHE_MAX_ENTRIES = 1_000;

/** What a stored private key is sealed to: its own row (src/secrets/envelope.ts). */
export const webhookKeyContext = (platformId: string, environment: string) => `webhook_keys|${platformId}|${environment}`;
/** The same for a GRID-profile P-256 key, so the two sealed keys cannot stand in for each other. */
export const gridWebhookKeyContext = (platformId: string, environment: string) => `webhook_p256_keys|${platformId}|${environment}`;

const ED25519: KeyKind<WebhookSigner> = {
  table: 'webhook_keys',
  context: webhookKeyContext,
  generate: generateSigningKeyPair,
  signer: (pem) => new WebhookSigner(pem),
};
const P256: KeyKind<GridSigner> = {
  table: 'webhook_p256_keys',
  context: gridWebhookKeyContext,
  generate: generateP256KeyPair,
  signer: (pem) => new GridSigner(pem),
};

export function createWebhookKeys(deps: { db: Database; clock: Clock; secrets: Sealer }) {
  const { db, clock, secrets } = deps;
  const cache = new Map<string, StoredKey<unknown>>();

  async function load<S>(kind: KeyKind<S>, scope: Scope): Promise<StoredKey<S>> {
    const id = `${kind.table}|${scope.platformId}|${scope.environment}`;
    const hit = cache.get(id) as StoredKey<S> | undefined;
    if (hit) return hit;
    const read = () =>
      db
        .executor()
        .selectFrom(kind.table)
        .select(['public_key_pem', 'private_key_pem'])
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .executeTakeFirst();
    let row = await read();
    if (!row) {
      const pair = kind.generate();
      // Two nodes may generate at once: the first insert wins and both read the winner back.
      await db.tx((trx) =>
        trx
          .insertInto(kind.table)
          .values({
            platform_id: scope.platformId,
            environment: scope.environment,
            public_key_pem: pair.publicKeyPem,
            // Encrypted at rest with the operator's key-encryption key.
            private_key_pem: secrets.sealText(pair.privateKeyPem, kind.context(scope.platformId, scope.environment)),
            created_at: clock.now().toISOString(),
          })
          .onConflict((oc) => oc.columns(['platform_id', 'environment']).doNothing())
          .execute(),
      );
      row = await read();
      if (!row) throw new Error('webhook key vanished after insert');
    }
    const key = {
      publicKeyPem: row.public_key_pem,
      signer: kind.signer(secrets.openText(row.private_key_pem, kind.context(scope.platformId, scope.environment))),
    };
    // Remembered once the row is committed: a pair made in a transaction that rolls back was
    // never stored, and signing with it would sign with a key no one can fetch.
    db.afterCommit(() => {
      if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
      cache.set(id, key);
    });
    return key;
  }

  return {
    /** The public key (PEM) receivers verify with; creates the pair on first use. */
    async publicKeyPem(scope: Scope): Promise<string> {
      return (await load(ED25519, scope)).publicKeyPem;
    },
    /** Signs attempts for this scope; creates the pair on first use. */
    async signer(scope: Scope): Promise<WebhookSigner> {
      return (await load(ED25519, scope)).signer;
    },
    /** The P-256 public key (PEM) that verifies X-Grid-Signature; creates the pair on first use. */
    async gridPublicKeyPem(scope: Scope): Promise<string> {
      return (await load(P256, scope)).publicKeyPem;
    },
    /** Signs GRID-format attempts for this scope; creates the pair on first use. */
    async gridSigner(scope: Scope): Promise<GridSigner> {
      return (await load(P256, scope)).signer;
    },
  };
}

export type WebhookKeys = ReturnType<typeof createWebhookKeys>;

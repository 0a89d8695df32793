/**
 * Webhook signing keys: one Ed25519 pair per (platform, environment), generated on first use
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
import { generateSigningKeyPair, WebhookSigner } from './signing.js';

interface StoredKey {
  publicKeyPem: string;
  signer: WebhookSigner;
}

// Keys never change once made, so a bounded in-memory cache is always right.
const CACHE_MAX_ENTRIES = 1_000;

/** What a stored private key is sealed to: its own row (src/secrets/envelope.ts). */
export const webhookKeyContext = (platformId: string, environment: string) => `webhook_keys|${platformId}|${environment}`;

export function createWebhookKeys(deps: { db: Database; clock: Clock; secrets: Sealer }) {
  const { db, clock, secrets } = deps;
  const cache = new Map<string, StoredKey>();

  async function load(scope: Scope): Promise<StoredKey> {
    const id = `${scope.platformId}|${scope.environment}`;
    const hit = cache.get(id);
    if (hit) return hit;
    const read = () =>
      db
        .executor()
        .selectFrom('webhook_keys')
        .select(['public_key_pem', 'private_key_pem'])
        .where('platform_id', '=', scope.platformId)
        .where('environment', '=', scope.environment)
        .executeTakeFirst();
    let row = await read();
    if (!row) {
      const pair = generateSigningKeyPair();
      // Two nodes may generate at once: the first insert wins and both read the winner back.
      await db.tx((trx) =>
        trx
          .insertInto('webhook_keys')
          .values({
            platform_id: scope.platformId,
            environment: scope.environment,
            public_key_pem: pair.publicKeyPem,
            // Encrypted at rest with the operator's key-encryption key.
            private_key_pem: secrets.sealText(pair.privateKeyPem, webhookKeyContext(scope.platformId, scope.environment)),
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
      signer: new WebhookSigner(secrets.openText(row.private_key_pem, webhookKeyContext(scope.platformId, scope.environment))),
    };
    if (cache.size >= CACHE_MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(id, key);
    return key;
  }

  return {
    /** The public key (PEM) receivers verify with; creates the pair on first use. */
    async publicKeyPem(scope: Scope): Promise<string> {
      return (await load(scope)).publicKeyPem;
    },
    /** Signs attempts for this scope; creates the pair on first use. */
    async signer(scope: Scope): Promise<WebhookSigner> {
      return (await load(scope)).signer;
    },
  };
}

export type WebhookKeys = ReturnType<typeof createWebhookKeys>;

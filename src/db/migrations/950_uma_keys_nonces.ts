import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * UMA on the wire (src/modules/uma): each platform's protocol keys and the nonces seen from
 * counterparties.
 *
 * uma_keys: per (platform, environment) a signing, an encryption and a Lightning node key
 * (secp256k1), in generations: rotation adds generation n+1, and older generations stay to open
 * what counterparties encrypted to a key they had cached. The private key is sealed under the KEK.
 * No foreign key to platforms (see migration 900).
 *
 * uma_nonces: (counterparty domain, nonce) seen in a signed message, with the message's own
 * timestamp; a message whose nonce is here is a replay. Rows older than the timestamp window can
 * go, since such a message is refused for its age anyway.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uma_keys')
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('generation', 'integer', (c) => c.notNull())
    .addColumn('public_key_hex', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('certificate_pem', 'text')
    .addColumn('not_after', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('uma_keys_pk', ['platform_id', 'environment', 'purpose', 'generation'])
    .execute();

  await db.schema
    .createTable('uma_nonces')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('uma_nonces_pk', ['domain', 'nonce'])
    .execute();
  await db.schema.createIndex('uma_nonces_signed_at').on('uma_nonces').column('signed_at').execute();
}

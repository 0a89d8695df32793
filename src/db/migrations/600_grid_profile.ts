import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The vendor profile of a platform (PATCH /config `compatibility`): the names its answers and
 * webhooks use, the P-256 key that signs its vendor-format webhooks, and the format each
 * delivery was made in, so every attempt of one delivery sends the same shape.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('platform_configs')
    .addColumn('compatibility', 'text', (c) => c.notNull().defaultTo('CORRIDOR'))
    .execute();

  // One P-256 pair per (platform, environment), made on first use; the private half sealed as webhook_keys'.
  await db.schema
    .createTable('webhook_p256_keys')
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_pem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_p256_keys_pk', ['platform_id', 'environment'])
    .execute();

  // CORRIDOR or GRID, fixed when the delivery is made; null (older rows): CORRIDOR.
  await db.schema.alterTable('webhook_deliveries').addColumn('format', 'text').execute();
}

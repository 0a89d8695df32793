import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Webhooks (outbox, deliveries, attempts, signing keys) and the platform settings of GET/PATCH /config.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  // One column per statement: SQLite cannot add several in one ALTER TABLE.
  await db.schema.alterTable('platform_configs').addColumn('webhook_endpoint', 'text').execute();
  await db.schema.alterTable('platform_configs').addColumn('currency_settings', 'text').execute();

  // One Ed25519 pair per (platform, environment), made on first use (D7).
  await db.schema
    .createTable('webhook_keys')
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_pem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_keys_pk', ['platform_id', 'environment'])
    .execute();

  // The outbox: one row per event, its body serialised once so every attempt sends the same bytes.
  await db.schema
    .createTable('webhook_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_events_scope').on('webhook_events').columns(['platform_id', 'environment', 'id']).execute();

  // One delivery per sending of an event (the first, then one per resend), each with its own retry schedule.
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull().references('webhook_events.id'))
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempt_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('resend_of', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_scope').on('webhook_deliveries').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_subject').on('webhook_deliveries').columns(['platform_id', 'environment', 'subject', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_status').on('webhook_deliveries').columns(['platform_id', 'environment', 'status', 'id']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('attempt_number', 'integer', (c) => c.notNull())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('response_body', 'text')
    .addPrimaryKeyConstraint('webhook_attempts_pk', ['platform_id', 'delivery_id', 'attempt_number'])
    .execute();
}

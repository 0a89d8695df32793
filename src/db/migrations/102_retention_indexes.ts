import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Indexes the retention sweeper (src/retention) walks: old finished rows are found without a scan,
// and removing a delivery or an event checks its children by index (the foreign keys' lookups).
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_updated').on('webhook_deliveries').columns(['updated_at', 'id']).execute();
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').column('event_id').execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt_number']).execute();
  await db.schema.createIndex('webhook_events_created').on('webhook_events').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('receiver_lookups_expiry').on('receiver_lookups').columns(['expires_at', 'id']).execute();
}

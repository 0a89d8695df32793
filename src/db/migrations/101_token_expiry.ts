import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Optional token expiry, and dashboard users an operator can disable.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('tokens').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('dashboard_users').addColumn('disabled_at', 'text').execute();
}

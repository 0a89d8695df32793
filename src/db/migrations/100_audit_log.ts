import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// The audit log: who did what, to what, when and from where (operator CLI actions, dashboard writes).
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // OPERATOR (the CLI, acting for the whole service) or USER (a dashboard user)
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text')
    // the client address of a dashboard request; `cli@<host>` for an operator command
    .addColumn('source', 'text')
    // null for service-wide operator actions (backups, migrations)
    .addColumn('platform_id', 'text')
    .addColumn('environment', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'bigint')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_platform').on('audit_log').columns(['platform_id', 'id']).execute();
}

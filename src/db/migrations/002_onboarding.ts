import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Business onboarding: beneficial owners and documents. Document bytes live in the database
// (blob / bytea) so one backup of the database holds everything.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('beneficial_owners')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('roles', 'text', (c) => c.notNull())
    .addColumn('ownership_percentage', 'bigint', (c) => c.notNull())
    .addColumn('personal_info', 'text', (c) => c.notNull())
    .addColumn('kyc_status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('beneficial_owners_scope').on('beneficial_owners').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('beneficial_owners_customer').on('beneficial_owners').columns(['platform_id', 'environment', 'customer_id', 'id']).execute();

  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('document_holder', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('document_type', 'text', (c) => c.notNull())
    .addColumn('country', 'text')
    .addColumn('side', 'text')
    .addColumn('document_number', 'text')
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_scope').on('documents').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('documents_holder').on('documents').columns(['platform_id', 'environment', 'document_holder', 'id']).execute();
}

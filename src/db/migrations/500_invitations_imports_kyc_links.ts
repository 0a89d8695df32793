import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * UMA invitations, bulk customer imports (a job and its rows) and sandbox KYC links. Every row
 * belongs to one platform and environment; an invitation's code and a KYC link's token hash are
 * random secrets, unique on their own so they can be found from the link.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uma_invitations')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('inviter_customer_id', 'text', (c) => c.notNull())
    .addColumn('inviter_uma', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('amount_to_send', 'bigint')
    .addColumn('amount_currency', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invitee_uma', 'text')
    .addColumn('invitee_platform_id', 'text')
    .addColumn('invitee_customer_id', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('claimed_at', 'text')
    .addColumn('cancelled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('uma_invitations_scope').on('uma_invitations').columns(['platform_id', 'environment', 'created_at']).execute();

  await db.schema
    .createTable('customer_imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text')
    .addColumn('file_sha256', 'text', (c) => c.notNull())
    .addColumn('total_rows', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('customer_imports_scope').on('customer_imports').columns(['platform_id', 'environment', 'id']).execute();

  await db.schema
    .createTable('customer_import_rows')
    .addColumn('import_id', 'text', (c) => c.notNull().references('customer_imports.id'))
    .addColumn('row_number', 'bigint', (c) => c.notNull())
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('input', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('customer_import_rows_pk', ['import_id', 'row_number'])
    .execute();

  await db.schema
    .createTable('kyc_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('decision', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('kyc_links_customer').on('kyc_links').columns(['platform_id', 'environment', 'customer_id']).execute();
}

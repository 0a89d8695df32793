import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The double-entry ledger (ledger_accounts, ledger_journals, ledger_transfers) and the accounts
 * built on it: internal accounts (balances held for a customer or the platform) and external
 * accounts (where money comes from and goes to). Money columns are 64-bit integers.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('system_code', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('non_negative', 'integer', (c) => c.notNull())
    .addColumn('debits_pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('debits_posted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_pending', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credits_posted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // One system account per purpose, currency and scope; internal accounts have no system_code
  // (NULLs are distinct in a unique index on both dialects).
  await db.schema
    .createIndex('ledger_accounts_system')
    .unique()
    .on('ledger_accounts')
    .columns(['platform_id', 'environment', 'system_code', 'currency'])
    .execute();

  await db.schema
    .createTable('ledger_journals')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_journals_business').on('ledger_journals').columns(['platform_id', 'environment', 'business_id']).execute();

  await db.schema
    .createTable('ledger_transfers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('journal_id', 'text', (c) => c.notNull().references('ledger_journals.id'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('pending_id', 'text', (c) => c.references('ledger_transfers.id'))
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('business_id', 'text', (c) => c.notNull())
    .addColumn('debit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('credit_account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // A pending transfer resolves (post or void) once: the second resolution hits this index, even
  // when two nodes race.
  await db.schema.createIndex('ledger_transfers_resolution').unique().on('ledger_transfers').column('pending_id').execute();
  await db.schema.createIndex('ledger_transfers_journal').on('ledger_transfers').column('journal_id').execute();
  await db.schema.createIndex('ledger_transfers_debit').on('ledger_transfers').column('debit_account_id').execute();
  await db.schema.createIndex('ledger_transfers_credit').on('ledger_transfers').column('credit_account_id').execute();
  await db.schema.createIndex('ledger_transfers_business').on('ledger_transfers').columns(['platform_id', 'environment', 'business_id']).execute();

  await db.schema
    .createTable('internal_accounts')
    // The same id as its ledger account, so the ledger is called with the API's id.
    .addColumn('id', 'text', (c) => c.primaryKey().references('ledger_accounts.id'))
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('owner_key', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('funding_reference', 'text', (c) => c.notNull())
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('internal_accounts_scope').on('internal_accounts').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema
    .createIndex('internal_accounts_owner')
    .unique()
    .on('internal_accounts')
    .columns(['platform_id', 'environment', 'owner_key', 'currency'])
    .execute();
  await db.schema
    .createIndex('internal_accounts_reference')
    .unique()
    .on('internal_accounts')
    .columns(['platform_id', 'environment', 'funding_reference'])
    .execute();

  await db.schema
    .createTable('external_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('account_info', 'text', (c) => c.notNull())
    .addColumn('primary_identifier', 'text', (c) => c.notNull())
    .addColumn('crypto_network', 'text')
    .addColumn('platform_account_id', 'text')
    .addColumn('default_uma_deposit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('verification_status', 'text', (c) => c.notNull())
    .addColumn('verified_data', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('external_accounts_scope').on('external_accounts').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('external_accounts_customer').on('external_accounts').columns(['platform_id', 'environment', 'customer_id', 'id']).execute();
  // At most one default UMA deposit account per customer, even under concurrent writes.
  await db.schema
    .createIndex('external_accounts_default_uma')
    .unique()
    .on('external_accounts')
    .columns(['platform_id', 'environment', 'customer_id'])
    .where(sql<boolean>`default_uma_deposit = 1`)
    .execute();
}

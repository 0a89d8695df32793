import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Incoming payments and UMA: the receiving platform's settings (payer data it requires, whether
 * incoming payments wait for its approval), receiver lookups, and what an INCOMING transaction
 * created by a UMA payment needs beyond the transactions row (its approval state, the sender's
 * transaction when the sender is hosted here, the payout leg to a default UMA deposit account).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  // JSON ["FULL_NAME", ...]; null: none required.
  await db.schema.alterTable('platform_configs').addColumn('required_payer_data_fields', 'text').execute();
  // JSON {required, requestedReceiverCustomerInfoFields, windowSeconds}; null: the defaults.
  await db.schema.alterTable('platform_configs').addColumn('incoming_payment_approval', 'text').execute();

  await db.schema
    .createTable('receiver_lookups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('uma_address', 'text')
    .addColumn('external_account_id', 'text')
    // The receiver when hosted here (possibly another platform); never shown to the caller.
    .addColumn('receiver_platform_id', 'text')
    .addColumn('receiver_customer_id', 'text')
    .addColumn('sending_currency', 'text', (c) => c.notNull())
    .addColumn('supported_currencies', 'text', (c) => c.notNull())
    .addColumn('required_payer_data_fields', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('receiver_lookups_scope').on('receiver_lookups').columns(['platform_id', 'environment', 'id']).execute();

  await db.schema
    .createTable('incoming_payments')
    // The receiver's INCOMING transaction (same id), in the receiver's scope.
    .addColumn('transaction_id', 'text', (c) => c.primaryKey().references('transactions.id'))
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('receiver_uma_address', 'text', (c) => c.notNull())
    .addColumn('sender_uma_address', 'text')
    .addColumn('sender_platform_id', 'text')
    .addColumn('sender_transaction_id', 'text')
    .addColumn('approval_required', 'bigint', (c) => c.notNull())
    .addColumn('requested_fields', 'text', (c) => c.notNull())
    .addColumn('approval_deadline', 'text')
    .addColumn('approval_delivery_id', 'text')
    .addColumn('receiver_customer_info', 'text')
    .addColumn('rejection_reason', 'text')
    .addColumn('deposit_account_id', 'text')
    .addColumn('deposit_transaction_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incoming_payments_scope').on('incoming_payments').columns(['platform_id', 'environment', 'transaction_id']).execute();
  await db.schema
    .createIndex('incoming_payments_sender')
    .on('incoming_payments')
    .columns(['sender_platform_id', 'environment', 'sender_transaction_id'])
    .execute();
}

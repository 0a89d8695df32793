import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Payments: quotes, the transactions they (and transfers) create, and each transaction's status
 * history. Money columns are 64-bit integers; the balances themselves live in the ledger.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('funding', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('quote_id', 'text')
    .addColumn('customer_id', 'text')
    .addColumn('platform_customer_id', 'text')
    .addColumn('internal_account_id', 'text')
    .addColumn('external_account_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('sending_currency', 'text', (c) => c.notNull())
    .addColumn('sent_amount', 'bigint', (c) => c.notNull())
    .addColumn('receiving_currency', 'text', (c) => c.notNull())
    .addColumn('received_amount', 'bigint', (c) => c.notNull())
    .addColumn('converted_amount', 'bigint', (c) => c.notNull())
    .addColumn('fees', 'bigint', (c) => c.notNull())
    .addColumn('counterparty_fee', 'bigint', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('rate_details', 'text')
    .addColumn('description', 'text')
    .addColumn('counterparty_information', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('payment_instructions', 'text', (c) => c.notNull())
    .addColumn('failure_reason', 'text')
    .addColumn('refund', 'text')
    .addColumn('pending_transfer_ids', 'text')
    .addColumn('settled_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transactions_scope').on('transactions').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('transactions_customer').on('transactions').columns(['platform_id', 'environment', 'customer_id', 'id']).execute();
  // The reference matches a JIT payment (or a bank memo) to its transaction, so it is unique.
  await db.schema.createIndex('transactions_reference').unique().on('transactions').columns(['platform_id', 'environment', 'reference']).execute();

  await db.schema
    .createTable('quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('transactions.id'))
    .addColumn('customer_id', 'text')
    .addColumn('funding', 'text', (c) => c.notNull())
    .addColumn('locked_side', 'text', (c) => c.notNull())
    .addColumn('locked_amount', 'bigint', (c) => c.notNull())
    .addColumn('purpose_of_payment', 'text')
    .addColumn('sender_customer_info', 'text')
    .addColumn('lookup_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('quotes_scope').on('quotes').columns(['platform_id', 'environment', 'id']).execute();
  await db.schema.createIndex('quotes_customer').on('quotes').columns(['platform_id', 'environment', 'customer_id', 'id']).execute();

  // Rule 2: every status change with its time and cause.
  await db.schema
    .createTable('transaction_history')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('transactions.id'))
    .addColumn('from_status', 'text')
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('cause', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('transaction_history_tx').on('transaction_history').columns(['platform_id', 'environment', 'transaction_id', 'id']).execute();
}

import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Invoices a platform issued in answer to UMA pay requests (src/modules/uma/pay-requests.ts): what
 * the sender agreed to pay, for which customer and currency, and the preimage (sealed under the
 * KEK) revealed when the invoice is settled. Settling moves OPEN to SETTLED exactly once, in the
 * transaction that opens the INCOMING payment: a repeated settlement finds it SETTLED and credits
 * nothing. No foreign key to platforms (see migration 900).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uma_invoices')
    .addColumn('payment_hash', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull())
    .addColumn('receiver_address', 'text', (c) => c.notNull())
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('sender_domain', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_msats', 'bigint', (c) => c.notNull())
    .addColumn('fee_msats', 'bigint', (c) => c.notNull())
    .addColumn('multiplier', 'text', (c) => c.notNull())
    .addColumn('counterparty_information', 'text', (c) => c.notNull())
    .addColumn('bolt11', 'text', (c) => c.notNull())
    .addColumn('preimage', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  await db.schema.createIndex('uma_invoices_scope').on('uma_invoices').columns(['platform_id', 'environment', 'created_at']).execute();
}

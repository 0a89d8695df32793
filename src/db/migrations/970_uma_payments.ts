import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Payments this Corridor sends to other UMA providers (src/modules/uma/paying.ts): the invoice the
 * receiver issued for a quote, what it agreed to (amount, multiplier, fee), where the
 * post-transaction callback goes, and the settlement's progress QUOTED → SETTLING → SETTLED or
 * FAILED. The preimage is the receiver's proof of payment, kept once it checked against the hash.
 * One row per OUTGOING transaction; no foreign key to platforms (see migration 900).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uma_payments')
    .addColumn('transaction_id', 'text', (c) => c.primaryKey())
    .addColumn('quote_id', 'text', (c) => c.notNull())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('sender_address', 'text', (c) => c.notNull())
    .addColumn('receiver_address', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_msats', 'bigint', (c) => c.notNull())
    .addColumn('fee_msats', 'bigint', (c) => c.notNull())
    .addColumn('multiplier', 'text', (c) => c.notNull())
    .addColumn('bolt11', 'text', (c) => c.notNull())
    .addColumn('payment_hash', 'text', (c) => c.notNull())
    .addColumn('post_tx_url', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('preimage', 'text')
    .addColumn('last_answer', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .addColumn('post_tx_at', 'text')
    .execute();
  await db.schema.createIndex('uma_payments_scope').on('uma_payments').columns(['platform_id', 'environment', 'created_at']).execute();
}

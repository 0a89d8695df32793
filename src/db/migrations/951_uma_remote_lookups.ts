import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * A receiver lookup of an address hosted by another UMA provider keeps what its verified LNURLP
 * answer said (src/modules/uma/sending.ts): where to send the pay request, the protocol version
 * agreed, each currency's multiplier, decimals and limits, and the payer data asked for. A quote
 * against the lookup sends its pay request from these, never from anything the sender could alter.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('uma_remote_lookups')
    .addColumn('lookup_id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('callback', 'text', (c) => c.notNull())
    .addColumn('uma_version', 'text', (c) => c.notNull())
    .addColumn('currencies', 'text', (c) => c.notNull())
    .addColumn('payer_data', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * The paying customer a receiver lookup names (customerId / senderUmaAddress): its stored facts
 * supply payer data a quote against the lookup leaves out. Null for lookups without one.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('receiver_lookups').addColumn('payer_customer_id', 'text').execute();
}

import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * More maintained counts (db/counters.ts): transactions in all, and live customers per
 * customerType. Existing rows are counted once here, into slot 0.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`insert into list_counts (platform_id, environment, list, slot, n)
    select platform_id, environment, 'transactions', 0, count(*) from transactions group by platform_id, environment`.execute(db);
  await sql`insert into list_counts (platform_id, environment, list, slot, n)
    select platform_id, environment, 'customers|customerType=' || customer_type, 0, count(*) from customers where is_deleted = 0 group by platform_id, environment, customer_type`.execute(
    db,
  );
}

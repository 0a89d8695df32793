import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { IncomingPaymentsTable } from '../../db/schema.js';

export type IncomingRow = IncomingPaymentsTable;

export const incomingRepository = {
  insert(db: Executor, row: IncomingRow) {
    return db.insertInto('incoming_payments').values(row).execute();
  },

  find(db: Executor, scope: Scope, transactionId: string) {
    return db
      .selectFrom('incoming_payments')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  },

  update(db: Executor, transactionId: string, changes: Partial<IncomingRow>) {
    return db.updateTable('incoming_payments').set(changes).where('transaction_id', '=', transactionId).execute();
  },

  /**
   * The sender's transaction if it is still PROCESSING, locked until the caller's transaction
   * ends: a guarded UPDATE that changes nothing. On PostgreSQL it waits for a concurrent writer
   * of the row (an operator's `payout settle|fail`) and sees its outcome; afterwards no one can
   * change the row before commit. SQLite runs writes one at a time anyway.
   */
  lockInFlight(db: Executor, scope: Scope, transactionId: string) {
    return db
      .updateTable('transactions')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', transactionId)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('status', '=', 'PROCESSING')
      .returningAll()
      .executeTakeFirst();
  },

  /** The active internal account of a customer in a currency: where an incoming payment lands. */
  receivingAccount(db: Executor, scope: Scope, customerId: string, currency: string) {
    return db
      .selectFrom('internal_accounts')
      .select(['id'])
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('customer_id', '=', customerId)
      .where('currency', '=', currency)
      .where('is_active', '=', 1)
      .executeTakeFirst();
  },

  /** The customer's ACTIVE default UMA deposit account, if any. */
  defaultDepositAccount(db: Executor, scope: Scope, customerId: string) {
    return db
      .selectFrom('external_accounts')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('customer_id', '=', customerId)
      .where('default_uma_deposit', '=', 1)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
  },

  /** Whether the event of this delivery reached the platform (by this delivery or a resend of it). */
  async delivered(db: Executor, deliveryId: string): Promise<boolean> {
    const delivery = await db.selectFrom('webhook_deliveries').select('event_id').where('id', '=', deliveryId).executeTakeFirst();
    if (!delivery) return false;
    const hit = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', '=', delivery.event_id)
      .where('status', '=', 'DELIVERED')
      .executeTakeFirst();
    return hit !== undefined;
  },
};

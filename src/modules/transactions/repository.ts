import type { Environment, Scope } from '../../common/scope.js';
import { bumpCount } from '../../db/counters.js';
import type { Executor } from '../../db/database.js';
import type { TransactionsTable } from '../../db/schema.js';

export type TransactionRow = TransactionsTable;

export interface TransactionFilters {
  customerId?: string;
  platformCustomerId?: string;
  status?: string;
  type?: string;
  createdAfter?: string;
  createdBefore?: string;
  reference?: string;
}

export const transactionRepository = {
  /** The one way a transaction is stored: its list's maintained count moves in the same transaction. */
  async insert(db: Executor, row: TransactionRow) {
    await db.insertInto('transactions').values(row).execute();
    await bumpCount(db, { platformId: row.platform_id, environment: row.environment as Environment }, 'transactions', 1);
  },

  find(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('transactions')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  },

  findByReference(db: Executor, scope: Scope, reference: string) {
    return db
      .selectFrom('transactions')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('reference', '=', reference)
      .executeTakeFirst();
  },

  /** An operator's look-up (CLI): by id alone, any scope. */
  findAnyScope(db: Executor, id: string) {
    return db.selectFrom('transactions').selectAll().where('id', '=', id).executeTakeFirst();
  },

  filtered(db: Executor, scope: Scope, f: TransactionFilters) {
    let q = db.selectFrom('transactions').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment);
    if (f.customerId) q = q.where('customer_id', '=', f.customerId);
    if (f.platformCustomerId !== undefined) q = q.where('platform_customer_id', '=', f.platformCustomerId);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.type) q = q.where('type', '=', f.type);
    if (f.createdAfter) q = q.where('created_at', '>=', f.createdAfter);
    if (f.createdBefore) q = q.where('created_at', '<=', f.createdBefore);
    if (f.reference !== undefined) q = q.where('reference', '=', f.reference);
    return q;
  },

  history(db: Executor, scope: Scope, transactionId: string) {
    return db
      .selectFrom('transaction_history')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('transaction_id', '=', transactionId)
      .orderBy('id')
      .execute();
  },
};

import type { Environment, Scope } from '../../common/scope.js';
import { bumpCounts } from '../../db/counters.js';
import type { Database, Executor } from '../../db/database.js';
import { columnsOf, rowInsert } from '../../db/statements.js';
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

const insertTransaction = rowInsert<TransactionRow, 'append'>(
  'transactions',
  columnsOf<TransactionRow>({
    id: true,
    platform_id: true,
    environment: true,
    type: true,
    kind: true,
    funding: true,
    status: true,
    quote_id: true,
    customer_id: true,
    platform_customer_id: true,
    internal_account_id: true,
    external_account_id: true,
    source: true,
    destination: true,
    sending_currency: true,
    sent_amount: true,
    receiving_currency: true,
    received_amount: true,
    converted_amount: true,
    fees: true,
    counterparty_fee: true,
    exchange_rate: true,
    rate_details: true,
    description: true,
    counterparty_information: true,
    reference: true,
    payment_instructions: true,
    failure_reason: true,
    failure_detail: true,
    refund: true,
    pending_transfer_ids: true,
    settled_at: true,
    created_at: true,
    updated_at: true,
  }),
  // Its reference is 50 random bits: no conflict for a caller to answer.
  'append',
);

export const transactionRepository = {
  /** The one way a transaction is stored (in the open transaction): its list's maintained count moves with it. */
  async insert(db: Database, row: TransactionRow) {
    await insertTransaction(db, row);
    await bumpCounts(db, { platformId: row.platform_id, environment: row.environment as Environment }, ['transactions'], 1);
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

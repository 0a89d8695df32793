import type { Scope } from '../../common/scope.js';
import { columnsOf, rowInsert } from '../../db/statements.js';
import type { Executor } from '../../db/database.js';
import type { QuotesTable } from '../../db/schema.js';
import type { TransactionRow } from '../transactions/repository.js';

export type QuoteRow = QuotesTable;

/** A quote with its transaction, which holds its amounts and status. */
export interface QuoteWithTransaction {
  id: string;
  quote: QuoteRow;
  tx: TransactionRow;
}

export interface QuoteFilters {
  customerId?: string;
  /** transaction statuses the quote status stands for */
  statuses?: string[];
  createdAfter?: string;
  createdBefore?: string;
  sendingAccountId?: string;
  receivingAccountId?: string;
  sendingUmaAddress?: string;
  receivingUmaAddress?: string;
}

export const quoteRepository = {
  insert: rowInsert<QuoteRow, 'append'>(
    'quotes',
    columnsOf<QuoteRow>({
      id: true,
      platform_id: true,
      environment: true,
      transaction_id: true,
      customer_id: true,
      funding: true,
      locked_side: true,
      locked_amount: true,
      purpose_of_payment: true,
      sender_customer_info: true,
      lookup_id: true,
      expires_at: true,
      created_at: true,
    }),
    'append',
  ),

  async find(db: Executor, scope: Scope, id: string): Promise<QuoteWithTransaction | undefined> {
    const quote = await db
      .selectFrom('quotes')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    if (!quote) return undefined;
    const tx = await db.selectFrom('transactions').selectAll().where('id', '=', quote.transaction_id).executeTakeFirstOrThrow();
    return { id: quote.id, quote, tx };
  },

  filtered(db: Executor, scope: Scope, f: QuoteFilters) {
    let q = db
      .selectFrom('quotes as q')
      .innerJoin('transactions as t', 't.id', 'q.transaction_id')
      .where('q.platform_id', '=', scope.platformId)
      .where('q.environment', '=', scope.environment);
    if (f.customerId) q = q.where('q.customer_id', '=', f.customerId);
    if (f.statuses) q = q.where('t.status', 'in', f.statuses);
    if (f.createdAfter) q = q.where('q.created_at', '>=', f.createdAfter);
    if (f.createdBefore) q = q.where('q.created_at', '<=', f.createdBefore);
    if (f.receivingAccountId) q = q.where('t.external_account_id', '=', f.receivingAccountId);
    const sending = f.sendingAccountId;
    if (sending?.startsWith('InternalAccount:')) q = q.where('t.internal_account_id', '=', sending).where('t.funding', '=', 'INTERNAL');
    // A pulled external account is named only in the Source JSON; the id pattern (hex, '-', ':')
    // has no LIKE wildcard.
    else if (sending) q = q.where('t.funding', '=', 'PULL').where('t.source', 'like', `%"accountId":"${sending}"%`);
    // The paying customer by its UMA address; the address paid by the lookup every UMA quote names.
    const payer = f.sendingUmaAddress?.toLowerCase();
    if (payer !== undefined)
      q = q.where('q.customer_id', 'in', (eb) =>
        eb
          .selectFrom('customers')
          .select('id')
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .where('uma_address', '=', payer),
      );
    const paid = f.receivingUmaAddress?.toLowerCase();
    if (paid !== undefined)
      q = q.where('q.lookup_id', 'in', (eb) =>
        eb
          .selectFrom('receiver_lookups')
          .select('id')
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .where('kind', '=', 'UMA')
          .where('uma_address', '=', paid),
      );
    return q;
  },

  /** The transactions of a page of quotes, by id. */
  async transactionsOf(db: Executor, quotes: QuoteRow[]): Promise<Map<string, TransactionRow>> {
    if (quotes.length === 0) return new Map();
    const rows = await db
      .selectFrom('transactions')
      .selectAll()
      .where(
        'id',
        'in',
        quotes.map((q) => q.transaction_id),
      )
      .execute();
    return new Map(rows.map((r) => [r.id, r]));
  },
};

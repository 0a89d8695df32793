import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { countKeyFor, readCount } from '../../db/counters.js';
import { toNumber } from '../../db/values.js';
import { transactionErrors } from './errors.js';
import { transactionRepository as repo, type TransactionFilters } from './repository.js';
import { transactionView } from './view.js';

export function createTransactionService(deps: { db: Database; cursors: Cursors }) {
  const { db } = deps;
  return {
    async get(scope: Scope, id: string) {
      const row = await repo.find(db.executor(), scope, id);
      if (!row) throw transactionErrors.TRANSACTION_NOT_FOUND({ transactionId: id });
      return transactionView(row);
    },

    /** The status changes of a transaction, oldest first (time, from, to, cause). */
    async history(scope: Scope, id: string) {
      const rows = await repo.history(db.executor(), scope, id);
      return rows.map((r) => ({ from: r.from_status, to: r.to_status, cause: r.cause, at: r.created_at }));
    },

    /** Newest first, or oldest first with sortOrder 'asc' (the cursor is tied to the order). */
    list(scope: Scope, filters: TransactionFilters, page: PageRequest, sortOrder: 'asc' | 'desc' = 'desc') {
      const ex = db.executor();
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `transactions|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}${sortOrder === 'asc' ? '|asc' : ''}`,
        fetch: (after, n) => {
          let q = repo.filtered(ex, scope, filters).selectAll();
          if (after) q = q.where('id', sortOrder === 'asc' ? '>' : '<', after);
          return q.orderBy('id', sortOrder).limit(n).execute();
        },
        // Without filters a maintained count answers (docs/decisions.md, "Scale").
        count: async () => {
          const key = countKeyFor('transactions', filters);
          return key
            ? readCount(db, scope, key)
            : toNumber(
                (
                  await repo
                    .filtered(ex, scope, filters)
                    .select((eb) => eb.fn.countAll().as('n'))
                    .executeTakeFirstOrThrow()
                ).n as bigint,
              );
        },
        view: transactionView,
      });
    },
  };
}

export type TransactionService = ReturnType<typeof createTransactionService>;

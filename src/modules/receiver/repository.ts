import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { ReceiverLookupsTable } from '../../db/schema.js';

export type LookupRow = ReceiverLookupsTable;

export interface StoredCurrency {
  code: string;
  minAmount: number | null;
  maxAmount: number | null;
}

export const lookupRepository = {
  insert(db: Executor, row: LookupRow) {
    return db.insertInto('receiver_lookups').values(row).execute();
  },

  find(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('receiver_lookups')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  },
};

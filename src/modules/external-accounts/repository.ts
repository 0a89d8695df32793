import type { Database, Executor } from '../../db/database.js';
import { statement } from '../../db/statements.js';
import type { ExternalAccountsTable } from '../../db/schema.js';
import { inScope, type Scope } from '../../common/scope.js';
import { ownerColumns, ownerJoin, type OwnerColumns } from '../customers/repository.js';

export type ExternalAccountRow = ExternalAccountsTable;

export interface ExternalAccountFilters {
  /** true: customers' accounts; false: the platform's */
  ofCustomers: boolean;
  currency?: string;
  customerId?: string;
  status?: string;
}

const SELECT_EXTERNAL_ACCOUNT = statement('select * from external_accounts where id = ?');
const SELECT_WITH_OWNER = statement(`select ea.*, ${ownerColumns} from external_accounts ea ${ownerJoin('ea')} where ea.id = ?`);

export const externalAccountRepository = {
  insert(db: Executor, row: ExternalAccountRow) {
    return db.insertInto('external_accounts').values(row).execute();
  },

  /** By id in the scope: in the open transaction, else a read of committed data (a compiled statement). */
  async find(db: Database, scope: Scope, id: string): Promise<ExternalAccountRow | undefined> {
    const [row] = await db.query<ExternalAccountRow>(SELECT_EXTERNAL_ACCOUNT, [id]);
    return row && inScope(row, scope) ? row : undefined;
  },

  /** As find, with what a payment checks on the account's owner (customers/repository.ts, OwnerColumns): every payment reads its accounts so. */
  async findWithOwner(db: Database, scope: Scope, id: string): Promise<(ExternalAccountRow & OwnerColumns) | undefined> {
    const [row] = await db.query<ExternalAccountRow & OwnerColumns>(SELECT_WITH_OWNER, [id]);
    return row && inScope(row, scope) ? row : undefined;
  },

  update(db: Executor, id: string, changes: Partial<ExternalAccountRow>) {
    return db.updateTable('external_accounts').set(changes).where('id', '=', id).execute();
  },

  /** Clears the customer's default UMA deposit account (there is at most one). */
  clearDefault(db: Executor, scope: Scope, customerId: string, now: string) {
    return db
      .updateTable('external_accounts')
      .set({ default_uma_deposit: 0, updated_at: now })
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('customer_id', '=', customerId)
      .where('default_uma_deposit', '=', 1)
      .execute();
  },

  filtered(db: Executor, scope: Scope, f: ExternalAccountFilters) {
    let q = db.selectFrom('external_accounts').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment);
    q = f.ofCustomers ? q.where('customer_id', 'is not', null) : q.where('customer_id', 'is', null);
    if (f.customerId) q = q.where('customer_id', '=', f.customerId);
    if (f.currency) q = q.where('currency', '=', f.currency);
    if (f.status) q = q.where('status', '=', f.status);
    return q;
  },
};

import type { Database, Executor } from '../../db/database.js';
import { columnsOf, rowInsert, statement } from '../../db/statements.js';
import type { InternalAccountsTable } from '../../db/schema.js';
import { inScope, type Scope } from '../../common/scope.js';
import { ownerColumns, ownerJoin, type OwnerColumns } from '../customers/repository.js';

export type InternalAccountRow = InternalAccountsTable;

/** An internal account with the running totals of its ledger account. */
export interface InternalAccountWithBalance extends InternalAccountRow {
  debits_pending: bigint;
  debits_posted: bigint;
  credits_pending: bigint;
  credits_posted: bigint;
  ledger_updated_at: string;
}

export interface InternalAccountFilters {
  currency?: string;
  customerId?: string;
  /** true: customers' accounts; false: the platform's */
  ofCustomers: boolean;
  includeInactive?: boolean;
}

export const PLATFORM_OWNER = 'PLATFORM';

const WITH_BALANCE = 'ia.*, la.debits_pending, la.debits_posted, la.credits_pending, la.credits_posted, la.updated_at as ledger_updated_at';
const FROM = 'internal_accounts ia join ledger_accounts la on la.id = ia.id';
const SELECT_WITH_BALANCE = statement(`select ${WITH_BALANCE} from ${FROM} where ia.id = ?`);
const SELECT_WITH_OWNER = statement(`select ${WITH_BALANCE}, ${ownerColumns} from ${FROM} ${ownerJoin('ia')} where ia.id = ?`);

export const internalAccountRepository = {
  // Fresh id; a funding reference is 50 random bits: no conflict for a caller to answer.
  insert: rowInsert<InternalAccountRow, 'append'>(
    'internal_accounts',
    columnsOf<InternalAccountRow>({
      id: true,
      platform_id: true,
      environment: true,
      customer_id: true,
      owner_key: true,
      currency: true,
      funding_reference: true,
      is_active: true,
      created_at: true,
      updated_at: true,
    }),
    'append',
  ),

  withBalance(db: Executor, scope: Scope) {
    return db
      .selectFrom('internal_accounts as ia')
      .innerJoin('ledger_accounts as la', 'la.id', 'ia.id')
      .where('ia.platform_id', '=', scope.platformId)
      .where('ia.environment', '=', scope.environment);
  },

  /** By id in the scope, with its balance: in the open transaction, else a read of committed data (a compiled statement). */
  async find(db: Database, scope: Scope, id: string): Promise<InternalAccountWithBalance | undefined> {
    const [row] = await db.query<InternalAccountWithBalance>(SELECT_WITH_BALANCE, [id]);
    return row && inScope(row, scope) ? row : undefined;
  },

  /** As find, with what a payment checks on the account's owner (customers/repository.ts, OwnerColumns): every payment reads its accounts so. */
  async findWithOwner(db: Database, scope: Scope, id: string): Promise<(InternalAccountWithBalance & OwnerColumns) | undefined> {
    const [row] = await db.query<InternalAccountWithBalance & OwnerColumns>(SELECT_WITH_OWNER, [id]);
    return row && inScope(row, scope) ? row : undefined;
  },

  /** Accounts of one owner (a customer id or PLATFORM_OWNER), every currency, active or not. */
  ofOwner(db: Executor, scope: Scope, ownerKey: string) {
    return db
      .selectFrom('internal_accounts')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('owner_key', '=', ownerKey)
      .execute();
  },

  setActive(db: Executor, id: string, active: boolean, now: string) {
    return db
      .updateTable('internal_accounts')
      .set({ is_active: active ? 1 : 0, updated_at: now })
      .where('id', '=', id)
      .execute();
  },

  filtered(db: Executor, scope: Scope, f: InternalAccountFilters) {
    let q = this.withBalance(db, scope);
    q = f.ofCustomers ? q.where('ia.customer_id', 'is not', null) : q.where('ia.customer_id', 'is', null);
    if (f.customerId) q = q.where('ia.customer_id', '=', f.customerId);
    if (f.currency) q = q.where('ia.currency', '=', f.currency);
    if (!f.includeInactive) q = q.where('ia.is_active', '=', 1);
    return q;
  },
};

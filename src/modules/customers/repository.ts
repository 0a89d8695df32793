import type { Database, Executor } from '../../db/database.js';
import { columnsOf, rowInsert, statement } from '../../db/statements.js';
import type { CustomersTable } from '../../db/schema.js';
import { inScope, type Scope } from '../../common/scope.js';

export type CustomerRow = CustomersTable;

export interface CustomerFilters {
  platformCustomerId?: string;
  customerType?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  region?: string;
  currency?: string;
  umaAddress?: string;
  includeDeleted?: boolean;
}

/** Currencies are stored as `,USD,EUR,` so "has currency X" is one LIKE on both dialects. */
export function encodeCurrencies(codes: readonly string[]): string {
  return `,${codes.join(',')},`;
}

export function decodeCurrencies(text: string): string[] {
  return text.split(',').filter(Boolean);
}

/**
 * The columns a customer's view reads (view.ts). A list page reads these alone: every column read
 * is a JavaScript value made per row, and leaving out the scope the page filters on (and
 * deleted_at) makes reading a page of 21 a fifth cheaper.
 */
export const VIEW_COLUMNS = [
  'id',
  'platform_customer_id',
  'customer_type',
  'uma_address',
  'region',
  'currencies',
  'kyc_status',
  'full_name',
  'birth_date',
  'nationality',
  'address',
  'business_info',
  'is_deleted',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof CustomerRow>;
export type CustomerViewRow = Pick<CustomerRow, (typeof VIEW_COLUMNS)[number]>;

const SELECT_CUSTOMER = statement('select * from customers where id = ?');
const PAGE_OF = `select ${VIEW_COLUMNS.join(', ')} from customers where platform_id = ? and environment = ? and is_deleted = 0`;
const PAGE = statement(`${PAGE_OF} order by id desc limit ?`);
const PAGE_AFTER = statement(`${PAGE_OF} and id < ? order by id desc limit ?`);

/**
 * What a payment checks on the owner of an account it uses, read in the account's own statement
 * (one round trip, one snapshot): `ownerColumns` after the account's columns, `ownerJoin(alias)`
 * after its table. Both null for a platform's account (no owner).
 */
export interface OwnerColumns {
  owner_platform_customer_id: string | null;
  owner_is_deleted: number | bigint | null;
}
export const ownerColumns = 'oc.platform_customer_id as owner_platform_customer_id, oc.is_deleted as owner_is_deleted';
export const ownerJoin = (account: string) => `left join customers oc on oc.id = ${account}.customer_id`;

export const customerRepository = {
  insert: rowInsert<CustomerRow>(
    'customers',
    columnsOf<CustomerRow>({
      id: true,
      platform_id: true,
      environment: true,
      platform_customer_id: true,
      customer_type: true,
      uma_address: true,
      region: true,
      currencies: true,
      kyc_status: true,
      full_name: true,
      birth_date: true,
      nationality: true,
      address: true,
      business_info: true,
      is_deleted: true,
      deleted_at: true,
      created_at: true,
      updated_at: true,
    }),
  ),

  /** By id in the scope: in the open transaction, else a read of committed data (a compiled statement: every check of a customer given by id reads it). */
  async find(db: Database, scope: Scope, id: string): Promise<CustomerRow | undefined> {
    const [row] = await db.query<CustomerRow>(SELECT_CUSTOMER, [id]);
    return row && inScope(row, scope) ? row : undefined;
  },

  update(db: Executor, id: string, changes: Partial<CustomerRow>) {
    return db.updateTable('customers').set(changes).where('id', '=', id).execute();
  },

  /** The newest live customers before `after` (the unfiltered list page, the common case): compiled statements. */
  page(db: Database, scope: Scope, after: string | undefined, n: number): Promise<CustomerViewRow[]> {
    return after === undefined
      ? db.query<CustomerViewRow>(PAGE, [scope.platformId, scope.environment, n])
      : db.query<CustomerViewRow>(PAGE_AFTER, [scope.platformId, scope.environment, after, n]);
  },

  filtered(db: Executor, scope: Scope, f: CustomerFilters) {
    let q = db.selectFrom('customers').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment);
    if (!f.includeDeleted) q = q.where('is_deleted', '=', 0);
    if (f.platformCustomerId !== undefined) q = q.where('platform_customer_id', '=', f.platformCustomerId);
    if (f.customerType) q = q.where('customer_type', '=', f.customerType);
    if (f.createdAfter) q = q.where('created_at', '>=', f.createdAfter);
    if (f.createdBefore) q = q.where('created_at', '<=', f.createdBefore);
    if (f.updatedAfter) q = q.where('updated_at', '>=', f.updatedAfter);
    if (f.updatedBefore) q = q.where('updated_at', '<=', f.updatedBefore);
    if (f.region) q = q.where('region', '=', f.region);
    if (f.currency) q = q.where('currencies', 'like', `%,${f.currency},%`);
    if (f.umaAddress !== undefined) q = q.where('uma_address', '=', f.umaAddress.toLowerCase());
    return q;
  },
};

import type { Executor } from '../../db/database.js';
import type { BeneficialOwnersTable } from '../../db/schema.js';
import type { Scope } from '../../common/scope.js';
import { toNumber } from '../../db/values.js';

export type OwnerRow = BeneficialOwnersTable;

export const ownerRepository = {
  insert(db: Executor, row: OwnerRow) {
    return db.insertInto('beneficial_owners').values(row).execute();
  },

  find(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('beneficial_owners')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  },

  update(db: Executor, id: string, changes: Partial<OwnerRow>) {
    return db.updateTable('beneficial_owners').set(changes).where('id', '=', id).execute();
  },

  ofCustomer(db: Executor, scope: Scope, customerId: string) {
    return db
      .selectFrom('beneficial_owners')
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('customer_id', '=', customerId);
  },

  /** Totals over the other owners of a business: how many, and the UBO percentages summed. */
  async totals(db: Executor, scope: Scope, customerId: string, exceptId?: string) {
    let q = this.ofCustomer(db, scope, customerId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    const rows = await q.select(['roles', 'ownership_percentage']).execute();
    const uboTotal = rows.filter((r) => r.roles.includes(',UBO,')).reduce((sum, r) => sum + toNumber(r.ownership_percentage), 0);
    return { count: rows.length, uboTotal };
  },

  /**
   * Whether any verified owner of the business holds one of these roles (sandbox KYB). An owner
   * still lacking facts is UNVERIFIED and does not count until they arrive.
   */
  async anyWithRole(db: Executor, scope: Scope, customerId: string, roles: readonly string[]) {
    const row = await this.ofCustomer(db, scope, customerId)
      .select('id')
      .where('kyc_status', '=', 'APPROVED')
      .where((eb) => eb.or(roles.map((r) => eb('roles', 'like', `%,${r},%`))))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },
};

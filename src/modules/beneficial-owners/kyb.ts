import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { CustomerRow } from '../customers/repository.js';
import { ownerRepository } from './repository.js';
import { KYB_ROLES, missingPersonalInfo } from './rules.js';

/**
 * Sandbox KYB holds for a status set by hand too: a BUSINESS customer can be made APPROVED only
 * while one of its owners is a UBO or a control person (400 naming kycStatus otherwise), and in
 * any environment only once no owner lacks facts. The
 * business is locked first on PostgreSQL, so an owner PATCH taking the last such role away cannot
 * slip between the check and the write. Production statuses are the platform's to set.
 */
export async function checkKybApproval(db: Database, scope: Scope, customer: CustomerRow): Promise<void> {
  if (customer.customer_type !== 'BUSINESS') return;
  await db.lockRow('customers', { id: customer.id, platform_id: scope.platformId, environment: scope.environment });
  // In every environment: an owner created lacking facts (inline, in the vendor's shape) keeps its
  // business short of APPROVED until they arrive, as a customer's own missingFields do.
  const incomplete = await incompleteOwners(db.executor(), scope, customer.id);
  if (incomplete.length)
    throw invalidField('kycStatus', `cannot be APPROVED while beneficial owners lack facts (see their missingFields): ${incomplete.join(', ')}`);
  if (scope.environment !== 'SANDBOX') return;
  if (await ownerRepository.anyWithRole(db.executor(), scope, customer.id, KYB_ROLES)) return;
  throw invalidField('kycStatus', `can be APPROVED in the sandbox only once the business has a beneficial owner with role ${KYB_ROLES.join(' or ')}`);
}

/** The owners of a business that still lack facts (created inline in the vendor's shape), by id. */
export async function incompleteOwners(ex: Executor, scope: Scope, customerId: string): Promise<string[]> {
  const owners = await ownerRepository.ofCustomer(ex, scope, customerId).select(['id', 'personal_info']).execute();
  return owners.filter((o) => missingPersonalInfo(JSON.parse(o.personal_info)).length > 0).map((o) => o.id);
}

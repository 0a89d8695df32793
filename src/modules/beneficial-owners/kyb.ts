import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { CustomerRow } from '../customers/repository.js';
import { ownerRepository } from './repository.js';
import { KYB_ROLES } from './rules.js';

/**
 * Sandbox KYB holds for a status set by hand too: a BUSINESS customer can be made APPROVED only
 * while one of its owners is a UBO or a control person (400 naming kycStatus otherwise). The
 * business is locked first on PostgreSQL, so an owner PATCH taking the last such role away cannot
 * slip between the check and the write. Production statuses are the platform's to set.
 */
export async function checkKybApproval(db: Database, scope: Scope, customer: CustomerRow): Promise<void> {
  if (scope.environment !== 'SANDBOX' || customer.customer_type !== 'BUSINESS') return;
  await db.lockRow('customers', { id: customer.id, platform_id: scope.platformId, environment: scope.environment });
  if (await ownerRepository.anyWithRole(db.executor(), scope, customer.id, KYB_ROLES)) return;
  throw invalidField('kycStatus', `can be APPROVED in the sandbox only once the business has a beneficial owner with role ${KYB_ROLES.join(' or ')}`);
}

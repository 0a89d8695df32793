import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { CustomerRow } from '../customers/repository.js';
import { ownerRepository } from './repository.js';
import { KYB_ROLES } from './rules.js';

/**
 * Sandbox KYB holds for a status set by hand too: a BUSINESS customer can be made APPROVED only
 * while one of its owners is a UBO or a control person (400 naming kycStatus otherwise). The
 * business is locked first on PostgreSQL, so an owner PATCH taking the last such role away cannot
 * slip between the check and the write. Production statuses are the platform's to set.
 */
export async function checkKybApproval(trx: Executor, dialect: Database['dialect'], scope: Scope, customer: CustomerRow): Promise<void> {
  if (scope.environment !== 'SANDBOX' || customer.customer_type !== 'BUSINESS') return;
  if (dialect === 'postgres') {
    await trx.selectFrom('customers').select('id').where('id', '=', customer.id).where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment).forUpdate().execute();
  }
  if (await ownerRepository.anyWithRole(trx, scope, customer.id, KYB_ROLES)) return;
  throw invalidField('kycStatus', `can be APPROVED in the sandbox only once the business has a beneficial owner with role ${KYB_ROLES.join(' or ')}`);
}

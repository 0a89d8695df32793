import { absent } from '../../common/absent.js';
import type { OwnerRow } from './repository.js';
import { decodeRoles, type StoredPersonalInfo } from './rules.js';
import { toNumber } from '../../db/values.js';

/** Owner row → API BeneficialOwner. */
export function ownerView(row: OwnerRow) {
  return absent({
    id: row.id,
    customerId: row.customer_id,
    roles: decodeRoles(row.roles),
    ownershipPercentage: toNumber(row.ownership_percentage),
    personalInfo: JSON.parse(row.personal_info) as StoredPersonalInfo,
    kycStatus: row.kyc_status as 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED',
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

export type BeneficialOwner = ReturnType<typeof ownerView>;

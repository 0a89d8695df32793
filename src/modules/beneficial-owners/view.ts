import { absent } from '../../common/absent.js';
import type { OwnerRow } from './repository.js';
import { decodeRoles, missingPersonalInfo, type StoredPersonalInfo } from './rules.js';
import { toNumber } from '../../db/values.js';

/** Owner row → API BeneficialOwner. */
export function ownerView(row: OwnerRow) {
  const personalInfo = JSON.parse(row.personal_info) as StoredPersonalInfo;
  const missing = missingPersonalInfo(personalInfo);
  return absent({
    id: row.id,
    customerId: row.customer_id,
    roles: decodeRoles(row.roles),
    ownershipPercentage: toNumber(row.ownership_percentage),
    personalInfo,
    kycStatus: row.kyc_status as 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED',
    missingFields: missing.length ? missing : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

export type BeneficialOwner = ReturnType<typeof ownerView>;

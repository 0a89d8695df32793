import { absent } from '../../common/absent.js';
import type { Address } from '../../common/schemas.js';
import { fromDbBool, jsonOrNull } from '../../db/values.js';
import { decodeCurrencies, type CustomerViewRow } from './repository.js';

/**
 * What a customer still lacks before it can be verified: its name (INDIVIDUAL) or businessInfo
 * (BUSINESS). The vendor's SDK creates customers with platformCustomerId and customerType alone;
 * such a customer stays UNVERIFIED, and this list is the reason (docs/vendor-clients.md).
 */
export function missingFields(row: Pick<CustomerViewRow, 'customer_type' | 'full_name' | 'business_info'>): string[] {
  if (row.customer_type === 'INDIVIDUAL') return row.full_name ? [] : ['fullName'];
  return row.business_info ? [] : ['businessInfo'];
}

/** Customer row → API Customer; a member without a value is left out (D11). */
export function customerView(row: CustomerViewRow) {
  const businessInfo = jsonOrNull<Record<string, unknown>>(row.business_info);
  const missing = missingFields(row);
  return absent({
    id: row.id,
    platformCustomerId: row.platform_customer_id,
    customerType: row.customer_type as 'INDIVIDUAL' | 'BUSINESS',
    umaAddress: row.uma_address,
    region: row.region,
    currencies: decodeCurrencies(row.currencies),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    isDeleted: fromDbBool(row.is_deleted),
    kycStatus: row.kyc_status as 'UNVERIFIED' | 'PENDING' | 'APPROVED' | 'REJECTED',
    fullName: row.full_name,
    birthDate: row.birth_date,
    nationality: row.nationality,
    address: jsonOrNull<Address>(row.address),
    businessInfo: businessInfo as { legalName: string } | null,
    missingFields: missing.length ? missing : null,
  });
}

export type Customer = ReturnType<typeof customerView>;

import { absent } from '../../common/absent.js';
import type { Address } from '../../common/schemas.js';
import { fromDbBool, jsonOrNull } from '../../db/values.js';
import { decodeCurrencies, type CustomerViewRow } from './repository.js';

/** Customer row → API Customer; a member without a value is left out (D11). */
export function customerView(row: CustomerViewRow) {
  const businessInfo = jsonOrNull<Record<string, unknown>>(row.business_info);
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
  });
}

export type Customer = ReturnType<typeof customerView>;

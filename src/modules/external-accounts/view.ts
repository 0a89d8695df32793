import { fromDbBool, jsonOrNull } from '../../db/values.js';
import type { ExternalAccountRow } from './repository.js';
import type { EXTERNAL_ACCOUNT_STATUSES } from './schemas.js';
import type { VerificationStatus } from './verification.js';

/** External account row → API object. */
export function externalAccountView(row: ExternalAccountRow) {
  const verified = jsonOrNull<{ fullName: string }>(row.verified_data);
  return {
    id: row.id,
    status: row.status as (typeof EXTERNAL_ACCOUNT_STATUSES)[number],
    currency: row.currency,
    customerId: row.customer_id,
    platformAccountId: row.platform_account_id,
    defaultUmaDepositAccount: fromDbBool(row.default_uma_deposit),
    beneficiaryVerificationStatus: row.verification_status as VerificationStatus,
    ...(verified ? { beneficiaryVerifiedData: verified } : {}),
    ...(row.crypto_network ? { cryptoNetwork: row.crypto_network } : {}),
    accountInfo: JSON.parse(row.account_info) as { accountType: string } & Record<string, unknown>,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type ExternalAccount = ReturnType<typeof externalAccountView>;

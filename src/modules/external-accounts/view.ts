import { absent, SPEC_NULL_MEMBERS } from '../../common/absent.js';
import { fromDbBool, jsonOrNull } from '../../db/values.js';
import type { ExternalAccountRow } from './repository.js';
import type { EXTERNAL_ACCOUNT_STATUSES } from './schemas.js';
import type { VerificationStatus } from './verification.js';

/** External account row → API object: customerId null for the platform's own (the spec), nothing else null. */
export function externalAccountView(row: ExternalAccountRow) {
  const verified = jsonOrNull<{ fullName: string }>(row.verified_data);
  return absent(
    {
      id: row.id,
      status: row.status as (typeof EXTERNAL_ACCOUNT_STATUSES)[number],
      currency: row.currency,
      customerId: row.customer_id,
      platformAccountId: row.platform_account_id,
      defaultUmaDepositAccount: fromDbBool(row.default_uma_deposit),
      beneficiaryVerificationStatus: row.verification_status as VerificationStatus,
      beneficiaryVerifiedData: verified,
      cryptoNetwork: row.crypto_network || null,
      accountInfo: JSON.parse(row.account_info) as { accountType: string } & Record<string, unknown>,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    },
    SPEC_NULL_MEMBERS.ExternalAccount,
  );
}

export type ExternalAccount = ReturnType<typeof externalAccountView>;

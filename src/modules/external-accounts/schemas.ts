import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { CurrencyCode, DateTime, Text } from '../../common/schemas.js';
import { CRYPTO_NETWORKS } from '../../identifiers/crypto.js';
import { ACCOUNT_TYPE_NAMES } from './account-types.js';
import { VERIFICATION_STATUSES } from './verification.js';

export const EXTERNAL_ACCOUNT_STATUSES = ['PENDING', 'ACTIVE', 'UNDER_REVIEW', 'INACTIVE'] as const;

// The fields of each accountType are checked by the service against the type's own schema
// (account-types.ts), so a mistake is reported on its field, not as "matches no variant".
const AccountInfoInput = Type.Object(
  { accountType: Type.Enum(ACCOUNT_TYPE_NAMES, { description: 'Decides the other fields; see docs/accounts.md' }) },
  { additionalProperties: true, description: 'accountType and its fields (docs/accounts.md lists them with an example each)' },
);

const common = {
  currency: CurrencyCode,
  accountInfo: AccountInfoInput,
  platformAccountId: Type.Optional(Text(128, { description: "The platform's own id for the account (also accepted inside accountInfo)" })),
  cryptoNetwork: Type.Optional(Type.Enum(CRYPTO_NETWORKS, { description: 'Required for crypto wallets' })),
};

export const CustomerExternalAccountBody = Type.Object(
  {
    ...common,
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer'), description: 'Owner; omit to create the account for the platform' })),
    defaultUmaDepositAccount: Type.Optional(
      Type.Boolean({ default: false, description: "Deposit UMA payments to the customer here; clears the customer's previous default" }),
    ),
  },
  { additionalProperties: false },
);
export type ExternalAccountCreate = Static<typeof CustomerExternalAccountBody>;

export const PlatformExternalAccountBody = Type.Object(common, { additionalProperties: false });

export const ExternalAccountSchema = Type.Object({
  id: Type.String({ examples: ['ExternalAccount:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  status: Type.Enum(EXTERNAL_ACCOUNT_STATUSES),
  currency: Type.String(),
  customerId: Type.Union([Type.String(), Type.Null()], { description: 'null: the platform owns the account' }),
  platformAccountId: Type.Optional(Type.String()),
  defaultUmaDepositAccount: Type.Boolean(),
  beneficiaryVerificationStatus: Type.Enum(VERIFICATION_STATUSES),
  beneficiaryVerifiedData: Type.Optional(Type.Object({ fullName: Type.String() })),
  cryptoNetwork: Type.Optional(Type.String()),
  accountInfo: Type.Object(
    { accountType: Type.String() },
    { additionalProperties: true, description: 'As given, in canonical form: US_ACCOUNT and IBAN spellings, IBAN without spaces, sort code without hyphens' },
  ),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const ExternalAccountIdParams = Type.Object({
  externalAccountId: Type.String({ pattern: idPattern('ExternalAccount'), description: 'ExternalAccount:<id>' }),
});

const status = Type.Optional(Type.Enum(EXTERNAL_ACCOUNT_STATUSES));

export const CustomerExternalAccountQuery = Type.Object(
  { currency: Type.Optional(CurrencyCode), customerId: Type.Optional(Type.String({ pattern: idPattern('Customer') })), status, ...PageQuery },
  { additionalProperties: false },
);
export const PlatformExternalAccountQuery = Type.Object({ currency: Type.Optional(CurrencyCode), status, ...PageQuery }, { additionalProperties: false });

export const ExternalAccountPage = PageSchema(ExternalAccountSchema);

import { Type } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { AmountSchema, CurrencyCode, DateTime } from '../../common/schemas.js';

const Str = Type.Optional(Type.String());

/** Payment instruction (spec): shared with quotes, whose JIT funding returns the same shape. */
export const PaymentInstructionSchema = Type.Object({
  instructionsNotes: Type.Optional(Type.String({ description: 'Human text, e.g. to put the reference in the memo' })),
  isPlatformAccount: Type.Optional(Type.Boolean({ description: "true when the receiving account is the platform's own" })),
  accountOrWalletInfo: Type.Object({
    accountType: Type.String(),
    paymentRails: Type.Optional(Type.Array(Type.String())),
    accountNumber: Str,
    routingNumber: Str,
    accountCategory: Str,
    bankName: Str,
    accountHolderName: Str,
    reference: Type.Optional(Type.String({ description: 'Put this in the payment memo: it matches the payment to its account or quote' })),
    iban: Str,
    swiftBic: Str,
    sortCode: Str,
    clabeNumber: Str,
    pixKey: Str,
    pixKeyType: Str,
    taxId: Str,
    vpa: Str,
    phoneNumber: Str,
    provider: Str,
    bankCode: Str,
    branchCode: Str,
    assetType: Str,
    cryptoNetwork: Str,
    address: Str,
    invoice: Type.Optional(Type.String({ description: 'Lightning invoice' })),
  }),
});

export const InternalAccountSchema = Type.Object({
  id: Type.String({ examples: ['InternalAccount:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  customerId: Type.Optional(Type.String({ description: 'absent: the account belongs to the platform' })),
  // balance: the available balance, posted credits − posted debits − amounts reserved by payments in progress
  balance: AmountSchema,
  fundingPaymentInstructions: Type.Array(PaymentInstructionSchema),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const InternalAccountIdParams = Type.Object({ accountId: Type.String({ pattern: idPattern('InternalAccount'), description: 'InternalAccount:<id>' }) });

export const CustomerInternalAccountQuery = Type.Object(
  {
    currency: Type.Optional(CurrencyCode),
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer') })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const PlatformInternalAccountQuery = Type.Object({ currency: Type.Optional(CurrencyCode), ...PageQuery }, { additionalProperties: false });

export const InternalAccountPage = PageSchema(InternalAccountSchema);

export const FundBody = Type.Object(
  { amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: 'Smallest unit of the account currency, 1 to 100000000000' }) },
  { additionalProperties: false },
);

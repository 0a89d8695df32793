import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { CurrencyCode, CurrencySchema, DateTime, Text } from '../../common/schemas.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';
import { FAILURE_REASONS } from '../../rails/types.js';
import { PaymentInstructionSchema } from '../internal-accounts/schemas.js';
import { DestinationSchema, RateDetailsSchema, SourceSchema } from '../transactions/schemas.js';
import { UMA_ADDRESS_PATTERN } from '../customers/schemas.js';

export const QUOTE_STATUSES = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'EXPIRED'] as const;
export const LOCKED_SIDES = ['SENDING', 'RECEIVING'] as const;
export const PURPOSES = [
  'GIFT',
  'SELF',
  'GOODS_OR_SERVICES',
  'EDUCATION',
  'HEALTH_OR_MEDICAL',
  'REAL_ESTATE_PURCHASE',
  'TAX_PAYMENT',
  'LOAN_PAYMENT',
  'UTILITY_BILL',
  'DONATION',
  'TRAVEL',
  'OTHER',
] as const;

const accountIdPattern = `(${idPattern('InternalAccount').slice(1, -1)})|(${idPattern('ExternalAccount').slice(1, -1)})`;

export const QuoteSourceInput = Type.Object(
  {
    sourceType: Type.Optional(
      Type.Union([Type.Literal('ACCOUNT'), Type.Literal('REALTIME_FUNDING')], {
        description: 'Omitted: ACCOUNT when accountId is given, else REALTIME_FUNDING',
      }),
    ),
    accountId: Type.Optional(
      Type.String({ pattern: `^(${accountIdPattern})$`, description: 'An InternalAccount (prefunded) or a pullable ExternalAccount (ACH pull)' }),
    ),
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer'), description: 'REALTIME_FUNDING: the paying customer' })),
    currency: Type.Optional(CurrencyCode),
  },
  { additionalProperties: false },
);

export const QuoteDestinationInput = Type.Object(
  {
    destinationType: Type.Optional(
      Type.Union([Type.Literal('ACCOUNT'), Type.Literal('UMA_ADDRESS'), Type.Literal('EXTERNAL_ACCOUNT_DETAILS')], { description: 'Omitted: ACCOUNT' }),
    ),
    accountId: Type.Optional(Type.String({ pattern: idPattern('ExternalAccount'), description: 'ACCOUNT: the ExternalAccount paid' })),
    umaAddress: Type.Optional(
      Type.String({
        pattern: UMA_ADDRESS_PATTERN,
        maxLength: 320,
        description: 'UMA_ADDRESS: the receiver ($user@domain); needs lookupId and currency (docs/incoming-payments.md)',
      }),
    ),
    currency: Type.Optional(CurrencyCode),
    // Checked by the route against POST /customers/external-accounts' own schema and service, so
    // only its presence is declared here (that schema's module depends on this one).
    externalAccountDetails: Type.Optional(
      Type.Object(
        {},
        {
          additionalProperties: true,
          description: 'EXTERNAL_ACCOUNT_DETAILS: the body of POST /customers/external-accounts; the account is registered with the quote, in its transaction',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const QuoteCreateBody = Type.Object(
  {
    source: QuoteSourceInput,
    destination: QuoteDestinationInput,
    lockedCurrencySide: Type.Enum(LOCKED_SIDES),
    lockedCurrencyAmount: Type.Integer({ minimum: 1, maximum: Number(MAX_AMOUNT), description: 'Smallest unit of the locked side, 1 to 9000000000000000' }),
    lookupId: Type.Optional(Type.String({ pattern: idPattern('Lookup') })),
    immediatelyExecute: Type.Optional(Type.Boolean({ default: false, description: 'Create and execute at once; internal or pullable sources only' })),
    description: Type.Optional(Text(500)),
    purposeOfPayment: Type.Optional(Type.Enum(PURPOSES)),
    senderCustomerInfo: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]), {
        maxProperties: 50,
        description: 'Key-value pairs about the sender',
      }),
    ),
  },
  { additionalProperties: false },
);
export type QuoteCreate = Static<typeof QuoteCreateBody>;

export const QuoteSchema = Type.Object({
  id: Type.String({ examples: ['Quote:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  status: Type.Enum(QUOTE_STATUSES),
  createdAt: DateTime,
  expiresAt: DateTime,
  source: SourceSchema,
  destination: DestinationSchema,
  sendingCurrency: CurrencySchema,
  receivingCurrency: CurrencySchema,
  totalSendingAmount: Type.Integer(),
  totalReceivingAmount: Type.Integer(),
  exchangeRate: Type.Number({ description: 'sending units per receiving unit (display only)' }),
  feesIncluded: Type.Integer({ description: 'sending minor units' }),
  transactionId: Type.String(),
  paymentInstructions: Type.Array(PaymentInstructionSchema),
  counterpartyInformation: Type.Optional(Type.Record(Type.String(), Type.String())),
  rateDetails: Type.Optional(RateDetailsSchema),
  lockedCurrencySide: Type.Enum(LOCKED_SIDES),
  lockedCurrencyAmount: Type.Integer(),
  description: Type.Optional(Type.String()),
  purposeOfPayment: Type.Optional(Type.Enum(PURPOSES)),
  senderCustomerInfo: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
  lookupId: Type.Optional(Type.String()),
  failureReason: Type.Optional(Type.Enum(FAILURE_REASONS)),
});
export type QuoteView = Static<typeof QuoteSchema>;

export const QuoteIdParams = Type.Object({ quoteId: Type.String({ pattern: idPattern('Quote'), description: 'Quote:<id>' }) });

export const QuoteListQuery = Type.Object(
  {
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer') })),
    status: Type.Optional(Type.Enum(QUOTE_STATUSES)),
    createdAfter: Type.Optional(DateTime),
    createdBefore: Type.Optional(DateTime),
    sendingAccountId: Type.Optional(
      Type.String({
        pattern: '^(InternalAccount|ExternalAccount)' + idPattern('InternalAccount').slice('^InternalAccount'.length),
        description: 'The source account: an internal account, or the external account a payment pulls from',
      }),
    ),
    receivingAccountId: Type.Optional(Type.String({ pattern: idPattern('ExternalAccount'), description: 'The destination external account' })),
    sendingUmaAddress: Type.Optional(Type.String({ pattern: UMA_ADDRESS_PATTERN, maxLength: 320, description: "The paying customer's UMA address" })),
    receivingUmaAddress: Type.Optional(Type.String({ pattern: UMA_ADDRESS_PATTERN, maxLength: 320, description: 'The UMA address paid' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const QuotePage = PageSchema(QuoteSchema);

import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { AmountSchema, DateTime, Text } from '../../common/schemas.js';
import { FAILURE_REASONS } from '../../rails/types.js';
import { PaymentInstructionSchema } from '../internal-accounts/schemas.js';

export const TRANSACTION_STATUSES = ['CREATED', 'PENDING', 'PROCESSING', 'COMPLETED', 'REJECTED', 'FAILED', 'REFUNDED', 'EXPIRED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export const REFUND_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;
export const REFUND_REASONS = ['TRANSACTION_FAILED', 'PAYMENT_RETURNED', 'FUNDING_AMOUNT_MISMATCH'] as const;

/** Source object (spec): ACCOUNT (an internal or pullable external account) or REALTIME_FUNDING (JIT). */
export const SourceSchema = Type.Object({
  sourceType: Type.Union([Type.Literal('ACCOUNT'), Type.Literal('REALTIME_FUNDING'), Type.Literal('UMA_ADDRESS')]),
  accountId: Type.Optional(Type.String()),
  /** UMA_ADDRESS (an incoming UMA payment): the sender's address, when known */
  umaAddress: Type.Optional(Type.String()),
  customerId: Type.Optional(Type.String()),
  currency: Type.String(),
});

export const DestinationSchema = Type.Object({
  destinationType: Type.Union([Type.Literal('ACCOUNT'), Type.Literal('UMA_ADDRESS')]),
  /** ACCOUNT: the account paid */
  accountId: Type.Optional(Type.String()),
  /** UMA_ADDRESS: the receiver's UMA address */
  umaAddress: Type.Optional(Type.String()),
  currency: Type.String(),
  paymentRail: Type.Optional(Type.String()),
});

export const RateDetailsSchema = Type.Object({
  counterpartyMultiplier: Type.Number({ description: 'receiving minor units per millisatoshi' }),
  counterpartyFixedFee: Type.Integer({ description: 'receiving minor units' }),
  serviceApiMultiplier: Type.Number({ description: 'millisatoshis per sending minor unit, net of the variable fee rate' }),
  serviceApiFixedFee: Type.Integer({ description: 'sending minor units' }),
  serviceApiVariableFeeRate: Type.Number({ description: 'fraction: 0.003 is 0.3 %' }),
  serviceApiVariableFeeAmount: Type.Integer({ description: 'sending minor units' }),
});

export const RefundSchema = Type.Object({
  reference: Type.String(),
  initiatedAt: DateTime,
  status: Type.Enum(REFUND_STATUSES),
  settledAt: Type.Optional(DateTime),
  reason: Type.Enum(REFUND_REASONS),
});

export const TransactionSchema = Type.Object({
  id: Type.String({ examples: ['Transaction:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  status: Type.Enum(TRANSACTION_STATUSES),
  type: Type.Enum(TRANSACTION_TYPES),
  source: SourceSchema,
  destination: DestinationSchema,
  customerId: Type.Optional(Type.String({ description: "sender for OUTGOING, recipient for INCOMING; absent: the platform's own" })),
  platformCustomerId: Type.Optional(Type.String()),
  sentAmount: AmountSchema,
  receivedAmount: AmountSchema,
  settledAt: Type.Optional(DateTime),
  createdAt: DateTime,
  updatedAt: DateTime,
  description: Type.Optional(Type.String()),
  counterpartyInformation: Type.Record(Type.String(), Type.String()),
  reconciliationInstructions: Type.Optional(Type.Object({ reference: Type.String() })),
  exchangeRate: Type.Number({ description: 'sending units per receiving unit (display only)' }),
  fees: Type.Integer({ description: 'sending minor units' }),
  quoteId: Type.Optional(Type.String()),
  paymentInstructions: Type.Array(PaymentInstructionSchema),
  refund: Type.Optional(RefundSchema),
  rateDetails: Type.Optional(RateDetailsSchema),
  failureReason: Type.Optional(Type.Enum(FAILURE_REASONS)),
  failureDetail: Type.Optional(
    Type.Object(
      {
        code: Type.String({ description: "The bank's code, e.g. a NACHA return code (R03) or an ISO 20022 status reason (AC04)" }),
        description: Type.Optional(Type.String()),
        source: Type.String({ description: 'NACHA or ISO20022' }),
      },
      { description: 'PRODUCTION bank rails: what the bank said when it rejected or returned the payment' },
    ),
  ),
});
export type TransactionView = Static<typeof TransactionSchema>;

export const TransactionIdParams = Type.Object({ transactionId: Type.String({ pattern: idPattern('Transaction'), description: 'Transaction:<id>' }) });

export const TransactionListQuery = Type.Object(
  {
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer') })),
    platformCustomerId: Type.Optional(Text(128)),
    status: Type.Optional(Type.Enum(TRANSACTION_STATUSES)),
    type: Type.Optional(Type.Enum(TRANSACTION_TYPES)),
    createdAfter: Type.Optional(DateTime),
    createdBefore: Type.Optional(DateTime),
    reference: Type.Optional(Text(64, { description: 'The reference of reconciliationInstructions (exact)' })),
    sortOrder: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'desc (default): newest first; asc: oldest first' })),
    // The vendor SDK's names of createdAfter and createdBefore (both inclusive).
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const TransactionPage = PageSchema(TransactionSchema);

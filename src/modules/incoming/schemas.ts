import { Type } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { CurrencyCode, Text } from '../../common/schemas.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';
import { UMA_ADDRESS_PATTERN } from '../customers/schemas.js';

/** Key-value facts about a person (FULL_NAME, BIRTH_DATE, ...), as quotes' senderCustomerInfo. */
export const CustomerInfo = (description: string) =>
  Type.Record(Type.String({ maxLength: 64 }), Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean()]), { maxProperties: 50, description });

export const ApproveBody = Type.Object(
  {
    receiverCustomerInfo: Type.Optional(
      CustomerInfo('Facts about the receiving customer; must hold every requestedReceiverCustomerInfoFields key of the approval webhook'),
    ),
  },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  {
    reason: Type.Optional(Text(500, { description: 'Why the payment is refused (kept in the transaction history)' })),
  },
  { additionalProperties: false },
);

const UmaAddress = Type.String({ pattern: UMA_ADDRESS_PATTERN, maxLength: 320 });

export const SandboxReceiveBody = Type.Object(
  {
    receiverUmaAddress: Type.Optional(
      Type.String({
        pattern: UMA_ADDRESS_PATTERN,
        maxLength: 320,
        description: 'The UMA address of one of your customers; its suffix selects a sandbox outcome. Required unless customerId names the customer',
      }),
    ),
    currencyCode: Type.Optional(CurrencyCode),
    currencyAmount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number(MAX_AMOUNT),
        description: 'Amount received, smallest unit of currencyCode (required under this name or an alias)',
      }),
    ),
    // The vendor SDK's and CLI's names (docs/vendor-clients.md).
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer'), description: 'The receiving customer, instead of receiverUmaAddress' })),
    receivingCurrencyCode: Type.Optional(CurrencyCode),
    receivingCurrencyAmount: Type.Optional(Type.Integer({ minimum: 1, maximum: Number(MAX_AMOUNT), description: 'currencyAmount under the SDK name' })),
    currency: Type.Optional(CurrencyCode),
    amount: Type.Optional(Type.Integer({ minimum: 1, maximum: Number(MAX_AMOUNT), description: 'currencyAmount under the CLI name' })),
    senderUmaAddress: Type.Optional(UmaAddress),
    senderCustomerInfo: Type.Optional(CustomerInfo("Payer data; must hold your configuration's requiredPayerDataFields")),
    description: Type.Optional(Text(500)),
  },
  { additionalProperties: false },
);

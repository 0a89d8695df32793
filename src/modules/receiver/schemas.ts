import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { CurrencyCode, CurrencySchema, DateTime } from '../../common/schemas.js';
import { UMA_ADDRESS_PATTERN } from '../customers/schemas.js';

export const UmaAddressParams = Type.Object({
  receiverUmaAddress: Type.String({
    pattern: UMA_ADDRESS_PATTERN,
    maxLength: 320,
    description: '$user@domain (URL-encode $ and @ if your client needs to)',
    examples: ['$alice@sandbox.acme-1a2b3c.uma.localhost'],
  }),
});

export const ExternalAccountLookupParams = Type.Object({
  accountId: Type.String({ pattern: idPattern('ExternalAccount'), description: 'ExternalAccount:<id>' }),
});

export const LookupQuery = Type.Object(
  {
    sendingCurrency: Type.Optional(CurrencyCode),
    customerId: Type.Optional(Type.String({ pattern: idPattern('Customer'), description: 'The paying customer: rates are from its currency' })),
    senderUmaAddress: Type.Optional(
      Type.String({
        pattern: UMA_ADDRESS_PATTERN,
        maxLength: 320,
        description: "The paying customer's UMA address (instead of customerId, or naming the same customer)",
      }),
    ),
  },
  { additionalProperties: false },
);
export type LookupOptions = Static<typeof LookupQuery>;

export const LookupSchema = Type.Object({
  id: Type.String({ examples: ['Lookup:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'], description: 'Give it as lookupId to POST /quotes' }),
  receiverUmaAddress: Type.Optional(Type.String()),
  accountId: Type.Optional(Type.String()),
  sendingCurrency: CurrencySchema,
  supportedCurrencies: Type.Array(
    Type.Object({
      currency: CurrencySchema,
      estimatedExchangeRate: Type.Optional(
        Type.Number({ description: 'indicative: sending units per receiving unit (a quote locks the real rate); absent when no rate is available now' }),
      ),
      minAmount: Type.Optional(Type.Integer({ description: 'receiving minor units, inclusive; absent: no minimum' })),
      maxAmount: Type.Optional(Type.Integer({ description: 'receiving minor units, inclusive; absent: no maximum' })),
    }),
  ),
  requiredPayerDataFields: Type.Array(Type.String(), { description: 'keys the quote senderCustomerInfo must contain' }),
  expiresAt: DateTime,
  createdAt: DateTime,
});
export type LookupView = Static<typeof LookupSchema>;

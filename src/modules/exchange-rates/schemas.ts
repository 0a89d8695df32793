import { Type } from 'typebox';
import { CurrencyCode, CurrencySchema, DateTime } from '../../common/schemas.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';

export const DEFAULT_SENDING_AMOUNT = 10_000;

export const ExchangeRateQuery = Type.Object(
  {
    sourceCurrency: Type.Optional(CurrencyCode),
    destinationCurrency: Type.Optional(
      Type.Array(CurrencyCode, {
        minItems: 1,
        maxItems: 25,
        uniqueItems: true,
        description:
          'Repeat the parameter (destinationCurrency=INR&destinationCurrency=GBP) or separate codes by commas (INR,GBP); omitted: every enabled currency',
      }),
    ),
    sendingAmount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number(MAX_AMOUNT),
        default: DEFAULT_SENDING_AMOUNT,
        description: 'Smallest unit of the source currency; the receiving amount is priced for it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ExchangeRateSchema = Type.Object({
  sourceCurrency: CurrencySchema,
  destinationCurrency: CurrencySchema,
  destinationPaymentRail: Type.String({ description: 'The usual payout rail of the destination currency' }),
  sendingAmount: Type.Integer({ description: 'Smallest unit of the source currency, fees included' }),
  minSendingAmount: Type.Integer({ description: "The least that delivers a positive amount after fees, or the platform's minimum if higher" }),
  maxSendingAmount: Type.Integer({ description: "The most a quote can send, or the platform's maximum if lower" }),
  receivingAmount: Type.Integer({ description: 'What a quote locking sendingAmount would deliver now' }),
  exchangeRate: Type.Number({ description: 'Sending units per receiving unit, as a quote states it' }),
  fees: Type.Object({
    fixed: Type.Integer({ description: 'Service fixed fee, smallest unit of the source currency' }),
    variable: Type.Integer({ description: 'Service variable fee on sendingAmount' }),
    total: Type.Integer({ description: 'fixed + variable: what sendingAmount pays before conversion' }),
  }),
  updatedAt: DateTime,
});

export const ExchangeRateList = Type.Object({ data: Type.Array(ExchangeRateSchema) });

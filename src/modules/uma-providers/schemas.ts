import { Type } from 'typebox';
import { PageQuery } from '../../common/pagination.js';
import { CountryCode, CurrencyCode, CurrencySchema } from '../../common/schemas.js';

export const UmaProviderQuery = Type.Object(
  {
    countryCode: Type.Optional(CountryCode),
    currencyCode: Type.Optional(CurrencyCode),
    hasBlockedProviders: Type.Optional(Type.Boolean({ description: 'Accepted for the vendor SDK; Corridor keeps no allow list, so no provider is blocked' })),
    sortOrder: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'desc (default): newest platform first' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const UmaProviderSchema = Type.Object({
  name: Type.String(),
  domain: Type.String({ description: "The UMA domain of the platform's customers' addresses" }),
  supportedCurrencies: Type.Array(CurrencySchema),
  supportedRegions: Type.Array(Type.String(), { description: 'Countries whose currency the platform has enabled (ISO 3166-1 alpha-2)' }),
  allowListStatus: Type.Boolean({ description: 'Always true: Corridor keeps no allow list' }),
});

export const UmaProviderPage = Type.Object({
  data: Type.Array(UmaProviderSchema),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(Type.String()),
  totalCount: Type.Integer(),
});

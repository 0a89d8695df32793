import { Type } from 'typebox';
import { CountryCode, CurrencyCode } from '../../common/schemas.js';

export const DiscoveryQuery = Type.Object({ country: Type.Optional(CountryCode), currency: Type.Optional(CurrencyCode) }, { additionalProperties: false });

export const DiscoveryEntrySchema = Type.Object({
  bankName: Type.String({ description: 'The exact value to submit as accountInfo.bankName (or provider, for mobile money)', examples: ['BDO UNIBANK'] }),
  displayName: Type.String({ description: 'The label to show to users', examples: ['BDO Unibank, Inc.'] }),
  country: Type.String({ description: 'ISO 3166-1 alpha-2' }),
  currency: Type.String(),
});

export const DiscoveryList = Type.Object({ data: Type.Array(DiscoveryEntrySchema) });

import { Type, type Static } from 'typebox';
// The package's entry without its 78 languages of country names (~0.9 MB): only the codes are needed.
import countries from 'i18n-iso-countries/index.js';
import { CURRENCY_CODES, isSupportedCurrency } from './currencies.js';

/**
 * Shared TypeBox schemas. Custom formats ('country', 'currency') are registered on the
 * validators in http/validation.ts via `customFormats` below.
 */
export const customFormats: Record<string, (value: string) => boolean> = {
  // i18n-iso-countries is case-insensitive; the API wants upper-case alpha-2 exactly.
  country: (v) => /^[A-Z]{2}$/.test(v) && countries.isValid(v),
  currency: (v) => isSupportedCurrency(v),
};

export const formatMessages: Record<string, string> = {
  country: 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)',
  currency: `must be a supported currency code (${CURRENCY_CODES.join(', ')})`,
  date: 'must be a real date in the form YYYY-MM-DD',
  'date-time': 'must be an ISO 8601 date-time such as 2025-10-13T09:30:00Z',
  email: 'must be an email address',
  uri: 'must be an absolute URL',
  uuid: 'must be a UUID',
};

export const CountryCode = Type.String({ format: 'country', description: 'ISO 3166-1 alpha-2', examples: ['US'] });
export const CurrencyCode = Type.String({ format: 'currency', description: 'ISO 4217 code or crypto ticker', examples: ['USD'] });
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD', examples: ['1990-01-31'] });
export const DateTime = Type.String({ format: 'date-time', examples: ['2025-10-13T09:30:00.000Z'] });
/** Free text with sane bounds. */
export const Text = (maxLength = 255, extra: Record<string, unknown> = {}) => Type.String({ minLength: 1, maxLength, ...extra });

export const CurrencySchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  decimals: Type.Integer(),
});

export const AmountSchema = Type.Object({
  amount: Type.Integer({ description: 'smallest unit of the currency' }),
  currency: CurrencySchema,
});

export const AddressInput = Type.Object(
  {
    line1: Text(200),
    line2: Type.Optional(Type.String({ maxLength: 200 })),
    city: Type.Optional(Text(100)),
    state: Type.Optional(Text(100)),
    postalCode: Text(20),
    country: CountryCode,
  },
  { additionalProperties: false },
);
export type Address = Static<typeof AddressInput>;

export const AddressSchema = Type.Object({
  line1: Type.String(),
  line2: Type.Optional(Type.String()),
  city: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  postalCode: Type.String(),
  country: Type.String(),
});

export const ErrorSchema = Type.Object(
  {
    status: Type.Integer(),
    code: Type.String(),
    message: Type.String(),
    details: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'Error', description: 'Every error (D2). details.fields lists field problems of INVALID_INPUT.' },
);

/** Query filters on creation/update time, inclusive. */
export const TimeRangeQuery = {
  createdAfter: Type.Optional(DateTime),
  createdBefore: Type.Optional(DateTime),
  updatedAfter: Type.Optional(DateTime),
  updatedBefore: Type.Optional(DateTime),
};

/** Normalises an input date-time to the stored ISO form, so string comparison is time comparison. */
export function isoOrUndefined(value: string | undefined): string | undefined {
  return value === undefined ? undefined : new Date(value).toISOString();
}

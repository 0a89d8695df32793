import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { InlineOwnersInput } from '../beneficial-owners/inline.js';
import { AddressInput, AddressSchema, CountryCode, CurrencyCode, DateOnly, DateTime, Text, TimeRangeQuery } from '../../common/schemas.js';

export const CUSTOMER_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;
export const KYC_STATUSES = ['UNVERIFIED', 'PENDING', 'APPROVED', 'REJECTED'] as const;

export const UMA_ADDRESS_PATTERN = '^\\$[a-zA-Z0-9._+-]{1,64}@[a-zA-Z0-9.-]{1,253}(:[0-9]{1,5})?$';

const BusinessInfoInput = Type.Object(
  {
    legalName: Text(200),
    tradingName: Type.Optional(Text(200)),
    registrationNumber: Type.Optional(Text(64)),
    taxId: Type.Optional(Text(64)),
    incorporationCountry: Type.Optional(CountryCode),
    incorporationDate: Type.Optional(DateOnly),
    address: Type.Optional(AddressInput),
    website: Type.Optional(Type.String({ format: 'uri', maxLength: 255 })),
  },
  { additionalProperties: false, description: 'Company data of a BUSINESS customer' },
);

const BusinessInfoSchema = Type.Object({
  legalName: Type.String(),
  tradingName: Type.Optional(Type.String()),
  registrationNumber: Type.Optional(Type.String()),
  taxId: Type.Optional(Type.String()),
  incorporationCountry: Type.Optional(Type.String()),
  incorporationDate: Type.Optional(Type.String()),
  address: Type.Optional(AddressSchema),
  website: Type.Optional(Type.String()),
});

// Whole examples for the OpenAPI document (test/openapi.test.ts sends them to the API).
const EXAMPLE_CREATE = {
  platformCustomerId: 'user-42',
  customerType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  birthDate: '1990-12-10',
  nationality: 'GB',
  currencies: ['USD', 'GBP'],
  address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
};
const EXAMPLE_CUSTOMER = {
  id: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11',
  ...EXAMPLE_CREATE,
  umaAddress: '$ada.lovelace.3f9c2a71d0@sandbox.acme-1a2b3c.uma.localhost',
  region: 'GB',
  createdAt: '2025-10-13T09:30:00.000Z',
  updatedAt: '2025-10-13T09:30:00.000Z',
  isDeleted: false,
  kycStatus: 'APPROVED',
};

const Currencies = Type.Array(CurrencyCode, { maxItems: 20, uniqueItems: true, description: 'Enabled currencies' });
const UmaAddress = Type.String({
  pattern: UMA_ADDRESS_PATTERN,
  maxLength: 320,
  description: "$user@domain; the domain must be the platform's UMA domain",
  examples: ['$alice@acme.uma.localhost'],
});

export const CustomerCreateBody = Type.Object(
  {
    platformCustomerId: Text(128, { description: "The platform's own id for this customer; unique per platform and environment" }),
    customerType: Type.Enum(CUSTOMER_TYPES),
    fullName: Type.Optional(Text(200)),
    birthDate: Type.Optional(DateOnly),
    nationality: Type.Optional(CountryCode),
    address: Type.Optional(AddressInput),
    region: Type.Optional(CountryCode),
    currencies: Type.Optional(Currencies),
    umaAddress: Type.Optional(UmaAddress),
    businessInfo: Type.Optional(BusinessInfoInput),
    beneficialOwners: Type.Optional(InlineOwnersInput),
  },
  { additionalProperties: false, examples: [EXAMPLE_CREATE] },
);
export type CustomerCreate = Static<typeof CustomerCreateBody>;

export const CustomerPatchBody = Type.Object(
  {
    // Optional, as the vendor's CLI leaves it out; when given it must be the customer's type.
    customerType: Type.Optional(Type.Enum(CUSTOMER_TYPES, { description: "The customer's type, which cannot change; may be left out" })),
    currencies: Type.Optional(Currencies),
    umaAddress: Type.Optional(UmaAddress),
    kycStatus: Type.Optional(Type.Enum(KYC_STATUSES)),
    fullName: Type.Optional(Text(200)),
    birthDate: Type.Optional(DateOnly),
    nationality: Type.Optional(CountryCode),
    address: Type.Optional(AddressInput),
    region: Type.Optional(CountryCode),
    businessInfo: Type.Optional(BusinessInfoInput),
  },
  { additionalProperties: false, examples: [{ customerType: 'INDIVIDUAL', currencies: ['USD', 'GBP', 'EUR'], kycStatus: 'APPROVED' }] },
);
export type CustomerPatch = Static<typeof CustomerPatchBody>;

export const CustomerSchema = Type.Object(
  {
    id: Type.String({ examples: ['Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
    platformCustomerId: Type.String(),
    customerType: Type.Enum(CUSTOMER_TYPES),
    umaAddress: Type.String(),
    region: Type.Optional(Type.String()),
    currencies: Type.Array(Type.String()),
    createdAt: DateTime,
    updatedAt: DateTime,
    isDeleted: Type.Boolean(),
    kycStatus: Type.Enum(KYC_STATUSES),
    fullName: Type.Optional(Type.String()),
    birthDate: Type.Optional(Type.String()),
    nationality: Type.Optional(Type.String()),
    address: Type.Optional(AddressSchema),
    businessInfo: Type.Optional(BusinessInfoSchema),
    missingFields: Type.Optional(
      Type.Array(Type.String(), {
        description: 'What the customer still lacks before it can be verified (fullName, businessInfo); it stays UNVERIFIED until given',
      }),
    ),
  },
  { examples: [EXAMPLE_CUSTOMER] },
);

export const CustomerIdParams = Type.Object({ customerId: Type.String({ pattern: idPattern('Customer'), description: 'Customer:<id>' }) });

export const CustomerListQuery = Type.Object(
  {
    platformCustomerId: Type.Optional(Text(128)),
    customerType: Type.Optional(Type.Enum(CUSTOMER_TYPES)),
    ...TimeRangeQuery,
    region: Type.Optional(CountryCode),
    currency: Type.Optional(CurrencyCode),
    // Exact match, any case; an empty value is refused like every other text filter's.
    umaAddress: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    includeDeleted: Type.Optional(Type.Boolean({ description: 'Also list deleted customers (default false)' })),
    isIncludingDeleted: Type.Optional(Type.Boolean({ description: "The vendor SDK's name of includeDeleted" })),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type CustomerListFilters = Static<typeof CustomerListQuery>;

export const CustomerPage = PageSchema(CustomerSchema);

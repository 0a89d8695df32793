import { Type, type Static } from 'typebox';
import { idPattern } from '../../common/ids.js';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { AddressInput, AddressSchema, CountryCode, DateOnly, DateTime, Text } from '../../common/schemas.js';
import { KYC_STATUSES } from '../customers/schemas.js';

export const OWNER_ROLES = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'] as const;
export type OwnerRole = (typeof OWNER_ROLES)[number];

/**
 * Identity documents a beneficial owner can be identified by. SSN and ITIN are US numbers (their
 * format is checked and countryOfIssuance is US); the others are issued by countryOfIssuance.
 */
export const ID_TYPES = ['SSN', 'ITIN', 'PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'RESIDENCE_PERMIT', 'TAX_ID'] as const;
export type IdType = (typeof ID_TYPES)[number];

const Name = Text(100);
const Email = Type.String({ format: 'email', maxLength: 254, examples: ['jane.doe@example.com'] });
const Phone = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'International form with a leading +, e.g. +14155550123; stored in E.164',
  examples: ['+14155550123'],
});
const Identifier = Text(64, {
  pattern: '^[A-Za-z0-9][A-Za-z0-9 ./-]*$',
  description: 'The number of the idType document; SSN/ITIN as 123-45-6789 or 123456789',
});

const personalInfoFields = {
  firstName: Name,
  middleName: Type.Optional(Name),
  lastName: Name,
  birthDate: DateOnly,
  nationality: CountryCode,
  address: AddressInput,
  idType: Type.Enum(ID_TYPES),
  identifier: Identifier,
  email: Type.Optional(Email),
  phoneNumber: Type.Optional(Phone),
  countryOfIssuance: Type.Optional(CountryCode),
};

export const PersonalInfoInput = Type.Object(personalInfoFields, {
  additionalProperties: false,
  description: 'countryOfIssuance is required unless idType is SSN or ITIN (always US)',
});
export type PersonalInfo = Static<typeof PersonalInfoInput>;

/** Every field optional; the optional fields of personalInfo may be null to remove them. */
export const PersonalInfoPatch = Type.Object(
  {
    firstName: Type.Optional(Name),
    middleName: Type.Optional(Type.Union([Name, Type.Null()])),
    lastName: Type.Optional(Name),
    birthDate: Type.Optional(DateOnly),
    nationality: Type.Optional(CountryCode),
    address: Type.Optional(AddressInput),
    idType: Type.Optional(Type.Enum(ID_TYPES)),
    identifier: Type.Optional(Identifier),
    email: Type.Optional(Type.Union([Email, Type.Null()])),
    phoneNumber: Type.Optional(Type.Union([Phone, Type.Null()])),
    countryOfIssuance: Type.Optional(Type.Union([CountryCode, Type.Null()])),
  },
  { additionalProperties: false, description: 'Only the fields given change; null removes an optional field' },
);
export type PersonalInfoChanges = Static<typeof PersonalInfoPatch>;

const Roles = Type.Array(Type.Enum(OWNER_ROLES), { minItems: 1, maxItems: OWNER_ROLES.length, uniqueItems: true });
const Percentage = Type.Integer({ minimum: 0, maximum: 100, description: 'Share of the business owned; counted toward the 100% cap when roles include UBO' });

export const OwnerCreateBody = Type.Object(
  {
    customerId: Type.String({ pattern: idPattern('Customer'), description: 'The BUSINESS customer' }),
    roles: Roles,
    ownershipPercentage: Percentage,
    personalInfo: PersonalInfoInput,
  },
  { additionalProperties: false },
);
export type OwnerCreate = Static<typeof OwnerCreateBody>;

export const OwnerPatchBody = Type.Object(
  { roles: Type.Optional(Roles), ownershipPercentage: Type.Optional(Percentage), personalInfo: Type.Optional(PersonalInfoPatch) },
  { additionalProperties: false },
);
export type OwnerPatch = Static<typeof OwnerPatchBody>;

// Every fact is there for an owner added with POST /beneficial-owners; one created inline with its
// business may lack some, each named in the owner's missingFields.
export const PersonalInfoSchema = Type.Object({
  firstName: Type.String(),
  middleName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  birthDate: Type.Optional(Type.String()),
  nationality: Type.Optional(Type.String()),
  address: Type.Optional(AddressSchema),
  idType: Type.Optional(Type.Enum(ID_TYPES)),
  identifier: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  phoneNumber: Type.Optional(Type.String()),
  countryOfIssuance: Type.Optional(Type.String()),
});

export const OwnerSchema = Type.Object({
  id: Type.String({ examples: ['BeneficialOwner:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  customerId: Type.String(),
  roles: Type.Array(Type.Enum(OWNER_ROLES)),
  ownershipPercentage: Type.Integer(),
  personalInfo: PersonalInfoSchema,
  kycStatus: Type.Enum(KYC_STATUSES),
  missingFields: Type.Optional(
    Type.Array(Type.String(), {
      description: 'Facts the owner still lacks (e.g. personalInfo.birthDate); it stays UNVERIFIED and its business short of APPROVED until a PATCH gives them',
    }),
  ),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const OwnerIdParams = Type.Object({
  beneficialOwnerId: Type.String({ pattern: idPattern('BeneficialOwner'), description: 'BeneficialOwner:<id>' }),
});

export const OwnerListQuery = Type.Object(
  { customerId: Type.String({ pattern: idPattern('Customer'), description: 'The business customer whose owners to list' }), ...PageQuery },
  { additionalProperties: false },
);

export const OwnerPage = PageSchema(OwnerSchema);

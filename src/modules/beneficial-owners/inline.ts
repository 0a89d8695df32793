import { Type, type Static } from 'typebox';
import { invalidInput, type FieldProblem } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { AddressInput, CountryCode, DateOnly, Text } from '../../common/schemas.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import { ownerErrors } from './errors.js';
import { ownerRepository } from './repository.js';
import { checkPersonalInfo, encodeRoles, hasKybRole, initialOwnerKycStatus, MAX_OWNERS_PER_CUSTOMER, missingPersonalInfo } from './rules.js';
import type { OwnerRole, PersonalInfo } from './schemas.js';

/**
 * The owner of a BUSINESS customer as the vendor's SDK and CLI send it inside POST /customers
 * (the vendor's UltimateBeneficialOwner). It names the person by fullName and one individualType,
 * and may leave out what Corridor's owner needs (birth date, nationality, address, an identity
 * document): such an owner is stored with those facts listed as missing (docs/decisions.md,
 * "Beneficial owners and documents").
 */
export const VENDOR_INDIVIDUAL_TYPES = ['DIRECTOR', 'CONTROL_PERSON', 'BUSINESS_POINT_OF_CONTACT', 'TRUSTEE', 'SETTLOR', 'GENERAL_PARTNER'] as const;

export const InlineOwnerInput = Type.Object(
  {
    fullName: Text(200),
    individualType: Type.Enum(VENDOR_INDIVIDUAL_TYPES),
    emailAddress: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phoneNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    taxId: Type.Optional(Text(64, { pattern: '^[A-Za-z0-9][A-Za-z0-9 ./-]*$' })),
    birthDate: Type.Optional(DateOnly),
    nationality: Type.Optional(CountryCode),
    address: Type.Optional(AddressInput),
    percentageOwnership: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
    // Accepted as the vendor sends it; Corridor's owner has no title to keep it in.
    title: Type.Optional(Text(100)),
  },
  { additionalProperties: false, description: "A beneficial owner in the vendor's shape; what it leaves out is listed in the owner's missingFields" },
);
export type InlineOwner = Static<typeof InlineOwnerInput>;

export const InlineOwnersInput = Type.Array(InlineOwnerInput, { maxItems: MAX_OWNERS_PER_CUSTOMER });

/** The vendor's individual types Corridor has a role for; the others name no role an owner can hold here. */
const ROLE_OF: Partial<Record<(typeof VENDOR_INDIVIDUAL_TYPES)[number], OwnerRole>> = {
  DIRECTOR: 'DIRECTOR',
  CONTROL_PERSON: 'CONTROL_PERSON',
  TRUSTEE: 'TRUSTEE',
  GENERAL_PARTNER: 'GENERAL_PARTNER',
};

/** An inline owner checked and mapped, ready to store with its business. */
export interface MappedOwner {
  roles: OwnerRole[];
  ownershipPercentage: number;
  personalInfo: Partial<PersonalInfo>;
  missing: string[];
}

/**
 * Checks every inline owner as POST /beneficial-owners checks one, and maps it to Corridor's
 * owner. All problems are reported at once, each named `beneficialOwners[i].<vendor field>`;
 * nothing is stored when any owner is refused.
 */
export function mapInlineOwners(owners: readonly InlineOwner[], today: Date): MappedOwner[] {
  const problems: FieldProblem[] = [];
  const mapped: MappedOwner[] = [];
  let uboTotal = 0;
  let overCap = 0;
  owners.forEach((o, i) => {
    const at = (field: string) => `beneficialOwners[${i}].${field}`;
    const bad = (field: string, message: string) => problems.push({ field: at(field), in: 'body', message });
    const role = ROLE_OF[o.individualType];
    if (!role)
      bad(
        'individualType',
        `${o.individualType} has no Corridor role; use one of ${Object.keys(ROLE_OF).join(', ')}, or add the person with POST /beneficial-owners`,
      );
    const pct = o.percentageOwnership ?? 0;
    if (!Number.isInteger(pct)) bad('percentageOwnership', 'must be a whole number of percent');
    // Owning a share is what makes the person a UBO; the shares of one business add up to at most 100.
    const roles: OwnerRole[] = pct > 0 ? ['UBO'] : [];
    if (role) roles.push(role);
    if (pct > 0 && Number.isInteger(pct)) {
      if (uboTotal + pct > 100) overCap++;
      if (uboTotal + pct > 100) bad('percentageOwnership', `the owners before this one hold ${uboTotal}%; at most ${Math.max(0, 100 - uboTotal)} is left`);
      uboTotal += pct;
    }
    // fullName: first word, last word, and any words between as the middle name. A one-word name
    // gives no last name: it is listed as missing rather than made up.
    const words = o.fullName.trim().split(/\s+/);
    const names: { firstName: string; lastName?: string; middleName?: string } = { firstName: words[0] };
    if (words.length > 1) names.lastName = words[words.length - 1];
    if (words.length > 2) names.middleName = words.slice(1, -1).join(' ');
    for (const [k, v] of Object.entries(names))
      if (v !== undefined && v.length > 100) bad('fullName', `each part of the name must be at most 100 characters (${k})`);
    const info: Partial<PersonalInfo> = {
      ...names,
      ...(o.birthDate !== undefined && { birthDate: o.birthDate }),
      ...(o.nationality !== undefined && { nationality: o.nationality }),
      ...(o.address !== undefined && { address: o.address }),
      ...(o.emailAddress !== undefined && { email: o.emailAddress }),
      ...(o.phoneNumber !== undefined && { phoneNumber: o.phoneNumber }),
      // The vendor's taxId may be an SSN, another country's tax number or a passport number: kept
      // as a TAX_ID whose issuing country is listed as missing, never guessed from the nationality.
      ...(o.taxId !== undefined && { idType: 'TAX_ID' as const, identifier: o.taxId }),
    };
    const vendorName: Record<string, string> = { email: 'emailAddress', identifier: 'taxId' };
    try {
      const stored = checkPersonalInfo(info as PersonalInfo, today, { partial: true, field: (f) => at(vendorName[f] ?? f) });
      mapped.push({ roles, ownershipPercentage: Number.isInteger(pct) ? pct : 0, personalInfo: stored, missing: missingPersonalInfo(stored) });
    } catch (e) {
      const fields = (e as { details?: { fields?: FieldProblem[] } }).details?.fields;
      if (!fields) throw e;
      problems.push(...fields);
    }
  });
  if (problems.length) {
    // Shares over 100% alone answer as POST /beneficial-owners answers them.
    if (overCap === problems.length)
      throw ownerErrors.OWNERSHIP_EXCEEDS_100({ fields: problems, requestedTotal: owners.reduce((s, o) => s + (o.percentageOwnership ?? 0), 0) });
    throw invalidInput(problems);
  }
  return mapped;
}

/** Whether a mapped owner makes its business pass the sandbox KYB: a UBO or control person with every fact given. */
export function qualifiesForKyb(owner: MappedOwner): boolean {
  return owner.missing.length === 0 && hasKybRole(owner.roles);
}

/**
 * Stores the owners of a business created in the open transaction, as POST /beneficial-owners
 * stores one: an owner lacking facts starts UNVERIFIED, whatever the environment, until they arrive.
 */
export async function insertInlineOwners(trx: Executor, scope: Scope, customerId: string, owners: readonly MappedOwner[], now: string) {
  for (const o of owners)
    await ownerRepository.insert(trx, {
      id: newId('BeneficialOwner'),
      platform_id: scope.platformId,
      environment: scope.environment,
      customer_id: customerId,
      roles: encodeRoles(o.roles),
      ownership_percentage: o.ownershipPercentage,
      personal_info: JSON.stringify(o.personalInfo),
      kyc_status: o.missing.length ? 'UNVERIFIED' : initialOwnerKycStatus(scope.environment),
      created_at: now,
      updated_at: now,
    });
}

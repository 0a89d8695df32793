import { isValidPhoneNumber, parsePhoneNumberWithError } from 'libphonenumber-js/min';
import { invalidField, invalidInput, type FieldProblem } from '../../common/errors.js';
import type { Environment } from '../../common/scope.js';
import type { OwnerRole, PersonalInfo, PersonalInfoChanges } from './schemas.js';

/** Stored personalInfo: countryOfIssuance is always known (US for SSN and ITIN). */
export type StoredPersonalInfo = PersonalInfo & { countryOfIssuance: string };

/** Roles that make a person count for a business's KYB in the sandbox. */
export const KYB_ROLES: readonly OwnerRole[] = ['UBO', 'CONTROL_PERSON'];

/** The most owners one business can have: a register, not a shareholder ledger. */
export const MAX_OWNERS_PER_CUSTOMER = 50;

const US_ONLY_ID_TYPES = new Set(['SSN', 'ITIN']);
// SSA rules: no area 000, 666 or 9xx, no group 00, no serial 0000.
const SSN = /^(?!000|666|9\d\d)(\d{3})-?(?!00)(\d{2})-?(?!0000)(\d{4})$/;
// IRS: ITINs start with 9 and their middle digits are 50-65, 70-88, 90-92 or 94-99.
const ITIN = /^(9\d{2})-?(5\d|6[0-5]|7\d|8[0-8]|9[0-2]|9[4-9])-?(\d{4})$/;

export function hasKybRole(roles: readonly string[]): boolean {
  return roles.some((r) => KYB_ROLES.includes(r as OwnerRole));
}

/** Owner KYC is simulated and instant in the sandbox; in production it starts unverified. */
export function initialOwnerKycStatus(environment: Environment): string {
  return environment === 'SANDBOX' ? 'APPROVED' : 'UNVERIFIED';
}

/** Field-by-field merge: absent fields keep their value, null removes an optional field. */
export function mergePersonalInfo(current: StoredPersonalInfo, changes: PersonalInfoChanges): PersonalInfo {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  // Another kind of id is another document: its number and issuer are given again, never carried over.
  if (changes.idType !== undefined && changes.idType !== current.idType) {
    if (changes.identifier === undefined) throw invalidField('personalInfo.identifier', 'is required when idType changes');
    if (changes.countryOfIssuance === undefined) delete merged.countryOfIssuance;
  }
  return merged as PersonalInfo;
}

/**
 * The facts a complete owner has and an owner created inline with its business (the vendor's
 * shape, beneficial-owners/inline.ts) may lack, named as a PATCH gives them. countryOfIssuance is
 * implied by SSN and ITIN (US) and needed for every other idType.
 */
export function missingPersonalInfo(info: Partial<PersonalInfo>): string[] {
  const required = ['firstName', 'lastName', 'birthDate', 'nationality', 'address', 'idType', 'identifier'] as const;
  const missing: string[] = required.filter((k) => info[k] === undefined);
  if (info.idType !== undefined && !US_ONLY_ID_TYPES.has(info.idType) && info.countryOfIssuance === undefined) missing.push('countryOfIssuance');
  return missing.map((k) => `personalInfo.${k}`);
}

/**
 * Checks what the schema cannot: a real past birth date, a valid phone number, the SSN/ITIN format
 * and the issuing country. Returns the stored form (phone in E.164, SSN/ITIN as 123-45-6789).
 * Every problem is reported at once, each named by `field` (personalInfo.<name> by default).
 * With `partial`, facts left out are not problems: the owner lists them (missingPersonalInfo)
 * until a PATCH gives them.
 */
export function checkPersonalInfo(info: PersonalInfo, today: Date, opts: { partial?: boolean; field?: (name: string) => string } = {}): StoredPersonalInfo {
  const problems: FieldProblem[] = [];
  const name = opts.field ?? ((f: string) => `personalInfo.${f}`);
  const bad = (field: string, message: string) => problems.push({ field: name(field), in: 'body', message });
  const out = { ...info } as StoredPersonalInfo;

  if (info.birthDate !== undefined) {
    const born = new Date(`${info.birthDate}T00:00:00Z`);
    if (born.getTime() > today.getTime()) bad('birthDate', 'must not be in the future');
    else if (today.getUTCFullYear() - born.getUTCFullYear() > 150) bad('birthDate', 'must be within the last 150 years');
  }

  if (info.phoneNumber !== undefined) {
    // International form only (a leading +): without it the country would be a guess.
    if (!/^\+[1-9][\d ().-]{5,24}$/.test(info.phoneNumber) || !isValidPhoneNumber(info.phoneNumber))
      bad('phoneNumber', 'must be a valid phone number in international form, e.g. +14155550123');
    else out.phoneNumber = parsePhoneNumberWithError(info.phoneNumber).number;
  }

  if (info.idType !== undefined && US_ONLY_ID_TYPES.has(info.idType)) {
    const m = info.identifier === undefined ? undefined : (info.idType === 'SSN' ? SSN : ITIN).exec(info.identifier);
    if (m) out.identifier = `${m[1]}-${m[2]}-${m[3]}`;
    else if (info.identifier !== undefined)
      bad(
        'identifier',
        info.idType === 'SSN'
          ? 'must be a valid SSN: 9 digits as 123-45-6789 (no area 000, 666 or 9xx)'
          : 'must be a valid ITIN: 9 digits starting with 9, as 912-70-1234',
      );
    if (info.countryOfIssuance !== undefined && info.countryOfIssuance !== 'US') bad('countryOfIssuance', `must be US for idType ${info.idType}`);
    out.countryOfIssuance = 'US';
  } else if (info.idType !== undefined && info.countryOfIssuance === undefined && !opts.partial) {
    bad('countryOfIssuance', `is required for idType ${info.idType}`);
  }

  if (problems.length) throw invalidInput(problems);
  return out;
}

/** Stored roles `,UBO,DIRECTOR,` so a role filter is one LIKE on both dialects. */
export function encodeRoles(roles: readonly string[]): string {
  return `,${roles.join(',')},`;
}

export function decodeRoles(text: string): OwnerRole[] {
  return text.split(',').filter(Boolean) as OwnerRole[];
}

/**
 * Canadian domestic (Payments Canada / EFT) routing: institution number (3 digits), transit or
 * branch number (5 digits) and account number (7 to 12 digits). No public checksum exists.
 */

export function validateCaInstitutionNumber(value: string): string | null {
  return /^\d{3}$/.test(value) ? null : 'institution (bank) code must be exactly 3 digits';
}

export function validateCaTransitNumber(value: string): string | null {
  return /^\d{5}$/.test(value) ? null : 'transit (branch) code must be exactly 5 digits';
}

export function validateCaAccountNumber(value: string): string | null {
  return /^\d{7,12}$/.test(value) ? null : 'account number must be 7 to 12 digits';
}

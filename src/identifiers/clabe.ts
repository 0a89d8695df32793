/**
 * Mexican CLABE (18 digits: bank 3, city 3, account 11, check 1) through clabe-validator, which
 * also knows the bank and city codes, so a typo in the bank code is caught, not only the checksum.
 */
import { clabe } from 'clabe-validator';

export function validateClabe(value: string): string | null {
  if (!/^\d{18}$/.test(value)) return 'CLABE must be exactly 18 digits';
  const check = clabe.validate(value);
  if (check.ok) return null;
  if (!check.valid.bank) return 'CLABE bank code is unknown';
  if (!check.valid.city) return 'CLABE city code is unknown';
  return 'CLABE check digit is invalid';
}

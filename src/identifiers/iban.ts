/**
 * IBAN and BIC through ibantools (0 deps; checks the mod-97 check digits, the per-country BBAN
 * format and, for countries such as ES, FR, BE, the national check digits too).
 */
import { isValidBIC, isValidIBAN } from 'ibantools';

/** Electronic form of an IBAN as people type it: spaces removed, upper-cased. */
export function normalizeIban(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

export function validateIban(value: string): string | null {
  const iban = normalizeIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return 'IBAN must be a country code, 2 check digits and up to 30 letters or digits';
  // allowQRIBAN false: Swiss QR-IBANs only carry QR-bill payments, never a credit transfer to an account.
  if (!isValidIBAN(iban, { allowQRIBAN: false })) return 'IBAN checksum or country format is invalid';
  return null;
}

/** BIC / SWIFT code: 8 or 11 characters (bank, country, location, optional branch). */
export function validateBic(value: string): string | null {
  const bic = value.trim().toUpperCase();
  if (!/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(bic)) return 'BIC must be 8 or 11 letters or digits';
  if (!isValidBIC(bic)) return 'BIC is invalid (unknown country or malformed)';
  return null;
}

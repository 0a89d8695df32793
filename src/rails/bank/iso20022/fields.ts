/**
 * Checks of builder input, each throwing an IsoInputError that names the field: what the XSD
 * would refuse (lengths, patterns) is refused before any XML is written, with a message a person
 * can act on instead of an xmllint line number.
 */
import { isValidBIC, isValidIBAN } from 'ibantools';
import { currencyDecimals } from './amounts.js';
import { IsoInputError } from './errors.js';

/** An identifier of at most `max` characters, non-empty, without leading or trailing spaces. */
export function checkId(field: string, value: unknown, max = 35): string {
  if (typeof value !== 'string' || value === '') throw new IsoInputError(field, 'required');
  if (value.length > max) throw new IsoInputError(field, `${value.length} characters, at most ${max} allowed`);
  if (value.trim() !== value) throw new IsoInputError(field, 'leading or trailing spaces');
  if (!isXmlText(value) || /[\t\n\r]/.test(value)) throw new IsoInputError(field, 'contains a control character');
  return value;
}

export function checkIban(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isValidIBAN(value))
    throw new IsoInputError(field, `not a valid IBAN (electronic format, no spaces): ${JSON.stringify(value)}`);
  return value;
}

export function checkBic(field: string, value: unknown): string {
  if (typeof value !== 'string' || !isValidBIC(value) || !/^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value)) {
    throw new IsoInputError(field, `not a valid BIC (8 or 11 capital letters and digits): ${JSON.stringify(value)}`);
  }
  return value;
}

/** A non-IBAN account number (GenericAccountIdentification1/Id, Max34Text). */
export function checkAccountId(field: string, value: unknown): string {
  return checkId(field, value, 34);
}

export function checkCurrency(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z]{3}$/.test(value)) throw new IsoInputError(field, `not an ISO 4217 currency code: ${JSON.stringify(value)}`);
  return value;
}

/** The minor-unit digits to format an amount with: given, or from the currency. */
export function decimalsFor(field: string, currency: string, given: number | undefined): number {
  if (given === undefined) return currencyDecimals(currency);
  if (!Number.isInteger(given) || given < 0 || given > 5) throw new IsoInputError(field, `decimals must be an integer from 0 to 5, got ${given}`);
  return given;
}

export function checkPositiveAmount(field: string, value: unknown): bigint {
  if (typeof value !== 'bigint') throw new IsoInputError(field, 'must be a bigint of minor units');
  if (value <= 0n) throw new IsoInputError(field, `must be positive, got ${value}`);
  return value;
}

export function checkDate(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new IsoInputError(field, `not a date YYYY-MM-DD: ${JSON.stringify(value)}`);
  }
  return value;
}

/** An xs:dateTime with seconds and an explicit offset, so the bytes say when without a guess. */
export function checkDateTime(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new IsoInputError(field, `not a date-time like 2026-11-28T09:30:00Z: ${JSON.stringify(value)}`);
  }
  return value;
}

export function checkCountry(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z]{2}$/.test(value)) throw new IsoInputError(field, `not an ISO 3166 country code: ${JSON.stringify(value)}`);
  return value;
}

/** An ISO external code (status, reason, service level): 1 to 4 capital letters or digits. */
export function checkCode(field: string, value: unknown): string {
  if (typeof value !== 'string' || !/^[A-Z0-9]{1,4}$/.test(value)) throw new IsoInputError(field, `not an ISO 20022 code: ${JSON.stringify(value)}`);
  return value;
}

// Characters XML 1.0 cannot carry at all (C0 controls other than tab, newline and carriage return,
// lone surrogates, U+FFFE and U+FFFF).
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isXmlText(value: string): boolean {
  return !NOT_XML.test(value);
}

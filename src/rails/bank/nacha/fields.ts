/**
 * The field-level rules of the NACHA format shared by the writer and the reader: the character
 * set, how alphanumeric and numeric fields are padded, the ABA routing check digit, dates, and the
 * amount limit.
 */

/** Every record is 94 characters; a block is 10 records, the last one filled with "9" records. */
export const RECORD_LENGTH = 94;
export const BLOCKING_FACTOR = 10;
export const PADDING_RECORD = '9'.repeat(RECORD_LENGTH);

/** The Amount field has 10 digits: an entry is at most $99,999,999.99. */
export const MAX_ENTRY_AMOUNT = 9_999_999_999n;
/** Batch and file totals have 12 digits. */
export const MAX_TOTAL_AMOUNT = 999_999_999_999n;
/** Entry hash fields keep the last 10 digits of the sum of the 8-digit RDFI identifications. */
export const ENTRY_HASH_MODULUS = 10_000_000_000n;
/** A Same Day ACH entry may not exceed $1,000,000.00 (Nacha's per-payment limit since March 2022). */
export const SAME_DAY_ENTRY_LIMIT = 100_000_000n;

/**
 * The characters a field may hold: printable ASCII, space (0x20) to tilde (0x7E). This is the set
 * moov-io/ach accepts as alphanumeric (it also lets through a few Latin-1 letters, which are not
 * ASCII and which we never write). Anything else would be a different byte in EBCDIC or UTF-8 and
 * would shift the fixed columns for a reader counting bytes.
 */
export function isNachaChar(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

export function firstNonNachaChar(s: string): string | undefined {
  for (const ch of s) if (!isNachaChar(ch.codePointAt(0)!)) return ch;
  return undefined;
}

/** Letters that do not decompose into an ASCII letter plus accents under NFKD. */
const TRANSLITERATIONS: Record<string, string> = {
  ß: 'SS',
  ẞ: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Œ: 'OE',
  œ: 'OE',
  Ø: 'O',
  ø: 'O',
  Ł: 'L',
  ł: 'L',
  Đ: 'D',
  đ: 'D',
  Ð: 'D',
  ð: 'D',
  Þ: 'TH',
  þ: 'TH',
  ı: 'I',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
};

/**
 * Free text (names, descriptions, remittance information) made writable: accents removed
 * (é → E), a few letters spelled out (ß → SS), upper-cased, and any other character outside the
 * set replaced by one space, so that what follows keeps its place and a reader sees that something
 * was there. The result is then padded or refused by length like any other value.
 */
export function toNachaText(s: string): string {
  let out = '';
  for (const ch of s) {
    const mapped = TRANSLITERATIONS[ch];
    if (mapped !== undefined) {
      out += mapped;
      continue;
    }
    // NFKD splits "é" into "e" + a combining accent, and compatibility forms ("ﬁ", full-width
    // letters) into their ASCII letters; the combining marks are then dropped.
    const decomposed = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    let piece = '';
    for (const d of decomposed) piece += isNachaChar(d.codePointAt(0)!) ? d : ' ';
    out += piece === '' ? ' ' : piece;
  }
  return out.toUpperCase();
}

/** An alphanumeric field: left-justified, space-filled. The caller has checked the length. */
export function alpha(value: string, width: number): string {
  if (value.length > width) throw new RangeError(`"${value}" is longer than ${width}`);
  return value.padEnd(width, ' ');
}

/** A numeric field: right-justified, zero-filled. The caller has checked the range. */
export function numeric(value: bigint | number, width: number): string {
  const digits = value.toString();
  if (typeof value === 'bigint' ? value < 0n : value < 0 || !Number.isInteger(value)) throw new RangeError(`${value} is not a natural number`);
  if (digits.length > width) throw new RangeError(`${value} does not fit ${width} digits`);
  return digits.padStart(width, '0');
}

export const isDigits = (s: string, width?: number): boolean => /^[0-9]+$/.test(s) && (width === undefined || s.length === width);

/**
 * The check digit of an ABA routing number: the first eight digits weighted 3, 7, 1, 3, 7, 1, 3, 7;
 * the check digit brings the sum to a multiple of 10.
 */
export function abaCheckDigit(first8: string): number {
  if (!isDigits(first8, 8)) throw new RangeError(`"${first8}" is not 8 digits`);
  const weights = [3, 7, 1, 3, 7, 1, 3, 7];
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(first8[i]) * weights[i];
  return (10 - (sum % 10)) % 10;
}

/** Whether a string is a 9-digit routing number whose last digit is its ABA check digit. */
export function isValidRoutingNumber(s: string): boolean {
  return isDigits(s, 9) && abaCheckDigit(s.slice(0, 8)) === Number(s[8]);
}

/** Whether YYMMDD is a real calendar date (years 2000–2099, which is what a file can mean today). */
export function isValidYymmdd(s: string): boolean {
  if (!isDigits(s, 6)) return false;
  const year = 2000 + Number(s.slice(0, 2));
  const month = Number(s.slice(2, 4));
  const day = Number(s.slice(4, 6));
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether HHMM is a time on a 24-hour clock. */
export function isValidHhmm(s: string): boolean {
  return isDigits(s, 4) && Number(s.slice(0, 2)) < 24 && Number(s.slice(2, 4)) < 60;
}

/** Credits are transaction codes ending 1–4 (return/NOC, live, prenote, zero-dollar), debits 6–9. */
export function isCreditCode(code: number): boolean {
  return code % 10 >= 1 && code % 10 <= 4;
}

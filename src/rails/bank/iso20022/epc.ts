/**
 * The EPC's basic Latin character set for SEPA files (EPC217-08): a-z A-Z 0-9 / - ? : ( ) . , ' +
 * and space. Banks may reject, or silently mangle, anything else, so free text (names,
 * remittance information) is transliterated before it goes into a SEPA file; identifiers are
 * refused instead (they must come back unchanged in status reports and statements).
 */

const EPC_CHAR = /^[A-Za-z0-9/\-?:().,'+ ]$/;
export const EPC_TEXT = /^[A-Za-z0-9/\-?:().,'+ ]*$/;

// Letters that do not decompose into a base letter and accents (NFKD leaves them whole), and
// punctuation with a close EPC neighbour. Everything else decomposes or becomes REPLACEMENT.
const SPECIAL: Readonly<Record<string, string>> = {
  ß: 'ss',
  ẞ: 'SS',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
  ð: 'd',
  Ð: 'D',
  þ: 'th',
  Þ: 'TH',
  ı: 'i',
  ħ: 'h',
  Ħ: 'H',
  '&': '+',
  _: '-',
  '–': '-',
  '—': '-',
  '"': "'",
  '`': "'",
  '´': "'",
  '‘': "'",
  '’': "'",
  '“': "'",
  '”': "'",
  '[': '(',
  ']': ')',
  '{': '(',
  '}': ')',
  '<': '(',
  '>': ')',
  '\\': '/',
  ';': ',',
  '!': '.',
};

/** What a character with no EPC equivalent becomes: neutral, and never merges two words. */
export const REPLACEMENT = '.';

/**
 * `text` in the EPC character set: accents dropped (é→e, Ä→A), ligatures and special letters
 * spelled out (ß→ss, æ→ae, ø→o), whitespace of any kind as a space, other characters as ".".
 */
export function toEpcText(text: string): string {
  if (EPC_TEXT.test(text)) return text;
  let out = '';
  for (const char of text) {
    if (EPC_CHAR.test(char)) out += char;
    else if (SPECIAL[char] !== undefined) out += SPECIAL[char];
    else if (/\s/u.test(char)) out += ' ';
    else {
      const base = char.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every((c) => EPC_CHAR.test(c)) ? base : REPLACEMENT;
    }
  }
  return out;
}

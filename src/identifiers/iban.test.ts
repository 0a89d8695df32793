import { fc, test } from '@fast-check/vitest';
import { composeIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';
import { normalizeIban, validateBic, validateIban } from './iban.js';

const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });

describe('IBAN', () => {
  it('accepts public examples, with spaces and lower case', () => {
    for (const iban of [
      'DE89370400440532013000',
      'DE89 3704 0044 0532 0130 00',
      'GB29NWBK60161331926819',
      'fr1420041010050500013m02606',
      'NL91ABNA0417164300',
      'ES9121000418450200051332',
      'BE68539007547034',
      'IT60X0542811101000000123456',
      'IE29AIBK93115212345678',
      'PT50000201231234567890154',
    ]) {
      expect(validateIban(iban), iban).toBeNull();
    }
    expect(normalizeIban('de89 3704')).toBe('DE893704');
  });
  it('rejects a wrong checksum, unknown country, QR-IBAN', () => {
    expect(validateIban('DE89370400440532013001')).not.toBeNull();
    expect(validateIban('XX89370400440532013000')).not.toBeNull();
    expect(validateIban('CH4431999123000889012')).not.toBeNull();
    expect(validateIban('')).not.toBeNull();
  });

  test.prop([digits(8), digits(10)])('composed German IBANs validate', (blz, account) => {
    const iban = composeIBAN({ countryCode: 'DE', bban: blz + account });
    expect(iban).not.toBeNull();
    expect(validateIban(iban!)).toBeNull();
  });

  test.prop([digits(10), fc.integer({ min: 0, max: 9 }), fc.integer({ min: 1, max: 9 })])(
    'changing one digit of a composed Dutch IBAN fails',
    (account, pos, delta) => {
      const iban = composeIBAN({ countryCode: 'NL', bban: `ABNA${account}` })!;
      const i = 8 + pos; // a digit of the account part
      const changed = iban.slice(0, i) + String((Number(iban[i]) + delta) % 10) + iban.slice(i + 1);
      // mod 97 catches every single-character substitution
      expect(validateIban(changed)).not.toBeNull();
    },
  );
});

describe('BIC', () => {
  it('accepts 8 and 11 character codes', () => {
    expect(validateBic('COBADEFF')).toBeNull();
    expect(validateBic('COBADEFFXXX')).toBeNull();
    expect(validateBic('deutdeff500')).toBeNull();
  });
  const letters = (n: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), minLength: n, maxLength: n });
  const alnum = (n: number) => fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), minLength: n, maxLength: n });
  test.prop([letters(4), fc.constantFrom('DE', 'FR', 'ES', 'GB', 'US', 'BR'), alnum(2), fc.option(alnum(3), { nil: '' })])(
    'bank, a real country, location and an optional branch form a BIC; one character more or less does not',
    (bank, country, location, branch) => {
      const bic = `${bank}${country}${location}${branch}`;
      expect(validateBic(bic)).toBeNull();
      expect(validateBic(bic.toLowerCase())).toBeNull();
      expect(validateBic(bic.slice(0, -1))).not.toBeNull();
      expect(validateBic(`${bic}X`)).not.toBeNull();
    },
  );
  it('rejects malformed codes', () => {
    expect(validateBic('COBADEF')).not.toBeNull();
    expect(validateBic('COBAXXFFXXX')).not.toBeNull();
    expect(validateBic('COBADEFFXX')).not.toBeNull();
  });
});

import { fc, test } from '@fast-check/vitest';
import { cnpj, cpf } from 'cpf-cnpj-validator';
import { describe, expect, it } from 'vitest';
import { validateCnpj, validateCpf, validatePixKey } from './brazil.js';

const nine = fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 9, maxLength: 9 }).filter((s) => !/^(\d)\1{8}$/.test(s));
const withDigits = (base: string) => {
  const d1 = cpf.verifierDigit(base);
  return `${base}${d1}${cpf.verifierDigit(`${base}${d1}`)}`;
};

describe('CPF', () => {
  it('accepts valid numbers, bare or masked', () => {
    expect(validateCpf('29537995593')).toBeNull();
    expect(validateCpf('295.379.955-93')).toBeNull();
  });
  it('rejects wrong check digits and repeated digits', () => {
    expect(validateCpf('29537995594')).not.toBeNull();
    expect(validateCpf('11111111111')).not.toBeNull();
    expect(validateCpf('2953799559')).not.toBeNull();
  });
  test.prop([nine])('9 digits plus computed check digits validate', (base) => {
    expect(validateCpf(withDigits(base))).toBeNull();
  });
  // Only a changed CHECK digit is always caught: mod 11 maps remainders 0 and 1 to the same digit 0,
  // so some single-digit changes of the base leave both check digits unchanged (e.g. 917959727…).
  test.prop([nine, fc.integer({ min: 9, max: 10 }), fc.integer({ min: 1, max: 9 })])('a changed check digit fails', (base, pos, delta) => {
    const v = withDigits(base);
    const changed = v.slice(0, pos) + String((Number(v[pos]) + delta) % 10) + v.slice(pos + 1);
    expect(validateCpf(changed)).not.toBeNull();
  });
});

describe('CNPJ', () => {
  it('accepts numeric and the new alphanumeric form', () => {
    expect(validateCnpj('54550752000155')).toBeNull();
    expect(validateCnpj('54.550.752/0001-55')).toBeNull();
    expect(validateCnpj('12ABC34501DE35')).toBeNull();
    expect(validateCnpj('12.ABC.345/01DE-35')).toBeNull();
  });
  it('rejects wrong check digits and lower case', () => {
    expect(validateCnpj('54550752000156')).not.toBeNull();
    expect(validateCnpj('12abc34501de35')).not.toBeNull();
  });
});

describe('CNPJ properties', () => {
  const twelve = (alphabet: string) => fc.string({ unit: fc.constantFrom(...alphabet), minLength: 12, maxLength: 12 }).filter((s) => !/^(.)\1{11}$/.test(s));
  const withCnpjDigits = (base: string) => {
    const d1 = cnpj.verifierDigit(base);
    return `${base}${d1}${cnpj.verifierDigit(`${base}${d1}`)}`;
  };
  test.prop([twelve('0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ')])(
    '12 digits or capitals plus computed check digits validate, bare, masked and as a Pix key',
    (base) => {
      const v = withCnpjDigits(base);
      expect(validateCnpj(v)).toBeNull();
      expect(validateCnpj(`${v.slice(0, 2)}.${v.slice(2, 5)}.${v.slice(5, 8)}/${v.slice(8, 12)}-${v.slice(12)}`)).toBeNull();
      expect(validatePixKey('CNPJ', v)).toBeNull();
    },
  );
  test.prop([twelve('0123456789'), fc.integer({ min: 12, max: 13 }), fc.integer({ min: 1, max: 9 })])('a changed check digit fails', (base, pos, delta) => {
    const v = withCnpjDigits(base);
    expect(validateCnpj(v.slice(0, pos) + String((Number(v[pos]) + delta) % 10) + v.slice(pos + 1))).not.toBeNull();
  });
});

describe('Pix key properties', () => {
  const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  test.prop([digits(0, 14)])('PHONE: +55 and 10 or 11 digits', (d) => {
    expect(validatePixKey('PHONE', `+55${d}`) === null).toBe(d.length === 10 || d.length === 11);
  });
  test.prop([fc.uuid()])('RANDOM: any UUID, either case', (u) => {
    expect(validatePixKey('RANDOM', u)).toBeNull();
    expect(validatePixKey('RANDOM', u.toUpperCase())).toBeNull();
    expect(validatePixKey('RANDOM', u.replace(/-/g, ''))).not.toBeNull();
  });
  test.prop([nine])('CPF keys must be bare: the masked form of a valid CPF is refused', (base) => {
    const v = withDigits(base);
    expect(validatePixKey('CPF', v)).toBeNull();
    expect(validatePixKey('CPF', `${v.slice(0, 3)}.${v.slice(3, 6)}.${v.slice(6, 9)}-${v.slice(9)}`)).not.toBeNull();
  });
  const word = fc.string({ unit: fc.constantFrom(...'abcxyz0189'), minLength: 1, maxLength: 20 });
  test.prop([word, word, fc.constantFrom('com', 'com.br', 'org')])('EMAIL: user@domain.tld up to 77 characters', (user, domain, tld) => {
    expect(validatePixKey('EMAIL', `${user}@${domain}.${tld}`)).toBeNull();
    expect(validatePixKey('EMAIL', `${user}@${domain}`)).not.toBeNull();
  });
});

describe('Pix key', () => {
  it('dispatches on the declared type', () => {
    expect(validatePixKey('CPF', '29537995593')).toBeNull();
    expect(validatePixKey('CPF', '295.379.955-93')).not.toBeNull();
    expect(validatePixKey('CNPJ', '54550752000155')).toBeNull();
    expect(validatePixKey('CNPJ', '12ABC34501DE35')).toBeNull();
    expect(validatePixKey('EMAIL', 'maria.silva@example.com.br')).toBeNull();
    expect(validatePixKey('EMAIL', 'maria.silva')).not.toBeNull();
    expect(validatePixKey('PHONE', '+5511987654321')).toBeNull();
    expect(validatePixKey('PHONE', '+551187654321')).toBeNull();
    expect(validatePixKey('PHONE', '11987654321')).not.toBeNull();
    expect(validatePixKey('RANDOM', '123e4567-e89b-12d3-a456-426614174000')).toBeNull();
    expect(validatePixKey('RANDOM', '123e4567e89b12d3a456426614174000')).not.toBeNull();
    expect(validatePixKey('IBAN', 'x')).toMatch(/pixKeyType/);
  });
  it('does not guess: 11 digits are a CPF only when declared so', () => {
    // a valid CPF is not a phone key without +55
    expect(validatePixKey('PHONE', '29537995593')).not.toBeNull();
  });
});

import { fc, test } from '@fast-check/vitest';
import { cpf } from 'cpf-cnpj-validator';
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

/**
 * Brazilian tax ids and Pix keys. CPF/CNPJ through cpf-cnpj-validator, which already accepts the
 * alphanumeric CNPJ of RFB Nota Técnica 49/2024 (mandatory from July 2026). Pix keys dispatch on the
 * declared pixKeyType (LIBRARIES.md): 11 digits could be a CPF or a phone number, so guessing is wrong.
 */
import { cnpj, cpf } from 'cpf-cnpj-validator';

export const PIX_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

/** CPF: 11 digits, optionally in the official mask 000.000.000-00; two mod-11 check digits. */
export function validateCpf(value: string): string | null {
  if (!/^(\d{11}|\d{3}\.\d{3}\.\d{3}-\d{2})$/.test(value)) return 'CPF must be 11 digits';
  // strict mode: only the official mask is stripped; repeated-digit numbers (111.111.111-11) fail.
  if (!cpf.isValid(value, true)) return 'CPF check digits are invalid';
  return null;
}

/**
 * CNPJ: 14 characters, the first 12 digits or (new format) upper-case letters, the last 2 numeric
 * check digits; optionally masked as XX.XXX.XXX/XXXX-YY.
 */
export function validateCnpj(value: string): string | null {
  if (!/^([0-9A-Z]{12}\d{2}|[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2})$/.test(value)) {
    return 'CNPJ must be 14 characters (12 letters or digits and 2 check digits)';
  }
  if (!cnpj.isValid(value, true)) return 'CNPJ check digits are invalid';
  return null;
}

// A pragmatic e-mail shape (Pix keys are at most 77 characters, per the DICT rules).
const EMAIL = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const BR_PHONE = /^\+55\d{10,11}$/;
// Random keys (EVP) are UUIDs, written lower-case by the DICT; we accept either case.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pix key: registered keys are stored unmasked, so CPF and CNPJ keys must be bare characters. */
export function validatePixKey(type: string, key: string): string | null {
  switch (type) {
    case 'CPF':
      if (!/^\d{11}$/.test(key)) return 'CPF pix key must be 11 digits without punctuation';
      return validateCpf(key);
    case 'CNPJ':
      if (!/^[0-9A-Z]{12}\d{2}$/.test(key)) return 'CNPJ pix key must be 14 characters without punctuation';
      return validateCnpj(key);
    case 'EMAIL':
      if (key.length > 77) return 'email pix key must be at most 77 characters';
      return EMAIL.test(key) ? null : 'email pix key is not a valid email address';
    case 'PHONE':
      return BR_PHONE.test(key) ? null : 'phone pix key must be +55 followed by 10 or 11 digits';
    case 'RANDOM':
      return UUID.test(key) ? null : 'random pix key must be a UUID';
    default:
      return `pixKeyType must be one of ${PIX_KEY_TYPES.join(', ')}`;
  }
}

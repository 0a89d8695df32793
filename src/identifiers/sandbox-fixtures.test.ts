import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderSandboxIdentifiers } from '../../scripts/sandbox-identifiers.js';
import { currency } from '../common/currencies.js';
import { isKnownBankName } from '../modules/discoveries/catalogue.js';
import { validateAbaRoutingNumber, validateUsAccountNumber } from './aba.js';
import { validateCaAccountNumber, validateCaInstitutionNumber, validateCaTransitNumber } from './canada.js';
import { validateNgnAccountNumber, validatePhpAccountNumber, validateZarAccountNumber } from './bank-digits.js';
import { validateCpf, validatePixKey } from './brazil.js';
import { validateClabe } from './clabe.js';
import { validateCryptoAddress } from './crypto.js';
import { validateBic, validateIban } from './iban.js';
import { validateMobileMoneyPhone, validateMobileMoneyProvider } from './mobile-money.js';
import {
  SANDBOX_ACCOUNT_TYPES,
  SANDBOX_SUFFIXES,
  SandboxSuffixImpossibleError,
  sandboxIdentifier,
  sandboxSuffixOf,
  sandboxVariants,
  type SandboxIdentifier,
} from './sandbox-fixtures.js';
import { validateSortCode, validateUkAccountNumber, validateUkModulus } from './uk.js';
import { validateUpiVpa } from './upi.js';

const str = (v: unknown) => v as string;

/** Every check the External Accounts module will run, per account type (production-strength). */
function problems(id: SandboxIdentifier): (string | null)[] {
  const a = id.accountInfo;
  switch (id.accountType) {
    case 'US_ACCOUNT':
      return [validateUsAccountNumber(str(a.accountNumber)), validateAbaRoutingNumber(str(a.routingNumber))];
    case 'CLABE':
      return [validateClabe(str(a.clabeNumber))];
    case 'PIX':
      return [validatePixKey(str(a.pixKeyType), str(a.pixKey)), validateCpf(str(a.taxId))];
    case 'IBAN':
      return [validateIban(str(a.iban)), validateBic(str(a.swiftBic)), str(a.swiftBic).slice(4, 6) === id.variant ? null : 'BIC country'];
    case 'GBP_ACCOUNT':
      return [validateSortCode(str(a.sortCode)), validateUkAccountNumber(str(a.accountNumber)), validateUkModulus(str(a.sortCode), str(a.accountNumber))];
    case 'PHP_ACCOUNT':
      return [validatePhpAccountNumber(str(a.accountNumber)), isKnownBankName('PH', str(a.bankName)) ? null : 'bank'];
    case 'UPI':
      return [validateUpiVpa(str(a.vpa))];
    case 'NGN_ACCOUNT':
      return [validateNgnAccountNumber(str(a.accountNumber)), isKnownBankName('NG', str(a.bankName)) ? null : 'bank'];
    case 'ZAR_ACCOUNT':
      return [validateZarAccountNumber(str(a.accountNumber)), isKnownBankName('ZA', str(a.bankName)) ? null : 'bank'];
    case 'CAD_ACCOUNT':
      return [validateCaAccountNumber(str(a.accountNumber)), validateCaInstitutionNumber(str(a.bankCode)), validateCaTransitNumber(str(a.branchCode))];
    case 'LAYER2_WALLET':
    case 'EVM_WALLET':
    case 'SOLANA_WALLET':
      return [validateCryptoAddress(id.cryptoNetwork!, str(a.address))];
    default:
      // mobile money
      return [validateMobileMoneyPhone(id.currency, str(a.phoneNumber)), validateMobileMoneyProvider(id.currency, str(a.provider), str(a.phoneNumber))];
  }
}

/** Which (type, variant, suffix) combinations cannot exist, and why. */
function impossible(accountType: string, variant: string, suffix: string): boolean {
  if (variant === 'SPARK') return suffix.includes('1');
  if (variant === 'FR') return !(Number(suffix.slice(1)) >= 1 && Number(suffix.slice(1)) <= 97);
  return false;
}

describe('sandboxSuffixOf', () => {
  it('reads the last 3 characters, of the username when there is an @', () => {
    expect(sandboxSuffixOf('DE89370400440532013000')).toBe('000');
    expect(sandboxSuffixOf('sandbox105@okaxis')).toBe('105');
    expect(sandboxSuffixOf('+254712345109')).toBe('109');
  });
  it("reads a lower-case 'o' as '0' in a Solana address (base58 has no '0'), and nowhere else", () => {
    const solana = (end: string) => `EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTD${end}`;
    expect(validateCryptoAddress('SOLANA_MAINNET', solana('1o5'))).toBeNull();
    expect(sandboxSuffixOf(solana('1o5'))).toBe('105');
    expect(sandboxSuffixOf(solana('ooo'))).toBe('000');
    expect(sandboxSuffixOf(solana('t1v'))).toBe('t1v');
    // not Solana addresses: read as written
    expect(sandboxSuffixOf('hello1o5@okaxis')).toBe('1o5');
    expect(sandboxSuffixOf('DE8937040044053201o')).toBe('01o');
    expect(sandboxSuffixOf(`${solana('1o5')}x`)).toBe('o5x');
  });
});

describe('sandbox identifiers', () => {
  it('cover every account type the brief lists', () => {
    for (const t of [
      'US_ACCOUNT',
      'CLABE',
      'PIX',
      'IBAN',
      'GBP_ACCOUNT',
      'PHP_ACCOUNT',
      'UPI',
      'NGN_ACCOUNT',
      'ZAR_ACCOUNT',
      'KES_ACCOUNT',
      'TZS_ACCOUNT',
      'ZMW_ACCOUNT',
      'RWF_ACCOUNT',
      'MWK_ACCOUNT',
      'UGX_ACCOUNT',
      'XOF_ACCOUNT',
      'CAD_ACCOUNT',
      'LAYER2_WALLET',
      'EVM_WALLET',
    ]) {
      expect(SANDBOX_ACCOUNT_TYPES).toContain(t);
    }
    expect(sandboxVariants('PIX')).toEqual(['CPF', 'EMAIL']);
    expect(sandboxVariants('IBAN')).toContain('DE');
  });

  const cases = SANDBOX_ACCOUNT_TYPES.flatMap((t) => sandboxVariants(t).map((v) => [t, v] as const));
  describe.each(cases)('%s (%s)', (accountType, variant) => {
    it.each([...SANDBOX_SUFFIXES])('suffix %s: valid and ending in the suffix, or impossible', (suffix) => {
      if (impossible(accountType, variant, suffix)) {
        expect(() => sandboxIdentifier(accountType, suffix, variant)).toThrow(SandboxSuffixImpossibleError);
        return;
      }
      const id = sandboxIdentifier(accountType, suffix, variant);
      expect(id.accountType).toBe(accountType);
      expect(id.accountInfo[id.primaryField]).toBe(id.primary);
      expect(sandboxSuffixOf(id.primary)).toBe(suffix);
      expect(problems(id).filter((p) => p !== null)).toEqual([]);
      if (id.accountInfo.bankName !== undefined) {
        const country = /^[A-Z]{2}$/.test(variant) ? variant : currency(id.currency).countries[0];
        expect(isKnownBankName(country, str(id.accountInfo.bankName)), `${country} ${str(id.accountInfo.bankName)}`).toBe(true);
      }
      // deterministic: the same call gives the same identifier
      expect(sandboxIdentifier(accountType, suffix, variant)).toEqual(id);
    });
  });

  it('are published: docs/sandbox-test-identifiers.md is the generator output (npx tsx scripts/sandbox-identifiers.ts > docs/sandbox-test-identifiers.md)', () => {
    expect(fs.readFileSync(new URL('../../docs/sandbox-test-identifiers.md', import.meta.url), 'utf8')).toBe(renderSandboxIdentifiers());
  });

  it('rejects bad suffixes and unknown types', () => {
    expect(() => sandboxIdentifier('US_ACCOUNT', '12')).toThrow(/3 digits/);
    expect(() => sandboxIdentifier('US_ACCOUNT', 'abc')).toThrow(/3 digits/);
    expect(() => sandboxIdentifier('CHEQUE', '002')).toThrow(/unknown/);
    expect(() => sandboxIdentifier('IBAN', '002', 'XX')).toThrow(/unknown variant/);
  });
});

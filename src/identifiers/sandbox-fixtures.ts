/**
 * Sandbox test identifiers, "like a card network's test numbers".
 *
 * The sandbox picks an outcome from the LAST 3 CHARACTERS of an external account's primary
 * identifier (account number, IBAN, CLABE, pix key, phone number, wallet address); for identifiers
 * with a domain part (UPI VPA, Lightning address, e-mail pix key) from the last 3 characters of the
 * username before '@'. Check digits pin some of those characters, so an arbitrary "…105" fails its
 * checksum. `sandboxIdentifier` searches the FREE digits deterministically until the identifier is
 * valid AND ends in the requested suffix, and returns it with the companion fields that must match
 * (routing number, sort code, BIC, bank name, provider, network).
 *
 * base58 (Solana) has no '0', which every suffix of the spec's tables contains, so in a Solana
 * address the sandbox reads a lower-case 'o' as '0' (…1o5 is suffix 105); `sandboxSuffixOf` does it.
 *
 * Some formats cannot end in some suffixes; those throw SandboxSuffixImpossibleError:
 * - bech32/bech32m (Spark) has no '1', 'b', 'i', 'o', so no 1xx suffix (LAYER2_WALLET takes a
 *   Lightning address for those);
 * - the French RIB key is 01..97, so a French IBAN cannot end in x00, x98 or x99.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base58, bech32m } from '@scure/base';
import { clabe } from 'clabe-validator';
import { cpf } from 'cpf-cnpj-validator';
import { composeIBAN } from 'ibantools';
import { validateAccountDetails } from 'uk-modulus-check';
import { validateClabe } from './clabe.js';
import { validateCpf } from './brazil.js';
import { validateIban } from './iban.js';
import { nubanCheckDigit } from './bank-digits.js';
import { toChecksumAddress, validateCryptoAddress, validateSolanaAddress } from './crypto.js';

export class SandboxSuffixImpossibleError extends Error {
  constructor(accountType: string, variant: string, suffix: string, why: string) {
    super(`no valid ${accountType} (${variant}) identifier can end in ${suffix}: ${why}`);
    this.name = 'SandboxSuffixImpossibleError';
  }
}

export type AccountInfoValue = string | string[];

export interface SandboxIdentifier {
  accountType: string;
  /** Which flavour of the account type (IBAN country, pix key type, XOF country, wallet kind). */
  variant: string;
  currency: string;
  /** Present for crypto wallets. */
  cryptoNetwork?: string;
  /** Name of the accountInfo field whose suffix the sandbox reads. */
  primaryField: string;
  primary: string;
  /** accountInfo without the beneficiary: accountType, the primary field and its companions. */
  accountInfo: Record<string, AccountInfoValue>;
}

/**
 * The sandbox suffix of an identifier: last 3 characters, of the username part if it has an '@'.
 * A Solana address cannot hold a '0' (base58), so there a lower-case 'o' reads as '0'.
 */
export function sandboxSuffixOf(identifier: string): string {
  const at = identifier.indexOf('@');
  const subject = at >= 0 ? identifier.slice(0, at) : identifier;
  const suffix = subject.slice(-3);
  return suffix.includes('o') && validateSolanaAddress(subject) === null ? suffix.replace(/o/g, '0') : suffix;
}

/** Suffixes with a documented behaviour (spec "Sandbox test patterns"), plus 000 as "success". */
export const SANDBOX_SUFFIXES = ['000', '002', '003', '004', '005', '006', '007', '102', '103', '104', '105', '106', '107', '108', '109'] as const;

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const MAX_TRIES = 1_000_000;

type Builder = (suffix: string) => SandboxIdentifier;

// ---------------------------------------------------------------- banks

function usAccount(suffix: string): SandboxIdentifier {
  // 021000021: JPMorgan Chase's published New York routing number (valid 3-7-1 checksum).
  const accountNumber = `1234567${suffix}`;
  return bank('US_ACCOUNT', 'US', 'USD', 'accountNumber', accountNumber, {
    routingNumber: '021000021',
    accountCategory: 'CHECKING',
    bankName: 'JPMORGAN CHASE BANK',
    paymentRails: ['ACH', 'WIRE'],
  });
}

function clabeAccount(suffix: string): SandboxIdentifier {
  // Bank 002 (Banamex), plaza 180 (Mexico City). The check digit is the last character, so the
  // account's last two digits are the suffix's first two and we vary the account's leading digits.
  for (let n = 0; n < 10_000_000; n++) {
    const account = Number(`1${pad(n, 8)}${suffix.slice(0, 2)}`);
    const number = clabe.calculate(2, 180, account);
    if (number.endsWith(suffix) && validateClabe(number) === null) {
      return bank('CLABE', 'MX', 'MXN', 'clabeNumber', number, { bankName: 'BANAMEX' });
    }
  }
  throw new Error(`CLABE search exhausted for ${suffix}`);
}

function pixCpf(suffix: string): SandboxIdentifier {
  // CPF: 9 base digits + 2 check digits. The 9th digit is the suffix's first; search the first 8.
  for (let n = 0; n < MAX_TRIES; n++) {
    const base = `${pad(31415926 + n * 7, 8)}${suffix[0]}`;
    const d1 = cpf.verifierDigit(base);
    const d2 = cpf.verifierDigit(`${base}${d1}`);
    const key = `${base}${d1}${d2}`;
    if (key.endsWith(suffix) && validateCpf(key) === null) {
      return bank('PIX', 'CPF', 'BRL', 'pixKey', key, { pixKeyType: 'CPF', taxId: key, bankName: 'NU PAGAMENTOS' });
    }
  }
  throw new Error(`CPF search exhausted for ${suffix}`);
}

function pixEmail(suffix: string): SandboxIdentifier {
  // The sandbox reads the username before '@'. The taxId is a fixed valid CPF.
  return bank('PIX', 'EMAIL', 'BRL', 'pixKey', `sandbox${suffix}@example.com`, { pixKeyType: 'EMAIL', taxId: '29537995593', bankName: 'NU PAGAMENTOS' });
}

/** Search the free digits of a BBAN; `make(n)` returns a candidate BBAN for counter n. */
function ibanSearch(country: string, suffix: string, make: (n: number) => string, limit: number): string | undefined {
  for (let n = 0; n < limit; n++) {
    const iban = composeIBAN({ countryCode: country, bban: make(n) });
    if (iban && iban.endsWith(suffix) && validateIban(iban) === null) return iban;
  }
  return undefined;
}

function ibanDe(suffix: string): SandboxIdentifier {
  // Germany: BLZ (8) + account (10), no national check digit that ibantools enforces; the IBAN's
  // own check digits sit at positions 3-4, so the account can end in anything. BLZ 37040044 is
  // Commerzbank Köln (the BLZ of the well-known example DE89 3704 0044 0532 0130 00).
  const iban = ibanSearch('DE', suffix, (n) => `37040044${pad(532013 + n, 7)}${suffix}`, 10);
  if (!iban) throw new Error(`DE IBAN search failed for ${suffix}`);
  return bank('IBAN', 'DE', 'EUR', 'iban', iban, { swiftBic: 'COBADEFFXXX', bankName: 'COMMERZBANK' });
}

function ibanEs(suffix: string): SandboxIdentifier {
  // Spain: bank 2100 (CaixaBank) + branch 0418 + 2 national check digits (DC) + account 10. The DC
  // sits in the middle, so we search it; the account's last 3 digits are the suffix.
  const iban = ibanSearch('ES', suffix, (n) => `21000418${pad(n % 100, 2)}${pad(200051 + Math.floor(n / 100), 7)}${suffix}`, 100_000);
  if (!iban) throw new Error(`ES IBAN search failed for ${suffix}`);
  return bank('IBAN', 'ES', 'EUR', 'iban', iban, { swiftBic: 'CAIXESBBXXX', bankName: 'CAIXABANK' });
}

function ibanFr(suffix: string): SandboxIdentifier {
  // France: bank 30004 (BNP Paribas) + branch 00001 + account 11 + RIB key 2 (97 − x mod 97, so
  // 01..97). The last 3 characters are the account's last digit and the key.
  const key = Number(suffix.slice(1));
  if (key < 1 || key > 97) throw new SandboxSuffixImpossibleError('IBAN', 'FR', suffix, 'the French RIB key is 01..97');
  const iban = ibanSearch('FR', suffix, (n) => `3000400001${pad(1234567 + n, 10)}${suffix}`, 100_000);
  if (!iban) throw new Error(`FR IBAN search failed for ${suffix}`);
  return bank('IBAN', 'FR', 'EUR', 'iban', iban, { swiftBic: 'BNPAFRPPXXX', bankName: 'BNP PARIBAS' });
}

function gbpAccount(suffix: string): SandboxIdentifier {
  // 60-16-13 is a NatWest sort code inside a Vocalink MOD11 range, so the modulus check is really
  // exercised (unknown sort codes pass any account in uk-modulus-check).
  const sortCode = '601613';
  for (let n = 0; n < 100_000; n++) {
    const accountNumber = `${pad(31926 + n, 5).slice(-5)}${suffix}`;
    if (validateAccountDetails(sortCode, accountNumber)) {
      return bank('GBP_ACCOUNT', 'GB', 'GBP', 'accountNumber', accountNumber, { sortCode, bankName: 'NATWEST', paymentRails: ['FASTER_PAYMENTS'] });
    }
  }
  throw new Error(`UK modulus search exhausted for ${suffix}`);
}

function phpAccount(suffix: string): SandboxIdentifier {
  return bank('PHP_ACCOUNT', 'PH', 'PHP', 'accountNumber', `0012345${suffix}`, { bankName: 'BDO UNIBANK', paymentRails: ['BANK_TRANSFER'] });
}

function upi(suffix: string): SandboxIdentifier {
  return bank('UPI', 'IN', 'INR', 'vpa', `sandbox${suffix}@okaxis`, {});
}

function ngnAccount(suffix: string): SandboxIdentifier {
  // Only 10 digits are enforced, but the fixture is also a correct NUBAN for Access Bank's CBN code
  // 044: the 10th digit is the NUBAN check digit, so we search the serial's leading digits.
  for (let n = 0; n < 10_000_000; n++) {
    const serial = `${pad(1234567 + n, 7).slice(-7)}${suffix.slice(0, 2)}`;
    const check = nubanCheckDigit('044', serial);
    if (String(check) === suffix[2]) return bank('NGN_ACCOUNT', 'NG', 'NGN', 'accountNumber', `${serial}${check}`, { bankName: 'ACCESS BANK' });
  }
  throw new Error(`NUBAN search exhausted for ${suffix}`);
}

function zarAccount(suffix: string): SandboxIdentifier {
  return bank('ZAR_ACCOUNT', 'ZA', 'ZAR', 'accountNumber', `1012345${suffix}`, { bankName: 'STANDARD BANK' });
}

function cadAccount(suffix: string): SandboxIdentifier {
  // Institution 001 is Bank of Montreal; transit 00011 is a five-digit branch number.
  return bank('CAD_ACCOUNT', 'CA', 'CAD', 'accountNumber', `1234${suffix}`, { bankCode: '001', branchCode: '00011' });
}

// ---------------------------------------------------------------- mobile money

function mobile(accountType: string, variant: string, currency: string, prefix: string, provider: string): Builder {
  return (suffix) => bank(accountType, variant, currency, 'phoneNumber', `${prefix}${suffix}`, { provider });
}

// ---------------------------------------------------------------- wallets

function lightningAddress(suffix: string): SandboxIdentifier {
  return wallet('LAYER2_WALLET', 'LIGHTNING_ADDRESS', 'BTC', 'LAYER2_TESTNET', `sandbox${suffix}@example.com`);
}

/**
 * Found by running the search below from 0; the search still runs from the hint, so a wrong hint
 * costs time, never correctness. Each try is a point addition (~60 µs), ~32k tries per suffix.
 */
const SPARK_HINTS: Record<string, number> = { '000': 36933, '002': 79868, '003': 88759, '004': 29347, '005': 22171, '006': 13742, '007': 98671 };

/** Deterministic search over real secp256k1 keys k·G, k = K0 + n, from n = start. */
export function sparkSearch(suffix: string, start = 0): { n: number; address: string } {
  // The address's last 6 characters are its checksum, so only search can place the suffix.
  const G = secp256k1.Point.BASE;
  let P = G.multiply(BigInt(0x5a4d_b0c5 + start));
  for (let n = start; n < start + 2_000_000; n++, P = P.add(G)) {
    const payload = new Uint8Array(35);
    payload[0] = 0x0a;
    payload[1] = 0x21;
    payload.set(P.toBytes(true), 2);
    const address = bech32m.encode('sparkrt', bech32m.toWords(payload), false);
    if (address.endsWith(suffix)) return { n, address };
  }
  throw new Error(`Spark search exhausted for ${suffix}`);
}

function sparkAddress(suffix: string): SandboxIdentifier {
  const bad = suffix.match(/[1bio]/);
  if (bad) throw new SandboxSuffixImpossibleError('LAYER2_WALLET', 'SPARK', suffix, `bech32m has no '${bad[0]}'`);
  const { address } = sparkSearch(suffix, SPARK_HINTS[suffix] ?? 0);
  return wallet('LAYER2_WALLET', 'SPARK', 'BTC', 'LAYER2_TESTNET', address);
}

function evmWallet(suffix: string): SandboxIdentifier {
  // 37 hex digits from a fixed hash, then the suffix. EIP-55 only changes the case of letters,
  // so the checksummed form still ends in the (digit) suffix.
  const body = Buffer.from(sha256(new TextEncoder().encode('corridor sandbox evm')))
    .toString('hex')
    .slice(0, 37);
  return wallet('EVM_WALLET', 'EVM', 'USDC', 'BASE_TESTNET', toChecksumAddress(`0x${body}${suffix}`));
}

function solanaWallet(suffix: string): SandboxIdentifier {
  // base58 has no '0': the address ends in the suffix written with 'o' for '0' (see sandboxSuffixOf).
  const written = suffix.replace(/0/g, 'o');
  for (let n = 0; n < 1000; n++) {
    const seed = sha256(new TextEncoder().encode(`corridor sandbox solana ${n}`));
    const encoded = base58.encode(seed);
    const address = encoded.slice(0, -3) + written;
    if (validateCryptoAddress('SOLANA_DEVNET', address) === null) return wallet('SOLANA_WALLET', 'SOLANA', 'USDC', 'SOLANA_DEVNET', address);
  }
  throw new Error(`Solana search exhausted for ${suffix}`);
}

// ---------------------------------------------------------------- table

function bank(
  accountType: string,
  variant: string,
  currency: string,
  primaryField: string,
  primary: string,
  rest: Record<string, AccountInfoValue>,
): SandboxIdentifier {
  return { accountType, variant, currency, primaryField, primary, accountInfo: { accountType, [primaryField]: primary, ...rest } };
}

function wallet(accountType: string, variant: string, currency: string, cryptoNetwork: string, address: string): SandboxIdentifier {
  return { accountType, variant, currency, cryptoNetwork, primaryField: 'address', primary: address, accountInfo: { accountType, address } };
}

/** Every account type and its variants; the first variant is the default. */
const BUILDERS: Record<string, Record<string, Builder>> = {
  US_ACCOUNT: { US: usAccount },
  CLABE: { MX: clabeAccount },
  PIX: { CPF: pixCpf, EMAIL: pixEmail },
  IBAN: { DE: ibanDe, ES: ibanEs, FR: ibanFr },
  GBP_ACCOUNT: { GB: gbpAccount },
  PHP_ACCOUNT: { PH: phpAccount },
  UPI: { IN: upi },
  NGN_ACCOUNT: { NG: ngnAccount },
  ZAR_ACCOUNT: { ZA: zarAccount },
  // Operator prefixes: Safaricom 071x, Vodacom TZ 075x, MTN Zambia 096x, MTN Rwanda 078x,
  // Airtel Malawi 099x, MTN Uganda 077x, Orange Senegal 77x, Orange CI 07x, MTN Benin (01)97x.
  KES_ACCOUNT: { KE: mobile('KES_ACCOUNT', 'KE', 'KES', '+254712345', 'MPESA') },
  TZS_ACCOUNT: { TZ: mobile('TZS_ACCOUNT', 'TZ', 'TZS', '+255754321', 'VODACOM') },
  ZMW_ACCOUNT: { ZM: mobile('ZMW_ACCOUNT', 'ZM', 'ZMW', '+260961234', 'MTN') },
  RWF_ACCOUNT: { RW: mobile('RWF_ACCOUNT', 'RW', 'RWF', '+250781234', 'MTN') },
  MWK_ACCOUNT: { MW: mobile('MWK_ACCOUNT', 'MW', 'MWK', '+265991234', 'AIRTEL') },
  UGX_ACCOUNT: { UG: mobile('UGX_ACCOUNT', 'UG', 'UGX', '+256771234', 'MTN') },
  XOF_ACCOUNT: {
    SN: mobile('XOF_ACCOUNT', 'SN', 'XOF', '+221771234', 'ORANGE'),
    CI: mobile('XOF_ACCOUNT', 'CI', 'XOF', '+2250712345', 'ORANGE'),
    BJ: mobile('XOF_ACCOUNT', 'BJ', 'XOF', '+2290197123', 'MTN'),
  },
  CAD_ACCOUNT: { CA: cadAccount },
  LAYER2_WALLET: { LIGHTNING_ADDRESS: lightningAddress, SPARK: sparkAddress },
  EVM_WALLET: { EVM: evmWallet },
  SOLANA_WALLET: { SOLANA: solanaWallet },
};

export const SANDBOX_ACCOUNT_TYPES: readonly string[] = Object.keys(BUILDERS);

export function sandboxVariants(accountType: string): string[] {
  const b = BUILDERS[accountType];
  if (!b) throw new Error(`unknown sandbox account type ${accountType}; one of ${SANDBOX_ACCOUNT_TYPES.join(', ')}`);
  return Object.keys(b);
}

/**
 * A complete, valid example primary identifier (with its companion fields) for an account type whose
 * sandbox suffix is `suffix` (3 digits). Throws SandboxSuffixImpossibleError when the format cannot
 * end in that suffix.
 */
export function sandboxIdentifier(accountType: string, suffix: string, variant?: string): SandboxIdentifier {
  if (!/^\d{3}$/.test(suffix)) throw new Error('suffix must be exactly 3 digits');
  const variants = sandboxVariants(accountType);
  const v = variant ?? variants[0];
  const build = BUILDERS[accountType][v];
  if (!build) throw new Error(`unknown variant ${v} of ${accountType}; one of ${variants.join(', ')}`);
  return build(suffix);
}

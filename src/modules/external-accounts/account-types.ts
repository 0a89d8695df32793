import { Type, type TSchema } from 'typebox';
import { AddressInput, CountryCode, DateOnly, Text } from '../../common/schemas.js';
import { PIX_KEY_TYPES } from '../../identifiers/brazil.js';
import { CRYPTO_NETWORKS } from '../../identifiers/crypto.js';

/**
 * The account types of the spec's "accountInfo by accountType" table: the fields each takes (as
 * TypeBox schemas, checked by the same Ajv as request bodies) and the facts the rules need. The
 * checks beyond shape (checksums, catalogue, operators) live in rules.ts.
 */
export const BENEFICIARY_TYPES = ['INDIVIDUAL', 'BUSINESS'] as const;

export const BeneficiaryInput = Type.Object(
  {
    beneficiaryType: Type.Enum(BENEFICIARY_TYPES, { default: 'INDIVIDUAL' }),
    fullName: Text(200, { description: 'Account holder name, compared with the name the rail holds' }),
    birthDate: Type.Optional(DateOnly),
    nationality: Type.Optional(CountryCode),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    phoneNumber: Type.Optional(Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, e.g. +447700900123' })),
    countryOfResidence: Type.Optional(CountryCode),
    address: Type.Optional(AddressInput),
  },
  { additionalProperties: false },
);

/** Spellings the spec shows for one type; responses use the key (see docs/accounts.md). */
export const ACCOUNT_TYPE_ALIASES: Record<string, string> = { USD_ACCOUNT: 'US_ACCOUNT', IBAN_ACCOUNT: 'IBAN' };

export interface AccountTypeSpec {
  /** Currencies the type pays out in. */
  currencies: readonly string[];
  /** The accountInfo field whose last 3 characters drive the sandbox. */
  primaryField: string;
  beneficiary: 'required' | 'optional';
  /** Networks a wallet lives on; undefined for bank and mobile-money types. */
  networks?: readonly string[];
  /** Country whose catalogue bankName must match (GET /discoveries). */
  bankNameCountry?: string;
  defaultRails?: readonly string[];
  fields: Record<string, TSchema>;
}

const digits = (description: string) => Text(34, { description });
const rails = (allowed: readonly string[]) => Type.Optional(Type.Array(Type.Enum(allowed), { minItems: 1, uniqueItems: true, description: `Default ${allowed[0]}` }));
const bankName = (required: boolean) => (required ? Text(100, { description: 'Exactly a bankName of GET /discoveries for the country' }) : Type.Optional(Text(100)));

const mobile = (currency: string, prefix: string): AccountTypeSpec => ({
  currencies: [currency],
  primaryField: 'phoneNumber',
  beneficiary: 'required',
  fields: {
    phoneNumber: Text(20, { description: `${prefix} and the subscriber number` }),
    provider: Text(20, { description: 'Mobile-money operator code (GET /discoveries?currency=…)' }),
  },
});

const wallet = (currencies: string[], prefixes: string[], beneficiary: 'required' | 'optional'): AccountTypeSpec => ({
  currencies,
  primaryField: 'address',
  beneficiary,
  networks: CRYPTO_NETWORKS.filter((n) => prefixes.some((p) => n.startsWith(p))),
  fields: { address: Text(2000, { description: 'Wallet address in the form of its cryptoNetwork' }) },
});

export const ACCOUNT_TYPES: Record<string, AccountTypeSpec> = {
  US_ACCOUNT: {
    currencies: ['USD'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    defaultRails: ['ACH'],
    fields: {
      accountNumber: digits('4 to 17 digits'),
      routingNumber: digits('ABA routing number: 9 digits with a valid checksum'),
      accountCategory: Type.Enum(['CHECKING', 'SAVINGS']),
      bankName: bankName(false),
      paymentRails: rails(['ACH', 'WIRE']),
    },
  },
  CLABE: { currencies: ['MXN'], primaryField: 'clabeNumber', beneficiary: 'required', fields: { clabeNumber: digits('18 digits with a valid check digit'), bankName: bankName(false) } },
  PIX: {
    currencies: ['BRL'],
    primaryField: 'pixKey',
    beneficiary: 'required',
    fields: {
      pixKey: Text(77),
      pixKeyType: Type.Enum(PIX_KEY_TYPES),
      taxId: Type.Optional(Text(18, { description: "The holder's CPF or CNPJ; defaults to a CPF or CNPJ pix key" })),
      bankName: bankName(false),
    },
  },
  IBAN: {
    currencies: ['EUR'],
    primaryField: 'iban',
    beneficiary: 'required',
    fields: { iban: Text(42, { description: 'Spaces allowed; stored in electronic form' }), swiftBic: Type.Optional(Text(11)), bankName: bankName(false) },
  },
  PHP_ACCOUNT: {
    currencies: ['PHP'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    bankNameCountry: 'PH',
    defaultRails: ['BANK_TRANSFER'],
    fields: { accountNumber: digits('8 to 16 digits'), bankName: bankName(true), paymentRails: rails(['BANK_TRANSFER']) },
  },
  GBP_ACCOUNT: {
    currencies: ['GBP'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    defaultRails: ['FASTER_PAYMENTS'],
    fields: { sortCode: Text(8, { description: '6 digits, hyphens allowed' }), accountNumber: digits('8 digits'), bankName: bankName(false), paymentRails: rails(['FASTER_PAYMENTS']) },
  },
  UPI: { currencies: ['INR'], primaryField: 'vpa', beneficiary: 'required', fields: { vpa: Text(256, { description: 'name@handle' }) } },
  NGN_ACCOUNT: { currencies: ['NGN'], primaryField: 'accountNumber', beneficiary: 'required', bankNameCountry: 'NG', fields: { accountNumber: digits('10 digits (NUBAN)'), bankName: bankName(true) } },
  ZAR_ACCOUNT: { currencies: ['ZAR'], primaryField: 'accountNumber', beneficiary: 'required', bankNameCountry: 'ZA', fields: { accountNumber: digits('9 to 13 digits'), bankName: bankName(true) } },
  KES_ACCOUNT: mobile('KES', '+254'),
  TZS_ACCOUNT: mobile('TZS', '+255'),
  ZMW_ACCOUNT: mobile('ZMW', '+260'),
  RWF_ACCOUNT: mobile('RWF', '+250'),
  MWK_ACCOUNT: mobile('MWK', '+265'),
  UGX_ACCOUNT: mobile('UGX', '+256'),
  XOF_ACCOUNT: mobile('XOF', '+221, +225 or +229'),
  CAD_ACCOUNT: {
    currencies: ['CAD'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    fields: { bankCode: digits('institution number, 3 digits'), branchCode: digits('transit number, 5 digits'), accountNumber: digits('7 to 12 digits'), bankName: bankName(false) },
  },
  // A self-custody Bitcoin wallet reached over Lightning or a layer 2: no beneficiary needed.
  LAYER2_WALLET: wallet(['BTC'], ['LIGHTNING_', 'LAYER2_'], 'optional'),
  SOLANA_WALLET: wallet(['USDC'], ['SOLANA_'], 'required'),
  EVM_WALLET: wallet(['USDC'], ['ETHEREUM_', 'BASE_'], 'required'),
};

export const ACCOUNT_TYPE_NAMES = [...Object.keys(ACCOUNT_TYPES), ...Object.keys(ACCOUNT_TYPE_ALIASES)];

/** The accountInfo schema of one type: its fields, the beneficiary and the platform's own id. */
export function accountInfoSchema(type: string, spec: AccountTypeSpec): TSchema {
  const aliases = Object.entries(ACCOUNT_TYPE_ALIASES).filter(([, canonical]) => canonical === type).map(([alias]) => alias);
  return Type.Object(
    {
      accountType: Type.Enum([type, ...aliases]),
      ...spec.fields,
      beneficiary: spec.beneficiary === 'required' ? BeneficiaryInput : Type.Optional(BeneficiaryInput),
      platformAccountId: Type.Optional(Text(128)),
    },
    { additionalProperties: false },
  );
}

import { Type, type TSchema } from 'typebox';
import { AddressInput, CountryCode, DateOnly, Text } from '../../common/schemas.js';
import { PIX_KEY_TYPES } from '../../identifiers/brazil.js';
import { CRYPTO_NETWORKS } from '../../identifiers/crypto.js';
import { PURPOSES } from '../quotes/schemas.js';

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
    registrationNumber: Type.Optional(Text(64, { description: "The holder's registration number (a company's, or a person's where the country issues one)" })),
    taxId: Type.Optional(Text(64, { description: "The holder's tax identification number" })),
  },
  { additionalProperties: false },
);

/**
 * Another spelling of an account type: the spec's own (USD_ACCOUNT, IBAN_ACCOUNT) or the vendor
 * SDK's and CLI's (EUR_ACCOUNT, MXN_ACCOUNT, BRL_ACCOUNT, INR_ACCOUNT, SPARK_WALLET, BASE_WALLET). An alias
 * takes the fields and checks of its canonical type; responses always name the canonical type.
 */
export interface AccountTypeAlias {
  canonical: string;
  /** Networks of the canonical type this spelling is limited to (a Spark wallet is on LAYER2_*). */
  networks?: readonly string[];
  /** Other names of accountInfo fields under this spelling: alias field → canonical field. */
  fieldNames?: Readonly<Record<string, string>>;
  /** Values filled in when this spelling leaves a field out (the vendor's types have no such field). */
  defaults?: Readonly<Record<string, unknown>>;
  /** The only address form this spelling takes (a Spark wallet's address is a Spark address). */
  addressForm?: 'SPARK';
}

export const ACCOUNT_TYPE_ALIASES: Record<string, AccountTypeAlias> = {
  USD_ACCOUNT: { canonical: 'US_ACCOUNT', defaults: { accountCategory: 'CHECKING' } },
  IBAN_ACCOUNT: { canonical: 'IBAN' },
  EUR_ACCOUNT: { canonical: 'IBAN', fieldNames: { swiftCode: 'swiftBic' } },
  MXN_ACCOUNT: { canonical: 'CLABE' },
  BRL_ACCOUNT: { canonical: 'PIX' },
  INR_ACCOUNT: { canonical: 'UPI' },
  SPARK_WALLET: { canonical: 'LAYER2_WALLET', networks: ['LAYER2_MAINNET', 'LAYER2_TESTNET'], addressForm: 'SPARK' },
  BASE_WALLET: { canonical: 'EVM_WALLET', networks: ['BASE_MAINNET', 'BASE_TESTNET'] },
};

/** The canonical type of a spelling (itself when it is canonical). */
export function canonicalAccountType(spelling: string): string {
  return ACCOUNT_TYPE_ALIASES[spelling]?.canonical ?? spelling;
}

export interface AccountTypeSpec {
  /** Currencies the type pays out in. */
  currencies: readonly string[];
  /** The accountInfo field whose last 3 characters drive the sandbox. */
  primaryField: string;
  beneficiary: 'required' | 'optional';
  /** Countries an account of the type can serve (`countries` in accountInfo); undefined: any country. */
  countries?: readonly string[];
  /** Networks a wallet lives on; undefined for bank and mobile-money types. */
  networks?: readonly string[];
  /** Country whose catalogue bankName must match (GET /discoveries). */
  bankNameCountry?: string;
  defaultRails?: readonly string[];
  fields: Record<string, TSchema>;
}

const digits = (description: string) => Text(34, { description });
const rails = (allowed: readonly string[]) =>
  Type.Optional(Type.Array(Type.Enum(allowed), { minItems: 1, uniqueItems: true, description: `Default ${allowed[0]}` }));
const bankName = (required: boolean) =>
  required ? Text(100, { description: 'Exactly a bankName of GET /discoveries for the country' }) : Type.Optional(Text(100));

const mobile = (currency: string, prefix: string, countries: string[]): AccountTypeSpec => ({
  currencies: [currency],
  countries,
  primaryField: 'phoneNumber',
  beneficiary: 'required',
  fields: {
    phoneNumber: Text(20, { description: `${prefix} and the subscriber number` }),
    provider: Text(20, { description: 'Mobile-money operator code (GET /discoveries?currency=…)' }),
    paymentRails: rails(['MOBILE_MONEY']),
  },
});

// A crypto wallet is self-custody: nobody holds it for a beneficiary, so none is required.
const wallet = (currencies: string[], prefixes: string[]): AccountTypeSpec => ({
  currencies,
  primaryField: 'address',
  beneficiary: 'optional',
  networks: CRYPTO_NETWORKS.filter((n) => prefixes.some((p) => n.startsWith(p))),
  fields: { address: Text(2000, { description: 'Wallet address in the form of its cryptoNetwork' }) },
});

export const ACCOUNT_TYPES: Record<string, AccountTypeSpec> = {
  US_ACCOUNT: {
    currencies: ['USD'],
    countries: ['US'],
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
  CLABE: {
    currencies: ['MXN'],
    countries: ['MX'],
    primaryField: 'clabeNumber',
    beneficiary: 'required',
    fields: { clabeNumber: digits('18 digits with a valid check digit'), bankName: bankName(false), paymentRails: rails(['SPEI']) },
  },
  PIX: {
    currencies: ['BRL'],
    countries: ['BR'],
    primaryField: 'pixKey',
    beneficiary: 'required',
    fields: {
      pixKey: Text(77),
      pixKeyType: Type.Enum(PIX_KEY_TYPES),
      taxId: Type.Optional(Text(18, { description: "The holder's CPF or CNPJ; defaults to a CPF or CNPJ pix key" })),
      bankName: bankName(false),
      paymentRails: rails(['PIX']),
    },
  },
  IBAN: {
    currencies: ['EUR'],
    primaryField: 'iban',
    beneficiary: 'required',
    fields: {
      iban: Text(42, { description: 'Spaces allowed; stored in electronic form' }),
      swiftBic: Type.Optional(Text(11)),
      bankName: bankName(false),
      paymentRails: rails(['SEPA', 'SEPA_INSTANT']),
    },
  },
  PHP_ACCOUNT: {
    currencies: ['PHP'],
    countries: ['PH'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    bankNameCountry: 'PH',
    defaultRails: ['BANK_TRANSFER'],
    fields: { accountNumber: digits('8 to 16 digits'), bankName: bankName(true), paymentRails: rails(['BANK_TRANSFER']) },
  },
  GBP_ACCOUNT: {
    currencies: ['GBP'],
    countries: ['GB'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    defaultRails: ['FASTER_PAYMENTS'],
    fields: {
      sortCode: Text(8, { description: '6 digits, hyphens allowed' }),
      accountNumber: digits('8 digits'),
      bankName: bankName(false),
      paymentRails: rails(['FASTER_PAYMENTS']),
    },
  },
  UPI: {
    currencies: ['INR'],
    countries: ['IN'],
    primaryField: 'vpa',
    beneficiary: 'required',
    fields: { vpa: Text(256, { description: 'name@handle' }), paymentRails: rails(['UPI']) },
  },
  NGN_ACCOUNT: {
    currencies: ['NGN'],
    countries: ['NG'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    bankNameCountry: 'NG',
    fields: {
      accountNumber: digits('10 digits (NUBAN)'),
      bankName: bankName(true),
      paymentRails: rails(['BANK_TRANSFER']),
      // The vendor's CLI sends it with NGN accounts; kept with the account and answered.
      purposeOfPayment: Type.Optional(Type.Enum(PURPOSES, { description: 'The usual purpose of payments to this account' })),
    },
  },
  ZAR_ACCOUNT: {
    currencies: ['ZAR'],
    countries: ['ZA'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    bankNameCountry: 'ZA',
    fields: { accountNumber: digits('9 to 13 digits'), bankName: bankName(true), paymentRails: rails(['BANK_TRANSFER']) },
  },
  KES_ACCOUNT: mobile('KES', '+254', ['KE']),
  TZS_ACCOUNT: mobile('TZS', '+255', ['TZ']),
  ZMW_ACCOUNT: mobile('ZMW', '+260', ['ZM']),
  RWF_ACCOUNT: mobile('RWF', '+250', ['RW']),
  MWK_ACCOUNT: mobile('MWK', '+265', ['MW']),
  UGX_ACCOUNT: mobile('UGX', '+256', ['UG']),
  XOF_ACCOUNT: mobile('XOF', '+221, +225 or +229', ['SN', 'CI', 'BJ']),
  CAD_ACCOUNT: {
    currencies: ['CAD'],
    countries: ['CA'],
    primaryField: 'accountNumber',
    beneficiary: 'required',
    fields: {
      bankCode: digits('institution number, 3 digits'),
      branchCode: digits('transit number, 5 digits'),
      accountNumber: digits('7 to 12 digits'),
      bankName: bankName(false),
      // The vendor's name for the EFT payout (its CAD type requires the member).
      paymentRails: rails(['BANK_TRANSFER']),
    },
  },
  // A Bitcoin wallet reached over Lightning or a layer 2.
  LAYER2_WALLET: wallet(['BTC'], ['LIGHTNING_', 'LAYER2_']),
  SOLANA_WALLET: wallet(['USDC'], ['SOLANA_']),
  EVM_WALLET: wallet(['USDC'], ['ETHEREUM_', 'BASE_']),
};

export const ACCOUNT_TYPE_NAMES = [...Object.keys(ACCOUNT_TYPES), ...Object.keys(ACCOUNT_TYPE_ALIASES)];

/** The accountInfo schema of one type: its fields, the beneficiary and the platform's own id. */
export function accountInfoSchema(type: string, spec: AccountTypeSpec): TSchema {
  const aliases = Object.entries(ACCOUNT_TYPE_ALIASES)
    .filter(([, alias]) => alias.canonical === type)
    .map(([name]) => name);
  return Type.Object(
    {
      accountType: Type.Enum([type, ...aliases]),
      ...spec.fields,
      beneficiary: spec.beneficiary === 'required' ? BeneficiaryInput : Type.Optional(BeneficiaryInput),
      // Bank accounts may say which countries they serve; a wallet belongs to no country.
      ...(spec.networks
        ? {}
        : {
            countries: Type.Optional(
              Type.Array(CountryCode, {
                minItems: 1,
                maxItems: 50,
                uniqueItems: true,
                description: 'ISO 3166-1 alpha-2 codes of the countries the account serves',
              }),
            ),
          }),
      platformAccountId: Type.Optional(Text(128)),
    },
    { additionalProperties: false },
  );
}

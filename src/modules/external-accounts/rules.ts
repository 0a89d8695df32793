import type { FieldProblem } from '../../common/errors.js';
import type { Environment } from '../../common/scope.js';
import * as id from '../../identifiers/index.js';
import { isKnownBankName } from '../discoveries/catalogue.js';
import { ACCOUNT_TYPES, type AccountTypeSpec } from './account-types.js';

export type AccountInfo = Record<string, unknown> & { accountType: string };

export interface RuleInput {
  type: string;
  spec: AccountTypeSpec;
  currency: string;
  cryptoNetwork?: string;
  /** True when cryptoNetwork was read from the address rather than given. */
  networkInferred?: boolean;
  /** The spelling the request used (EUR_ACCOUNT, SPARK_WALLET…), for messages; defaults to type. */
  spelling?: string;
  /** Networks allowed for this spelling; defaults to the type's. */
  networks?: readonly string[];
  /** The only address form this spelling takes. */
  addressForm?: 'SPARK';
  /** Shape-valid accountInfo (already checked against the type's schema). */
  info: AccountInfo;
  environment: Environment;
}

const s = (v: unknown) => v as string;

/**
 * The checks beyond shape, the same in SANDBOX and PRODUCTION (sandbox test identifiers are valid
 * identifiers, see docs/sandbox-test-identifiers.md). Returns every problem, each naming its field.
 */
export function checkAccountRules(input: RuleInput): FieldProblem[] {
  const { type, spec, info, currency } = input;
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string | null) => {
    if (message) problems.push({ field, in: 'body', message });
  };
  const at = (f: string) => `accountInfo.${f}`;

  if (!spec.currencies.includes(currency)) bad('currency', `must be ${spec.currencies.join(' or ')} for ${type}`);

  switch (type) {
    case 'US_ACCOUNT':
      bad(at('accountNumber'), id.validateUsAccountNumber(s(info.accountNumber)));
      bad(at('routingNumber'), id.validateAbaRoutingNumber(s(info.routingNumber)));
      break;
    case 'CLABE':
      bad(at('clabeNumber'), id.validateClabe(s(info.clabeNumber)));
      break;
    case 'PIX': {
      bad(at('pixKey'), id.validatePixKey(s(info.pixKeyType), s(info.pixKey)));
      const taxId = info.taxId as string | undefined;
      if (taxId !== undefined) bad(at('taxId'), /^\d{11}$|^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(taxId) ? id.validateCpf(taxId) : id.validateCnpj(taxId));
      else if (info.pixKeyType !== 'CPF' && info.pixKeyType !== 'CNPJ') bad(at('taxId'), "is required (the holder's CPF or CNPJ) unless the pix key is one");
      break;
    }
    case 'IBAN':
      bad(at('iban'), id.validateIban(s(info.iban)));
      if (info.swiftBic !== undefined) bad(at('swiftBic'), id.validateBic(s(info.swiftBic)));
      break;
    case 'PHP_ACCOUNT':
      bad(at('accountNumber'), id.validatePhpAccountNumber(s(info.accountNumber)));
      break;
    case 'GBP_ACCOUNT': {
      const shape = id.validateSortCode(s(info.sortCode));
      bad(at('sortCode'), shape);
      const account = id.validateUkAccountNumber(s(info.accountNumber));
      bad(at('accountNumber'), account);
      if (!shape && !account) bad(at('accountNumber'), id.validateUkModulus(s(info.sortCode), s(info.accountNumber)));
      const b = info.beneficiary as { beneficiaryType?: string; address?: unknown } | undefined;
      if (b && b.beneficiaryType === 'INDIVIDUAL' && b.address === undefined)
        bad(at('beneficiary.address'), 'is required for an individual beneficiary of a GBP account');
      break;
    }
    case 'UPI':
      bad(at('vpa'), id.validateUpiVpa(s(info.vpa)));
      break;
    case 'NGN_ACCOUNT':
      bad(at('accountNumber'), id.validateNgnAccountNumber(s(info.accountNumber)));
      break;
    case 'ZAR_ACCOUNT':
      bad(at('accountNumber'), id.validateZarAccountNumber(s(info.accountNumber)));
      break;
    case 'CAD_ACCOUNT':
      bad(at('bankCode'), id.validateCaInstitutionNumber(s(info.bankCode)));
      bad(at('branchCode'), id.validateCaTransitNumber(s(info.branchCode)));
      bad(at('accountNumber'), id.validateCaAccountNumber(s(info.accountNumber)));
      break;
    default:
      if (id.isMobileMoneyCurrency(spec.currencies[0])) {
        const phone = id.validateMobileMoneyPhone(spec.currencies[0], s(info.phoneNumber));
        bad(at('phoneNumber'), phone);
        bad(at('provider'), id.validateMobileMoneyProvider(spec.currencies[0], s(info.provider), phone ? undefined : s(info.phoneNumber)));
      }
  }

  if (Array.isArray(info.countries) && spec.countries) {
    const allowed = spec.countries;
    (info.countries as string[]).forEach((c, i) => {
      if (!allowed.includes(c)) bad(at(`countries.${i}`), `must be ${allowed.join(' or ')}: a ${input.spelling ?? type} account serves no other country`);
    });
  }
  if (spec.bankNameCountry && typeof info.bankName === 'string' && !isKnownBankName(spec.bankNameCountry, info.bankName)) {
    bad(at('bankName'), `must be exactly one of the bankName values of GET /discoveries?country=${spec.bankNameCountry}`);
  }
  problems.push(...checkNetwork(input));
  return problems;
}

function checkNetwork({
  type,
  spec,
  currency,
  cryptoNetwork,
  networkInferred,
  spelling = type,
  networks = spec.networks,
  addressForm,
  info,
  environment,
}: RuleInput): FieldProblem[] {
  const problem = (field: string, message: string): FieldProblem[] => [{ field, in: 'body', message }];
  if (!networks) return cryptoNetwork === undefined ? [] : problem('cryptoNetwork', 'is only for crypto wallets');
  // A Spark wallet is named by its address alone: its prefix says the network.
  if (addressForm === 'SPARK' && !id.looksLikeSparkAddress(s(info.address))) {
    return problem('accountInfo.address', 'must be a Spark address: spark1… (LAYER2_MAINNET) or sparkt1…, sparkrt1… (LAYER2_TESTNET)');
  }
  if (cryptoNetwork === undefined)
    return problem('cryptoNetwork', `is required for ${spelling} (the address does not tell the network): one of ${networks.join(', ')}`);
  if (!networks.includes(cryptoNetwork)) return problem('cryptoNetwork', `must be one of ${networks.join(', ')} for ${spelling}`);
  if (spec.currencies.includes(currency) && !id.cryptoNetworkCarries(cryptoNetwork, currency))
    return problem('currency', `${cryptoNetwork} does not carry ${currency}`);
  // Test networks move no real money, so a production account on one would lose the payment.
  if (environment === 'PRODUCTION' && id.isTestNetwork(cryptoNetwork as id.CryptoNetwork)) {
    return networkInferred
      ? problem('accountInfo.address', `is an address of ${cryptoNetwork}, a test network; PRODUCTION needs a main-network address`)
      : problem('cryptoNetwork', 'is a test network; PRODUCTION needs a main network');
  }
  const address = id.validateCryptoAddress(cryptoNetwork, s(info.address));
  return address ? problem('accountInfo.address', address) : [];
}

/** The stored accountInfo: canonical type, identifiers in electronic form, default rails, taxId. */
export function normaliseAccountInfo(type: string, info: AccountInfo): AccountInfo {
  const spec = ACCOUNT_TYPES[type];
  const out: AccountInfo = { ...info, accountType: type };
  delete out.platformAccountId;
  if (spec.defaultRails && out.paymentRails === undefined) out.paymentRails = [...spec.defaultRails];
  if (type === 'IBAN') out.iban = id.normalizeIban(s(out.iban));
  if (type === 'IBAN' && out.swiftBic !== undefined) out.swiftBic = s(out.swiftBic).toUpperCase();
  if (type === 'GBP_ACCOUNT') out.sortCode = id.normalizeSortCode(s(out.sortCode));
  if (type === 'PIX' && out.taxId === undefined) out.taxId = out.pixKey;
  return out;
}

/** The identifier the sandbox reads its suffix from, in stored form. */
export function primaryIdentifier(type: string, info: AccountInfo): string {
  return String(info[ACCOUNT_TYPES[type].primaryField]);
}

/**
 * The vendor profile of a platform (PATCH /config `compatibility`). CORRIDOR, the default, answers
 * in the spec's names. GRID answers where the spec renamed the vendor's names with the vendor's
 * own (docs/vendor-clients.md, "The GRID profile"):
 *
 *   rateDetails   serviceApiMultiplier … → gridApiMultiplier, gridApiFixedFee, gridApiVariableFeeRate, gridApiVariableFeeAmount
 *   accountType   US_ACCOUNT → USD_ACCOUNT, IBAN → EUR_ACCOUNT, CLABE → MXN_ACCOUNT, PIX → BRL_ACCOUNT,
 *                 UPI → INR_ACCOUNT, LAYER2_WALLET on LAYER2_* → SPARK_WALLET, EVM_WALLET on BASE_* → BASE_WALLET
 *   accountInfo   countries and paymentRails filled in where the account left them out (of external
 *                 accounts and of payment instructions); XOF's region; a BUSINESS beneficiary's
 *                 fullName → legalName
 *   lookups       id → lookupId, minAmount/maxAmount → min/max, requiredPayerDataFields as {name, mandatory}
 *   lists         nextCursor on every page: "" on the last
 *
 * Requests are read in either naming under both profiles; only answers and webhooks change. The
 * functions here are pure: they take an answer as the spec shapes it (already serialised by its
 * route's schema, so nothing the schema leaves out can appear) and return the vendor's shape.
 */
import type { PlatformConfigsTable } from '../../db/schema.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';
import { ACCOUNT_TYPES } from '../external-accounts/account-types.js';

export const COMPATIBILITY_PROFILES = ['CORRIDOR', 'GRID'] as const;
export type CompatibilityProfile = (typeof COMPATIBILITY_PROFILES)[number];

/** The profile of a configuration row (rows from before the setting existed are CORRIDOR). */
export function profileOf(config: Pick<PlatformConfigsTable, 'compatibility'>): CompatibilityProfile {
  return config.compatibility === 'GRID' ? 'GRID' : 'CORRIDOR';
}

const RATE_DETAIL_NAMES: Readonly<Record<string, string>> = {
  serviceApiMultiplier: 'gridApiMultiplier',
  serviceApiFixedFee: 'gridApiFixedFee',
  serviceApiVariableFeeRate: 'gridApiVariableFeeRate',
  serviceApiVariableFeeAmount: 'gridApiVariableFeeAmount',
};

/** A Spark address (spark1…, sparkt1…, sparkrt1…): a LAYER2_WALLET may also hold a Lightning address or invoice on a layer-2 network. */
const SPARK_ADDRESS = /^spark(t|rt)?1/i;

/** The SDK's union member for a canonical account type; the type itself where the vendor has no other name. */
export function gridAccountType(type: string, network?: string, address?: string): string {
  switch (type) {
    case 'US_ACCOUNT':
      return 'USD_ACCOUNT';
    case 'IBAN':
    case 'IBAN_ACCOUNT':
      return 'EUR_ACCOUNT';
    case 'CLABE':
      return 'MXN_ACCOUNT';
    case 'PIX':
      return 'BRL_ACCOUNT';
    case 'UPI':
      return 'INR_ACCOUNT';
    // A Lightning address or invoice in a LAYER2_WALLET is not a Spark wallet: it keeps its name.
    case 'LAYER2_WALLET':
      return network?.startsWith('LAYER2_') && (address === undefined || SPARK_ADDRESS.test(address)) ? 'SPARK_WALLET' : type;
    case 'EVM_WALLET':
      return network?.startsWith('BASE_') ? 'BASE_WALLET' : type;
    default:
      return type;
  }
}

/** The smallest amount there is: what "no minimum" means to a client that requires a number. */
const NO_MINIMUM = 1;
/** The largest amount the API carries: what "no maximum" means to a client that requires a number. */
const NO_MAXIMUM = Number(MAX_AMOUNT);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: Json | undefined): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A receiver lookup in the vendor's ReceiverLookupResponse names. */
function gridLookup(lookup: JsonObject): JsonObject {
  const { id, supportedCurrencies, requiredPayerDataFields, ...rest } = lookup;
  const out: JsonObject = { lookupId: id };
  for (const [k, v] of Object.entries(rest)) out[k] = walk(v);
  if (Array.isArray(supportedCurrencies)) {
    out.supportedCurrencies = supportedCurrencies.map((c) => {
      if (!isObject(c)) return c;
      const { minAmount, maxAmount, estimatedExchangeRate, ...other } = c;
      return {
        ...(walk(other) as JsonObject),
        // Unknown now: left out rather than null (the SDK declares a number).
        ...(estimatedExchangeRate === null || estimatedExchangeRate === undefined ? {} : { estimatedExchangeRate }),
        min: minAmount ?? NO_MINIMUM,
        max: maxAmount ?? NO_MAXIMUM,
      };
    });
  }
  if (Array.isArray(requiredPayerDataFields)) {
    // Every field a lookup lists is required: the vendor's {name, mandatory} with mandatory true.
    out.requiredPayerDataFields = requiredPayerDataFields.map((name) => (typeof name === 'string' ? { name, mandatory: true } : name));
  }
  return out;
}

/**
 * The vendor's name of the rail a payout to an account of this (canonical) type travels on when
 * the account names none: transactions/rules.ts DEFAULT_RAIL, in the vendor's list (Canada's EFT
 * is its BANK_TRANSFER). Wallets have no rails member.
 */
const VENDOR_RAIL: Readonly<Record<string, string>> = {
  US_ACCOUNT: 'ACH',
  CLABE: 'SPEI',
  PIX: 'PIX',
  IBAN: 'SEPA',
  GBP_ACCOUNT: 'FASTER_PAYMENTS',
  PHP_ACCOUNT: 'BANK_TRANSFER',
  UPI: 'UPI',
  NGN_ACCOUNT: 'BANK_TRANSFER',
  ZAR_ACCOUNT: 'BANK_TRANSFER',
  CAD_ACCOUNT: 'BANK_TRANSFER',
};

/** The country of a West African CFA franc mobile-money number, by its calling code. */
const XOF_COUNTRY_BY_PREFIX: Readonly<Record<string, string>> = { '+221': 'SN', '+225': 'CI', '+229': 'BJ' };

/** The country an account serves, when the account itself says it: its type's only country, an IBAN's country, an XOF number's. */
function countryOf(type: string, info: JsonObject): string | undefined {
  const only = ACCOUNT_TYPES[type]?.countries;
  if (type === 'IBAN' && typeof info.iban === 'string') return info.iban.slice(0, 2).toUpperCase();
  if (type === 'XOF_ACCOUNT' && typeof info.phoneNumber === 'string') return XOF_COUNTRY_BY_PREFIX[info.phoneNumber.slice(0, 4)];
  return only?.length === 1 ? only[0] : undefined;
}

/**
 * An account info (an external account's accountInfo, a payment instruction's accountOrWalletInfo)
 * with the members the SDK's types require of its accountType: `countries` and `paymentRails`, as
 * the account serves and is paid (only filled in where the account left them out, so what a
 * platform gave is answered as given); XOF's `region`; and a business beneficiary named by
 * `legalName`, the SDK's BusinessBeneficiary having no fullName. Every one of these is also read
 * on requests, so an answer can be sent back as it is.
 */
function gridAccountInfo(type: string, info: JsonObject): JsonObject {
  const spec = ACCOUNT_TYPES[type];
  if (!spec || spec.networks) return info;
  const out: JsonObject = { ...info };
  const country = countryOf(type, info);
  if (out.countries === undefined && country) out.countries = [country];
  if (out.paymentRails === undefined) out.paymentRails = [VENDOR_RAIL[type] ?? 'MOBILE_MONEY'];
  if (type === 'XOF_ACCOUNT' && out.region === undefined && country) out.region = country;
  const b = out.beneficiary;
  if (isObject(b) && b.beneficiaryType === 'BUSINESS' && typeof b.fullName === 'string' && b.legalName === undefined) {
    const { fullName, ...rest } = b;
    out.beneficiary = {
      beneficiaryType: 'BUSINESS',
      legalName: fullName,
      ...Object.fromEntries(Object.entries(rest).filter(([k]) => k !== 'beneficiaryType')),
    };
  }
  return out;
}

function walk(value: Json, network?: string): Json {
  if (Array.isArray(value)) return value.map((v) => walk(v, network));
  if (!isObject(value)) return value;
  if (typeof value.id === 'string' && value.id.startsWith('Lookup:')) return gridLookup(value);
  // The network of a wallet sits beside accountInfo (external accounts) or inside it (payment instructions).
  const here = typeof value.cryptoNetwork === 'string' ? value.cryptoNetwork : network;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'accountType' && typeof v === 'string') out[key] = gridAccountType(v, here, typeof value.address === 'string' ? value.address : undefined);
    else out[RATE_DETAIL_NAMES[key] ?? key] = walk(v, here);
  }
  return typeof value.accountType === 'string' ? gridAccountInfo(value.accountType, out) : out;
}

/**
 * A page of a list: the SDK's page type requires `nextCursor`, and its pager treats the empty
 * string as "no next page" (as it reads a missing one), so the last page says "" rather than
 * leaving the member out. `hasMore` stays what it was.
 */
function gridPage(page: JsonObject): JsonObject {
  if (!Array.isArray(page.data) || typeof page.hasMore !== 'boolean' || typeof page.nextCursor === 'string') return page;
  return { ...page, nextCursor: '' };
}

/**
 * Members one route's answer has under the vendor's names. `POST /webhooks/test` is the SDK's
 * webhooks.sendTest(), whose TestWebhookResponse requires `response_status`: the same facts as
 * statusCode and responseBody (left out, as they are, when the receiver did not answer).
 */
function gridRoute(route: string | undefined, answer: JsonObject): JsonObject {
  if (route !== 'POST /webhooks/test') return answer;
  return {
    ...answer,
    ...(typeof answer.statusCode === 'number' ? { response_status: answer.statusCode } : {}),
    ...(typeof answer.responseBody === 'string' ? { response_body: answer.responseBody } : {}),
  };
}

/**
 * An answer (or a webhook's data) as the spec shapes it → the same answer in the vendor's names.
 * `route` ('POST /webhooks/test': the method and the path pattern under the version prefix) names
 * the answer where a member depends on the route.
 */
export function gridShape<T>(answer: T, route?: string): T {
  const out = walk(answer as Json);
  return (isObject(out) ? gridRoute(route, gridPage(out)) : out) as T;
}

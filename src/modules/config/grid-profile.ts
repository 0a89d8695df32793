/**
 * The vendor profile of a platform (PATCH /config `compatibility`). CORRIDOR, the default, answers
 * in the spec's names. GRID answers where the spec renamed the vendor's names with the vendor's
 * own (docs/vendor-clients.md, "The GRID profile"):
 *
 *   rateDetails   serviceApiMultiplier … → gridApiMultiplier, gridApiFixedFee, gridApiVariableFeeRate, gridApiVariableFeeAmount
 *   accountType   US_ACCOUNT → USD_ACCOUNT, IBAN → EUR_ACCOUNT, CLABE → MXN_ACCOUNT, PIX → BRL_ACCOUNT,
 *                 LAYER2_WALLET on LAYER2_* → SPARK_WALLET, EVM_WALLET on BASE_* → BASE_WALLET
 *   lookups       id → lookupId, minAmount/maxAmount → min/max, requiredPayerDataFields as {name, mandatory}
 *   lists         nextCursor on every page: "" on the last
 *
 * Requests are read in either naming under both profiles; only answers and webhooks change. The
 * functions here are pure: they take an answer as the spec shapes it (already serialised by its
 * route's schema, so nothing the schema leaves out can appear) and return the vendor's shape.
 */
import type { PlatformConfigsTable } from '../../db/schema.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';

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

/** The SDK's union member for a canonical account type; the type itself where the vendor has no other name. */
export function gridAccountType(type: string, network?: string): string {
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
    // A Lightning address or invoice in a LAYER2_WALLET is not a Spark wallet: it keeps its name.
    case 'LAYER2_WALLET':
      return network?.startsWith('LAYER2_') ? 'SPARK_WALLET' : type;
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

function walk(value: Json, network?: string): Json {
  if (Array.isArray(value)) return value.map((v) => walk(v, network));
  if (!isObject(value)) return value;
  if (typeof value.id === 'string' && value.id.startsWith('Lookup:')) return gridLookup(value);
  // The network of a wallet sits beside accountInfo (external accounts) or inside it (payment instructions).
  const here = typeof value.cryptoNetwork === 'string' ? value.cryptoNetwork : network;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'accountType' && typeof v === 'string') out[key] = gridAccountType(v, here);
    else out[RATE_DETAIL_NAMES[key] ?? key] = walk(v, here);
  }
  return out;
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

/** An answer (or a webhook's data) as the spec shapes it → the same answer in the vendor's names. */
export function gridShape<T>(answer: T): T {
  const out = walk(answer as Json);
  return (isObject(out) ? gridPage(out) : out) as T;
}

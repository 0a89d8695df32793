/**
 * Rate sources. A rate is exact: `rate` is a Rational giving how many QUOTE major units one BASE
 * major unit buys (EUR per 1 USD for base USD, quote EUR). Cross rates go through the document's
 * base currency exactly (rate(A→B) = rates[B] / rates[A]); no float is involved.
 *
 * Production sources read a JSON document (docs/pricing.md):
 *
 *   { "asOf": "2025-10-13T12:00:00Z", "base": "USD", "rates": { "EUR": "0.92", "BTC": "0.00001" } }
 *
 * Each value says how many units of that currency 1 unit of `base` buys, as a decimal string.
 * A source keeps the last good document; a document that fails validation is reported through
 * `onError` and ignored. getRate throws RatesUnavailableError: RATES_STALE when the document's
 * asOf is older than maxAgeMs by the injected clock, RATE_UNAVAILABLE when a currency of the pair
 * is missing (or no good document was ever loaded). The API answers both with 503.
 */
import { readFile, stat } from 'node:fs/promises';
import { CURRENCY_CODES, isSupportedCurrency } from '../common/currencies.js';
import { DecimalFormatError, div, ONE, parseDecimal, type Rational } from '../common/money.js';

export interface Clock {
  now(): Date;
}

export interface Rate {
  base: string;
  quote: string;
  /** QUOTE major units per 1 BASE major unit, exact. */
  rate: Rational;
  asOf: Date;
  source: string;
}

export interface RateSource {
  getRate(base: string, quote: string): Promise<Rate>;
}

export type RatesUnavailableCode = 'RATES_STALE' | 'RATE_UNAVAILABLE';

/** No usable rate: the API maps it to 503 with `message`. */
export class RatesUnavailableError extends Error {
  override readonly name = 'RatesUnavailableError';
  constructor(
    readonly code: RatesUnavailableCode,
    message: string,
    readonly base: string,
    readonly quote: string,
    readonly asOf?: Date,
  ) {
    super(message);
  }
}

/** A rates document that fails validation. */
export class RatesDocumentError extends Error {
  override readonly name = 'RatesDocumentError';
}

/** A validated rates document: `rates` maps a currency to units per 1 `base` (base itself → 1). */
export interface RatesDocument {
  asOf: Date;
  base: string;
  rates: ReadonlyMap<string, Rational>;
}

/** Documents larger than this are refused (ARCHITECTURE rule 7). */
export const MAX_RATES_DOCUMENT_BYTES = 1_048_576;
const MAX_RATE_ENTRIES = 2000;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const CODE = /^[A-Z0-9]{2,10}$/;

/**
 * Validates a rates document (JSON text or a parsed value). Strict: the three fields and nothing
 * else at the top level; asOf an ISO 8601 date-time with a zone; base a supported currency; every
 * rate a positive decimal string (see parseDecimal) keyed by an upper-case code. Codes Corridor
 * does not support are validated and then ignored, so a provider's wider feed can be used as is.
 */
export function parseRatesDocument(input: unknown): RatesDocument {
  let doc = input;
  if (typeof input === 'string') {
    try {
      doc = JSON.parse(input);
    } catch (e) {
      throw new RatesDocumentError(`rates document is not valid JSON (${(e as Error).message})`);
    }
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new RatesDocumentError('rates document must be a JSON object');
  const o = doc as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!['asOf', 'base', 'rates'].includes(k)) throw new RatesDocumentError(`rates document: unknown field ${JSON.stringify(k.slice(0, 40))}`);
  }
  if (typeof o.asOf !== 'string' || !ISO_DATE_TIME.test(o.asOf) || Number.isNaN(Date.parse(o.asOf))) {
    throw new RatesDocumentError('rates document: asOf must be an ISO 8601 date-time with a time zone');
  }
  const asOf = new Date(o.asOf);
  if (typeof o.base !== 'string' || !isSupportedCurrency(o.base)) throw new RatesDocumentError('rates document: base must be a supported currency code');
  const base = o.base;
  if (typeof o.rates !== 'object' || o.rates === null || Array.isArray(o.rates)) throw new RatesDocumentError('rates document: rates must be an object');
  const entries = Object.entries(o.rates as Record<string, unknown>);
  if (entries.length > MAX_RATE_ENTRIES) throw new RatesDocumentError(`rates document: more than ${MAX_RATE_ENTRIES} rates`);
  const rates = new Map<string, Rational>([[base, ONE]]);
  for (const [code, value] of entries) {
    if (!CODE.test(code)) throw new RatesDocumentError(`rates document: bad currency code ${JSON.stringify(code.slice(0, 20))}`);
    let r: Rational;
    try {
      r = parseDecimal(value);
    } catch (e) {
      const reason = e instanceof DecimalFormatError ? e.message : String(e);
      throw new RatesDocumentError(`rates document: rates.${code}: ${reason} (rates are decimal strings such as "0.92")`);
    }
    if (r.num <= 0n) throw new RatesDocumentError(`rates document: rates.${code} must be positive`);
    if (code === base) {
      if (r.num !== r.den) throw new RatesDocumentError(`rates document: rates.${code} is the base and must be 1`);
      continue;
    }
    if (isSupportedCurrency(code)) rates.set(code, r);
  }
  return { asOf, base, rates };
}

/** The exact rate base→quote from a document (quote units per 1 base unit), or undefined if a side is missing. */
export function crossRate(doc: RatesDocument, base: string, quote: string): Rational | undefined {
  if (base === quote) return isSupportedCurrency(base) ? ONE : undefined;
  const b = doc.rates.get(base);
  const q = doc.rates.get(quote);
  if (!b || !q) return undefined;
  return div(q, b);
}

/** Applies staleness and availability rules to the current document of a source. */
export function rateFromDocument(doc: RatesDocument | undefined, base: string, quote: string, clock: Clock, maxAgeMs: number, source: string): Rate {
  if (!doc) {
    throw new RatesUnavailableError('RATE_UNAVAILABLE', `exchange rates are unavailable: no valid rates document has been loaded from ${source}`, base, quote);
  }
  const ageMs = clock.now().getTime() - doc.asOf.getTime();
  if (ageMs > maxAgeMs) {
    throw new RatesUnavailableError(
      'RATES_STALE',
      `exchange rates are stale: the latest rates are from ${doc.asOf.toISOString()}, older than the ${Math.round(maxAgeMs / 1000)} s allowed`,
      base,
      quote,
      doc.asOf,
    );
  }
  const rate = crossRate(doc, base, quote);
  if (!rate) throw new RatesUnavailableError('RATE_UNAVAILABLE', `no exchange rate is available for ${base} to ${quote}`, base, quote, doc.asOf);
  return { base, quote, rate, asOf: doc.asOf, source };
}

export function checkMaxAge(maxAgeMs: number): void {
  if (!Number.isFinite(maxAgeMs) || maxAgeMs <= 0) throw new RangeError('maxAgeMs must be a positive number');
}

const systemClock: Clock = { now: () => new Date() };

/**
 * Sandbox mid rates: units of each currency per 1 USD (realistic values, fixed so that sandbox
 * quotes are reproducible). BTC at 100000 USD, USDC at par; XOF pegged to EUR at 655.957.
 * Every currency of src/common/currencies.ts is listed (a unit test checks it).
 */
export const SANDBOX_USD_RATES: Readonly<Record<string, string>> = Object.freeze({
  USD: '1',
  EUR: '0.92',
  GBP: '0.79',
  CAD: '1.37',
  MXN: '18.50',
  BRL: '5.60',
  PHP: '57.50',
  INR: '84.00',
  NGN: '1550',
  ZAR: '18.20',
  KES: '129.00',
  TZS: '2650',
  ZMW: '26.50',
  RWF: '1400',
  MWK: '1735',
  UGX: '3700',
  XOF: '603.48',
  BTC: '0.00001',
  USDC: '1',
});

/**
 * The sandbox source: SANDBOX_USD_RATES, cross rates through USD, always fresh (asOf = clock now).
 */
export function createSandboxRateSource(opts: { clock?: Clock } = {}): RateSource {
  const clock = opts.clock ?? systemClock;
  const rates = new Map<string, Rational>();
  for (const code of CURRENCY_CODES) {
    const value = SANDBOX_USD_RATES[code];
    if (value === undefined) throw new Error(`sandbox rate table misses ${code}`);
    rates.set(code, parseDecimal(value));
  }
  return {
    async getRate(base, quote) {
      const asOf = clock.now();
      return rateFromDocument({ asOf, base: 'USD', rates }, base, quote, clock, Number.POSITIVE_INFINITY, 'sandbox');
    },
  };
}

export interface FileRateSourceOptions {
  path: string;
  maxAgeMs: number;
  clock: Clock;
  onError?: (error: Error) => void;
}

/**
 * Reads the rates document from a file. The file is checked (stat) at each getRate and parsed
 * again when its size or modification time changed; a change that fails validation is reported
 * once through onError and the previous good document stays in use. A valid file always replaces
 * the document held, even with an older asOf (an operator may roll back). Whoever writes the file
 * should replace it atomically (write a temporary file, then rename).
 */
export function createFileRateSource(opts: FileRateSourceOptions): RateSource & { reload(): Promise<void>; current(): RatesDocument | undefined } {
  checkMaxAge(opts.maxAgeMs);
  const source = `file:${opts.path}`;
  let current: RatesDocument | undefined;
  let signature: string | undefined;
  let pending: Promise<void> | undefined;

  const report = (e: unknown) => opts.onError?.(e instanceof Error ? e : new Error(String(e)));

  async function check(force: boolean): Promise<void> {
    let sig: string;
    try {
      const st = await stat(opts.path);
      sig = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch (e) {
      if (signature !== 'missing') report(new RatesDocumentError(`cannot read rates file ${opts.path}: ${(e as Error).message}`));
      signature = 'missing';
      return;
    }
    if (!force && sig === signature) return;
    signature = sig;
    try {
      const buf = await readFile(opts.path);
      if (buf.byteLength > MAX_RATES_DOCUMENT_BYTES) throw new RatesDocumentError(`rates file is larger than ${MAX_RATES_DOCUMENT_BYTES} bytes`);
      current = parseRatesDocument(buf.toString('utf8')); // the file is the operator's truth, even if older
    } catch (e) {
      report(e);
    }
  }

  function reloadOnce(force: boolean): Promise<void> {
    if (!pending) pending = check(force).finally(() => (pending = undefined));
    return pending;
  }

  return {
    async getRate(base, quote) {
      await reloadOnce(false);
      return rateFromDocument(current, base, quote, opts.clock, opts.maxAgeMs, source);
    },
    reload: () => reloadOnce(true),
    current: () => current,
  };
}

/**
 * The rates a quote needs: the pair rate, and BTC per 1 sending unit for rateDetails (the
 * millisatoshi intermediate unit). btcRate is undefined when the source has no BTC rate; a stale
 * source still throws.
 */
export async function getQuoteRates(source: RateSource, sendingCurrency: string, receivingCurrency: string): Promise<{ rate: Rate; btcRate?: Rate }> {
  const rate = await source.getRate(sendingCurrency, receivingCurrency);
  if (receivingCurrency === 'BTC') return { rate, btcRate: rate };
  try {
    return { rate, btcRate: await source.getRate(sendingCurrency, 'BTC') };
  } catch (e) {
    if (e instanceof RatesUnavailableError && e.code === 'RATE_UNAVAILABLE') return { rate };
    throw e;
  }
}

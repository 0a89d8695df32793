/**
 * The production rate source that polls an HTTPS URL for the rates document (docs/pricing.md):
 * the operator's authorization and plausibility bound, a size limit on what it reads, and the
 * count of documents it refused. The document's format and the rules of a rate: rates.ts.
 */
import { Counter } from 'prom-client';
import { compare, div, ONE, parseDecimal, rational, sub, toSignificant } from '../common/money.js';
import {
  checkMaxAge,
  crossRate,
  MAX_RATES_DOCUMENT_BYTES,
  parseRatesDocument,
  rateFromDocument,
  RatesDocumentError,
  type Clock,
  type RatesDocument,
  type RateSource,
} from './rates.js';

/**
 * Rate documents a source refused, by reason: `implausible` (a rate moved more than the bound),
 * `invalid` (failed validation or too large), `unreachable` (network error or non-2xx). Registered
 * in the /metrics registry by src/http/metrics.ts.
 */
export const ratesDocumentsRefused = new Counter({
  name: 'corridor_rates_documents_refused_total',
  help: 'Production exchange-rate documents refused, by reason',
  labelNames: ['reason'],
  registers: [],
});

/** A document whose rates moved further than an operator allows from the last accepted one. */
export class ImplausibleRatesError extends RatesDocumentError {}

/**
 * Refuses `next` when any currency both documents price moved by more than `maxChangePercent`
 * from `last` (compared through `last`'s base, exactly). Currencies new in `next` are accepted.
 */
export function checkPlausible(last: RatesDocument, next: RatesDocument, maxChangePercent: number): void {
  const bound = parseDecimal(String(maxChangePercent));
  for (const [code, before] of last.rates) {
    if (code === last.base) continue;
    const after = crossRate(next, last.base, code);
    if (!after) continue;
    // |after / before - 1| × 100 > bound
    let change = sub(div(after, before), ONE);
    if (change.num < 0n) change = { num: -change.num, den: change.den };
    const percent = div(change, rational(1n, 100n));
    if (compare(percent, bound) > 0) {
      throw new ImplausibleRatesError(
        `rates document refused: ${last.base}→${code} moved ${toSignificant(percent, 4)}% (from ${toSignificant(before, 8)} to ${toSignificant(after, 8)}), more than the ${maxChangePercent}% allowed (RATES_MAX_CHANGE_PERCENT)`,
      );
    }
  }
}

/**
 * What the operator set for the production rate URL (RATES_AUTHORIZATION, RATES_MAX_CHANGE_PERCENT),
 * used by a URL source whose options do not say otherwise. The container sets it from the config
 * before it builds the sources.
 */
export interface RateUrlPolicy {
  authorization?: string;
  maxChangePercent?: number;
}
let rateUrlPolicy: RateUrlPolicy = {};
export function setRateUrlPolicy(policy: RateUrlPolicy): void {
  rateUrlPolicy = { ...policy };
}

export interface UrlRateSourceOptions {
  url: string;
  /** Sent as the Authorization header of every request (a provider's API key); never logged. */
  authorization?: string;
  /** Refuse a document that moves any rate by more than this percentage from the last accepted one. */
  maxChangePercent?: number;
  pollIntervalMs: number;
  maxAgeMs: number;
  clock: Clock;
  fetch?: typeof globalThis.fetch;
  /** Per request; default 10 000. */
  timeoutMs?: number;
  onError?: (error: Error) => void;
}

export interface UrlRateSource extends RateSource {
  /** Fetches now and then every pollIntervalMs (the timer is unref'd). Idempotent. */
  start(): void;
  stop(): void;
  /** One fetch; resolves true if a new good document was taken. Never rejects (errors go to onError). */
  refresh(): Promise<boolean>;
  current(): RatesDocument | undefined;
}

async function readLimited(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new RatesDocumentError(`rates document is larger than ${maxBytes} bytes`);
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new RatesDocumentError(`rates document is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Polls a URL for the rates document. getRate never waits on the network: it answers from the
 * last good document (RATE_UNAVAILABLE before the first one arrives). A document older than the
 * one held (by asOf) is ignored.
 */
export function createUrlRateSource(opts: UrlRateSourceOptions): UrlRateSource {
  checkMaxAge(opts.maxAgeMs);
  if (!Number.isFinite(opts.pollIntervalMs) || opts.pollIntervalMs <= 0) throw new RangeError('pollIntervalMs must be a positive number');
  // Production prices come from here: a plain-http feed could be rewritten by anyone on the path.
  if (!/^https:\/\//i.test(opts.url)) throw new RangeError('the rates URL must be https://');
  const authorization = opts.authorization ?? rateUrlPolicy.authorization;
  const maxChangePercent = opts.maxChangePercent ?? rateUrlPolicy.maxChangePercent;
  const headers: Record<string, string> = { accept: 'application/json', ...(authorization ? { authorization } : {}) };
  const doFetch = opts.fetch ?? globalThis.fetch;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const source = `url:${opts.url}`;
  let current: RatesDocument | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let pending: Promise<boolean> | undefined;

  async function fetchOnce(): Promise<boolean> {
    let reason = 'unreachable';
    try {
      const res = await doFetch(opts.url, { headers, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        throw new RatesDocumentError(`rates URL answered HTTP ${res.status}`);
      }
      reason = 'invalid';
      const doc = parseRatesDocument(await readLimited(res, MAX_RATES_DOCUMENT_BYTES));
      if (current && doc.asOf.getTime() < current.asOf.getTime()) return false;
      reason = 'implausible';
      if (current && maxChangePercent !== undefined) checkPlausible(current, doc, maxChangePercent);
      current = doc;
      return true;
    } catch (e) {
      ratesDocumentsRefused.inc({ reason });
      opts.onError?.(e instanceof Error ? e : new Error(String(e)));
      return false;
    }
  }

  const refresh = (): Promise<boolean> => {
    if (!pending) pending = fetchOnce().finally(() => (pending = undefined));
    return pending;
  };

  return {
    async getRate(base, quote) {
      return rateFromDocument(current, base, quote, opts.clock, opts.maxAgeMs, source);
    },
    start() {
      if (timer) return;
      void refresh();
      timer = setInterval(() => void refresh(), opts.pollIntervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
    refresh,
    current: () => current,
  };
}

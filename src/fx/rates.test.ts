import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { CURRENCY_CODES, currency } from '../common/currencies.js';
import { compare, mul, parseDecimal, rational } from '../common/money.js';
import { loadConfig } from '../config.js';
import {
  createFileRateSource,
  createSandboxRateSource,
  getQuoteRates,
  parseRatesDocument,
  RatesDocumentError,
  RatesUnavailableError,
  SANDBOX_USD_RATES,
  type Clock,
} from './rates.js';
import { checkPlausible, createUrlRateSource, ImplausibleRatesError, ratesDocumentsRefused } from './url-rates.js';

const T0 = new Date('2025-10-13T12:00:00Z');
const fixedClock = (d: Date): Clock & { set(d: Date): void } => {
  let now = d;
  return { now: () => now, set: (n) => (now = n) };
};
const doc = (asOf: string, rates: Record<string, string>, base = 'USD') => JSON.stringify({ asOf, base, rates });

async function expectUnavailable(p: Promise<unknown>, code: string) {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RatesUnavailableError);
  expect((e as RatesUnavailableError).code).toBe(code);
  return e as RatesUnavailableError;
}

describe('sandbox rate source', () => {
  it('has a rate for every currency of the table, and every pair crosses exactly through USD', async () => {
    expect(Object.keys(SANDBOX_USD_RATES).sort()).toEqual([...CURRENCY_CODES].sort());
    const src = createSandboxRateSource({ clock: fixedClock(T0) });
    for (const a of CURRENCY_CODES) {
      for (const b of CURRENCY_CODES) {
        const r = await src.getRate(a, b);
        expect(r).toMatchObject({ base: a, quote: b, source: 'sandbox', asOf: T0 });
        // a→b × b→USD... exactness: rate(a,b) × rate(b,a) = 1
        const back = await src.getRate(b, a);
        expect(compare(mul(r.rate, back.rate), rational(1n))).toBe(0);
      }
    }
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.92'));
    expect((await src.getRate('EUR', 'GBP')).rate).toEqual(rational(79n, 92n));
    expect((await src.getRate('BTC', 'USD')).rate).toEqual(rational(100000n));
    expect((await src.getRate('USDC', 'USD')).rate).toEqual(rational(1n));
    await expectUnavailable(src.getRate('USD', 'XYZ'), 'RATE_UNAVAILABLE');
  });

  it('is documented exactly in docs/pricing.md (code, decimals, units per USD), satoshis for BTC and 6 decimals for USDC', () => {
    const page = readFileSync(new URL('../../docs/pricing.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('### Sandbox rates'), page.indexOf('### Production rates'));
    const rows = [...section.matchAll(/^\| ([A-Z]{3,4}) \| (\d+) \| ([0-9.]+) \|/gm)].map((m) => [m[1], Number(m[2]), m[3]]);
    expect(rows).toEqual(CURRENCY_CODES.map((code) => [code, currency(code).decimals, SANDBOX_USD_RATES[code]]));
    expect(currency('BTC').decimals).toBe(8);
    expect(currency('USDC').decimals).toBe(6);
  });

  it('getQuoteRates adds the BTC rate for rateDetails', async () => {
    const src = createSandboxRateSource({ clock: fixedClock(T0) });
    const { rate, btcRate } = await getQuoteRates(src, 'EUR', 'UGX');
    expect(rate.rate).toEqual(rational(3700n * 25n, 23n));
    expect(btcRate?.rate).toEqual(rational(1n, 92000n)); // 0.00001 / 0.92
  });
});

describe('parseRatesDocument', () => {
  it('accepts a valid document, ignoring currencies Corridor does not support', () => {
    const d = parseRatesDocument(doc('2025-10-13T12:00:00Z', { EUR: '0.92', JPY: '150.1' }));
    expect(d.asOf).toEqual(T0);
    expect(d.rates.get('EUR')).toEqual(parseDecimal('0.92'));
    expect(d.rates.get('USD')).toEqual(rational(1n));
    expect(d.rates.has('JPY')).toBe(false);
  });

  it.each([
    ['bad JSON', '{"asOf":'],
    ['not an object', '[]'],
    ['extra field', JSON.stringify({ asOf: '2025-10-13T12:00:00Z', base: 'USD', rates: {}, note: 1 })],
    ['date without zone', doc('2025-10-13T12:00:00', { EUR: '0.92' })],
    ['date only', doc('2025-10-13', { EUR: '0.92' })],
    ['bad base', doc('2025-10-13T12:00:00Z', { EUR: '0.92' }, 'XYZ')],
    ['rate zero', doc('2025-10-13T12:00:00Z', { EUR: '0' })],
    ['negative rate', doc('2025-10-13T12:00:00Z', { EUR: '-0.92' })],
    ['rate as number', JSON.stringify({ asOf: '2025-10-13T12:00:00Z', base: 'USD', rates: { EUR: 0.92 } })],
    ['rate in exponent form', doc('2025-10-13T12:00:00Z', { EUR: '9.2e-1' })],
    ['base rate not 1', doc('2025-10-13T12:00:00Z', { USD: '1.01' })],
    ['bad code', doc('2025-10-13T12:00:00Z', { 'eu r': '1' })],
  ])('rejects %s', (_name, text) => {
    expect(() => parseRatesDocument(text)).toThrow(RatesDocumentError);
  });
});

describe('file rate source', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corridor-rates-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const write = (path: string, text: string) => {
    const tmp = `${path}.${n++}.tmp`;
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  };

  it('serves exact cross rates, goes stale, reports and ignores bad documents', async () => {
    const path = join(dir, 'rates.json');
    const clock = fixedClock(T0);
    const errors: Error[] = [];
    const src = createFileRateSource({ path, maxAgeMs: 60_000, clock, onError: (e) => errors.push(e) });

    await expectUnavailable(src.getRate('USD', 'EUR'), 'RATE_UNAVAILABLE'); // no file yet
    expect(errors).toHaveLength(1);

    write(path, doc('2025-10-13T11:59:30Z', { EUR: '0.92', GBP: '0.79' }));
    expect((await src.getRate('EUR', 'GBP')).rate).toEqual(rational(79n, 92n));
    expect((await src.getRate('USD', 'EUR')).source).toBe(`file:${path}`);
    await expectUnavailable(src.getRate('USD', 'BTC'), 'RATE_UNAVAILABLE');

    clock.set(new Date('2025-10-13T12:00:31Z'));
    const stale = await expectUnavailable(src.getRate('USD', 'EUR'), 'RATES_STALE');
    expect(stale.message).toMatch(/stale/);

    // a broken update keeps the previous good document and is reported once
    write(path, '{"asOf": "2025-10-13T12:00:30Z", "base": "USD", "rates": {"EUR": "0"}}');
    clock.set(new Date('2025-10-13T12:00:00Z'));
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.92'));
    await src.getRate('USD', 'EUR');
    expect(errors).toHaveLength(2);
    expect(errors[1]).toBeInstanceOf(RatesDocumentError);

    write(path, doc('2025-10-13T12:00:30Z', { EUR: '0.93' }));
    clock.set(new Date('2025-10-13T12:01:00Z'));
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.93'));
  });
});

describe('URL rate source', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function fakeFetch(bodies: Array<string | number>) {
    const calls: string[] = [];
    const fn = (async (url: string) => {
      calls.push(url);
      const next = bodies.length > 1 ? bodies.shift()! : bodies[0];
      if (typeof next === 'number') return new Response('oops', { status: next });
      return new Response(next, { status: 200, headers: { 'content-type': 'application/json' } });
    }) as unknown as typeof fetch;
    return { fn, calls };
  }

  it('keeps the last good document across bad polls, and goes stale by asOf', async () => {
    const clock = fixedClock(T0);
    const errors: Error[] = [];
    const { fn } = fakeFetch([
      doc('2025-10-13T11:59:00Z', { EUR: '0.92' }),
      500,
      'not json',
      doc('2025-10-13T11:58:00Z', { EUR: '0.5' }),
      doc('2025-10-13T12:00:00Z', { EUR: '0.91' }),
    ]);
    const src = createUrlRateSource({
      url: 'https://rates.example/latest.json',
      pollIntervalMs: 1000,
      maxAgeMs: 120_000,
      clock,
      fetch: fn,
      onError: (e) => errors.push(e),
    });

    await expectUnavailable(src.getRate('USD', 'EUR'), 'RATE_UNAVAILABLE');
    expect(await src.refresh()).toBe(true);
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.92'));
    expect(await src.refresh()).toBe(false); // HTTP 500
    expect(await src.refresh()).toBe(false); // bad JSON
    expect(await src.refresh()).toBe(false); // older asOf: ignored, not an error
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/HTTP 500/), expect.stringMatching(/not valid JSON/)]);
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.92'));
    clock.set(new Date('2025-10-13T12:01:01Z'));
    await expectUnavailable(src.getRate('USD', 'EUR'), 'RATES_STALE');
    expect(await src.refresh()).toBe(true);
    expect((await src.getRate('EUR', 'USD')).rate).toEqual(rational(100n, 91n));
  });

  it('polls on a schedule after start() until stop()', async () => {
    vi.useFakeTimers();
    const { fn, calls } = fakeFetch([doc('2025-10-13T12:00:00Z', { EUR: '0.92' })]);
    const src = createUrlRateSource({ url: 'https://rates.example/latest.json', pollIntervalMs: 10_000, maxAgeMs: 60_000, clock: fixedClock(T0), fetch: fn });
    src.start();
    src.start(); // idempotent
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect((await src.getRate('USD', 'EUR')).rate).toEqual(parseDecimal('0.92'));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toHaveLength(4);
    src.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(calls).toHaveLength(4);
  });

  it('refuses an oversized document', async () => {
    const errors: Error[] = [];
    const big = JSON.stringify({ asOf: '2025-10-13T12:00:00Z', base: 'USD', rates: { EUR: '0.' + '9'.repeat(2_000_000) } });
    const { fn } = fakeFetch([big]);
    const src = createUrlRateSource({
      url: 'https://rates.example/',
      pollIntervalMs: 1000,
      maxAgeMs: 1000,
      clock: fixedClock(T0),
      fetch: fn,
      onError: (e) => errors.push(e),
    });
    expect(await src.refresh()).toBe(false);
    expect(errors[0].message).toMatch(/larger than/);
  });
});

describe('production rate URL hardening', () => {
  /** A fetch that records the headers it was given and answers the documents in turn. */
  function recordingFetch(bodies: string[]) {
    const seen: Array<Record<string, string>> = [];
    const fn = (async (_url: string, init?: RequestInit) => {
      seen.push({ ...(init?.headers as Record<string, string>) });
      return new Response(bodies.length > 1 ? bodies.shift()! : bodies[0], { status: 200 });
    }) as unknown as typeof fetch;
    return { fn, seen };
  }
  const refused = async (reason: string) => (await ratesDocumentsRefused.get()).values.find((v) => v.labels.reason === reason)?.value ?? 0;

  it('refuses a plain-http rates URL', () => {
    expect(() => createUrlRateSource({ url: 'http://rates.example/latest.json', pollIntervalMs: 1000, maxAgeMs: 60_000, clock: fixedClock(T0) })).toThrow(
      /https/,
    );
    expect(() => loadConfig({ RATES_URL: 'http://rates.example/latest.json' })).toThrow(/RATES_URL must be an https:\/\/ URL/);
    expect(loadConfig({ RATES_URL: 'https://rates.example/latest.json' }).ratesUrl).toBe('https://rates.example/latest.json');
  });

  it("sends the operator's Authorization header (RATES_AUTHORIZATION)", async () => {
    const { fn, seen } = recordingFetch([doc('2025-10-13T12:00:00Z', { EUR: '0.92' })]);
    const src = createUrlRateSource({
      url: 'https://rates.example/',
      authorization: 'Bearer provider-key',
      pollIntervalMs: 1000,
      maxAgeMs: 60_000,
      clock: fixedClock(T0),
      fetch: fn,
    });
    expect(await src.refresh()).toBe(true);
    expect(seen[0]).toMatchObject({ authorization: 'Bearer provider-key', accept: 'application/json' });
    expect(loadConfig({ RATES_AUTHORIZATION: 'Bearer provider-key' }).ratesAuthorization).toBe('Bearer provider-key');
    expect(() => loadConfig({ RATES_AUTHORIZATION: 'Bearer a\r\nX-Injected: 1' })).toThrow(/RATES_AUTHORIZATION/);
  });

  it('refuses a document that moves a rate more than RATES_MAX_CHANGE_PERCENT from the last accepted one, logs it and counts it', async () => {
    const errors: Error[] = [];
    const { fn } = recordingFetch([
      doc('2025-10-13T12:00:00Z', { EUR: '0.92', BTC: '0.00001' }),
      doc('2025-10-13T12:01:00Z', { EUR: '0.96', BTC: '0.00001' }), // EUR +4.35%: within 5%
      doc('2025-10-13T12:02:00Z', { EUR: '0.96', BTC: '0.000005' }), // BTC −50%: refused
      doc('2025-10-13T12:03:00Z', { EUR: '0.95', BTC: '0.0000099', MXN: '18.5' }), // within; MXN is new
    ]);
    const src = createUrlRateSource({
      url: 'https://rates.example/',
      maxChangePercent: 5,
      pollIntervalMs: 1000,
      maxAgeMs: 600_000,
      clock: fixedClock(new Date('2025-10-13T12:03:00Z')),
      fetch: fn,
      onError: (e) => errors.push(e),
    });
    const before = await refused('implausible');
    expect(await src.refresh()).toBe(true);
    expect(await src.refresh()).toBe(true);
    expect(await src.refresh()).toBe(false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(ImplausibleRatesError);
    expect(errors[0].message).toMatch(/USD→BTC moved 50% .*more than the 5% allowed/);
    expect(await refused('implausible')).toBe(before + 1);
    // The last accepted document stays in use.
    expect((await src.getRate('USD', 'BTC')).rate).toEqual(parseDecimal('0.00001'));
    expect(await src.refresh()).toBe(true);
    expect((await src.getRate('USD', 'MXN')).rate).toEqual(parseDecimal('18.5'));
    expect(() => loadConfig({ RATES_MAX_CHANGE_PERCENT: '0' })).toThrow(/RATES_MAX_CHANGE_PERCENT/);
    expect(loadConfig({ RATES_MAX_CHANGE_PERCENT: '2.5' }).ratesMaxChangePercent).toBe(2.5);
  });

  it("compares through the last document's base when the base changes", () => {
    const last = parseRatesDocument(doc('2025-10-13T12:00:00Z', { EUR: '0.9' }));
    expect(() => checkPlausible(last, parseRatesDocument(doc('2025-10-13T12:01:00Z', { USD: '1.1' }, 'EUR')), 2)).not.toThrow(); // 1/1.1 = 0.909: +1%
    expect(() => checkPlausible(last, parseRatesDocument(doc('2025-10-13T12:01:00Z', { USD: '1.25' }, 'EUR')), 2)).toThrow(ImplausibleRatesError); // 0.8: −11%
  });

  it('counts unreachable and invalid documents too, under their own reasons', async () => {
    const beforeInvalid = await refused('invalid');
    const { fn } = recordingFetch(['not json']);
    const src = createUrlRateSource({ url: 'https://rates.example/', pollIntervalMs: 1000, maxAgeMs: 60_000, clock: fixedClock(T0), fetch: fn });
    expect(await src.refresh()).toBe(false);
    expect(await refused('invalid')).toBe(beforeInvalid + 1);
  });
});

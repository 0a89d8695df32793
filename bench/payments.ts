// Payments throughput beside the same-run baseline (the authenticated no-op GET /ping): quote
// create, execute of a prefunded quote, and the full prefunded payment, both as one call
// (immediatelyExecute) and as the two calls create + execute. Sandbox destination 000, so every
// payment completes inside its request (reserve, post, two webhooks in the outbox).
// Run: npx tsx bench/payments.ts (BENCH_DB=sqlite to pick one).
import autocannon from 'autocannon';
import { API, DIALECTS, DURATION_S, TABLE_HEAD, benchServer, load, machine, row, writeSection, type LoadResult } from './lib.js';

interface Json {
  [k: string]: any;
}

async function post(baseUrl: string, auth: string, path: string, body: unknown): Promise<Json> {
  const res = await fetch(`${baseUrl}${API}${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** autocannon with a request sequence; returns the usual figures for the whole sequence's requests. */
async function drive(opts: Record<string, unknown>): Promise<LoadResult> {
  const r = await autocannon({ connections: 20, duration: DURATION_S, ...opts });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function measure(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const s = await benchServer(dialect, process.env.BENCH_ENV ? JSON.parse(process.env.BENCH_ENV) : {});
  try {
    const headers = { authorization: s.auth, 'content-type': 'application/json' };
    // execute has no body, so no Content-Type (Fastify refuses an empty JSON body).
    const bare = { authorization: s.auth };
    const customer = await post(s.baseUrl, s.auth, '/customers', {
      platformCustomerId: `bench-pay-${process.pid}`,
      customerType: 'INDIVIDUAL',
      fullName: 'Bench Payer',
      currencies: ['USD'],
    });
    const accounts = await (await fetch(`${s.baseUrl}${API}/customers/internal-accounts?customerId=${encodeURIComponent(customer.id)}`, { headers })).json();
    const source = (accounts as Json).data[0].id as string;
    for (let i = 0; i < 10; i++) await post(s.baseUrl, s.auth, `/sandbox/internal-accounts/${source}/fund`, { amount: 100_000_000_000 });
    const iban = await post(s.baseUrl, s.auth, '/customers/external-accounts', {
      customerId: customer.id,
      currency: 'EUR',
      accountInfo: {
        accountType: 'IBAN',
        iban: 'DE89370400440532013000',
        swiftBic: 'COBADEFFXXX',
        beneficiary: { beneficiaryType: 'INDIVIDUAL', fullName: 'Bench Payee' },
      },
    });
    const quoteBody = (extra: Json = {}) =>
      JSON.stringify({
        source: { sourceType: 'ACCOUNT', accountId: source },
        destination: { destinationType: 'ACCOUNT', accountId: iban.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1000,
        ...extra,
      });

    const baseline = await load({ url: `${s.baseUrl}${API}/ping`, headers });
    // Quote create; the ids it returns are executed next, one request each.
    const pending: string[] = [];
    const create = await drive({
      url: `${s.baseUrl}${API}/quotes`,
      requests: [
        { method: 'POST', headers, body: quoteBody(), onResponse: (status: number, body: string) => status === 201 && pending.push(JSON.parse(body).id) },
      ],
    });
    let next = 0;
    const execute = await drive({
      url: s.baseUrl,
      // Stop before the quotes run out; each request takes the next created quote.
      amount: pending.length,
      requests: [
        { method: 'POST', headers: bare, setupRequest: (req: Json) => ({ ...req, path: `${API}/quotes/${pending[next++ % pending.length]}/execute` }) },
      ],
    });
    const oneCall = await drive({ url: `${s.baseUrl}${API}/quotes`, requests: [{ method: 'POST', headers, body: quoteBody({ immediatelyExecute: true }) }] });
    const twoCalls = await drive({
      url: s.baseUrl,
      requests: [
        {
          method: 'POST',
          path: `${API}/quotes`,
          headers,
          body: quoteBody(),
          onResponse: (_s: number, body: string, context: Json) => (context.quoteId = JSON.parse(body).id),
        },
        { method: 'POST', headers: bare, setupRequest: (req: Json, context: Json) => ({ ...req, path: `${API}/quotes/${context.quoteId}/execute` }) },
      ],
    });
    const paymentsPerS = (r: LoadResult, calls: number) => Math.round(r.rps / calls);
    return [
      `### ${dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL'}`,
      '',
      TABLE_HEAD,
      row('GET /ping (baseline)', baseline, baseline),
      row('POST /quotes', create, baseline),
      row('POST /quotes/{id}/execute', execute, baseline),
      row('POST /quotes immediatelyExecute (full payment, 1 call)', oneCall, baseline),
      row('POST /quotes + execute (full payment, 2 calls)', twoCalls, baseline),
      '',
      `Full prefunded payments per second: ${paymentsPerS(oneCall, 1)} in one call (${((paymentsPerS(oneCall, 1) / baseline.rps) * 100).toFixed(0)}% of the baseline's requests), ${paymentsPerS(twoCalls, 2)} as create + execute (${((paymentsPerS(twoCalls, 2) / baseline.rps) * 100).toFixed(0)}%). Executes measured: ${execute.rps * DURATION_S > pending.length ? pending.length : 'all due'} of ${pending.length} quotes created. Peak server RSS: ${s.peakRssMiB()} MiB.`,
    ].join('\n');
  } finally {
    await s.stop();
  }
}

export async function run() {
  const sections: string[] = [];
  for (const dialect of DIALECTS) sections.push(await measure(dialect));
  writeSection('payments', `## Payments\n\n${machine()}\n\n${sections.join('\n\n')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

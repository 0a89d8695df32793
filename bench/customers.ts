// Customer create and list throughput beside the same-run baseline: the authenticated no-op
// GET /ping of the same server. Run: npx tsx bench/customers.ts (BENCH_DB=sqlite to pick one).
import { API, DIALECTS, TABLE_HEAD, benchServer, load, machine, row, writeSection } from './lib.js';

export async function run() {
  const sections: string[] = [];
  for (const dialect of DIALECTS) {
    const s = await benchServer(dialect);
    try {
      const headers = { authorization: s.auth, 'content-type': 'application/json' };
      const baseline = await load({ url: `${s.baseUrl}${API}/ping`, headers });
      let n = 0;
      const create = await load({
        url: `${s.baseUrl}${API}/customers`,
        method: 'POST',
        headers,
        body: () =>
          JSON.stringify({
            platformCustomerId: `bench-${process.pid}-${++n}`,
            customerType: 'INDIVIDUAL',
            fullName: 'Bench Customer',
            address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
          }),
      });
      const list = await load({ url: `${s.baseUrl}${API}/customers?limit=20`, headers });
      sections.push(
        `### ${dialect === 'sqlite' ? 'SQLite (WAL, synchronous=FULL)' : 'PostgreSQL'}\n\n${TABLE_HEAD}\n${row('GET /ping (baseline)', baseline, baseline)}\n${row('POST /customers', create, baseline)}\n${row('GET /customers?limit=20', list, baseline)}\n\nPeak server RSS: ${s.peakRssMiB()} MiB; customers in the table at the list run: ${n}.`,
      );
    } finally {
      await s.stop();
    }
  }
  writeSection('customers', `## Customers\n\n${machine()}\n\n${sections.join('\n\n')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

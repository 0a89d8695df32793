// Webhook delivery throughput: events per second from the outbox to a local receiver, against a
// same-run baseline of raw HTTP attempts (deliver()) to the same receiver without the outbox.
// Run alone with `npx tsx bench/webhook-delivery.ts` (BENCH_DB=sqlite|postgres, BENCH_EVENTS=n),
// or with every benchmark through `npm run bench`. Writes its section of bench/RESULTS.md.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { dropPostgresSchema, openDatabase, randomSchemaName, type Database } from '../src/db/database.js';
import { deliver } from '../src/events/http-delivery.js';
import { DIALECTS, writeSection, type Dialect } from './lib.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 3000);
const LOOPS = 8; // WEBHOOK_CONCURRENCY default
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A receiver that answers 200 at once (its own cost stays out of the figures). */
async function receiver() {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    received: () => received,
    close: () => new Promise((r) => server.close(r)),
  };
}

async function database(dialect: Dialect): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (dialect === 'postgres') {
    const schema = randomSchemaName('bench');
    return { db: await openDatabase({ url: PG_URL, pgSchema: schema, poolSize: 12 }), drop: () => dropPostgresSchema(PG_URL, schema) };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'corridor-bench-'));
  return { db: await openDatabase({ url: path.join(dir, 'corridor.db') }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const perSecond = (n: number, ms: number) => Math.round((n / ms) * 1000);

async function measure(dialect: Dialect) {
  const sink = await receiver();
  const body = JSON.stringify({
    type: 'OUTGOING_PAYMENT',
    webhookId: 'Webhook:x',
    timestamp: new Date().toISOString(),
    transaction: { id: 'Transaction:x', status: 'COMPLETED' },
  });

  // Baseline: the HTTP attempts alone, same concurrency, same receiver.
  let sent = 0;
  let t = performance.now();
  await Promise.all(
    Array.from({ length: LOOPS }, async () => {
      while (sent++ < EVENTS) await deliver({ url: sink.url, body, headers: { 'X-Corridor-Signature': 't=0,v1=x' }, pinnedAddresses: ['127.0.0.1'] });
    }),
  );
  const baseline = perSecond(EVENTS, performance.now() - t);

  const { db, drop } = await database(dialect);
  const container = await createContainer(loadConfig({ DATA_DIR: '/nonexistent' }), { db });
  const platform = await container.services.platforms.create('Bench');
  const scope = { platformId: platform.id, environment: 'SANDBOX' as const };
  await container.services.config.update(scope, { webhookEndpoint: sink.url });
  const received0 = sink.received();

  // Outbox writes: one event per transaction, as a payment status change would emit it.
  t = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    await db.tx(() =>
      container.events.emit(scope, {
        type: 'OUTGOING_PAYMENT',
        subject: `Transaction:${i % 500}`,
        payload: { transaction: { id: `Transaction:${i % 500}`, status: 'COMPLETED', i } },
      }),
    );
  }
  const emitRate = perSecond(EVENTS, performance.now() - t);

  // Delivery of the backlog: claim, check, sign, POST, record, per event.
  const drain = async (loops: number, count: number) => {
    const start = performance.now();
    let done = 0;
    await Promise.all(
      Array.from({ length: loops }, async () => {
        while (done < count && (await container.webhooks.worker.processNext())) done++;
      }),
    );
    return perSecond(done, performance.now() - start);
  };
  const oneLoop = await drain(1, Math.floor(EVENTS / 4));
  const eightLoops = await drain(LOOPS, EVENTS);
  const delivered = sink.received() - received0;

  await container.close();
  await drop();
  await sink.close();
  if (delivered !== EVENTS) throw new Error(`delivered ${delivered} of ${EVENTS}`);
  return { baseline, emitRate, oneLoop, eightLoops };
}

export async function run() {
  const sections: string[] = [];
  for (const dialect of DIALECTS) {
    const r = await measure(dialect);
    const name = dialect === 'sqlite' ? 'SQLite (file, WAL, synchronous=FULL)' : 'PostgreSQL';
    sections.push(
      `### ${name}\n\n| measure | events/s | vs baseline |\n|---|---|---|\n` +
        `| raw deliver(), ${LOOPS} concurrent (baseline) | ${r.baseline} | 100% |\n` +
        `| outbox delivery, ${LOOPS} worker loops | ${r.eightLoops} | ${Math.round((r.eightLoops / r.baseline) * 100)}% |\n` +
        `| outbox delivery, 1 worker loop | ${r.oneLoop} | ${Math.round((r.oneLoop / r.baseline) * 100)}% |\n` +
        `| emit (one event per transaction, no delivery) | ${r.emitRate} | — |`,
    );
  }
  writeSection(
    'webhook-delivery',
    `## Webhook delivery\n\nNode ${process.version}, ${EVENTS} events to a local receiver that answers 200 at once, ${new Date().toISOString().slice(0, 10)}. ` +
      'Outbox delivery drains a backlog: per event a leased job claim, the SSRF check, an Ed25519 signature, the POST on a fresh connection, and the attempt recorded with the job completed in one transaction. ' +
      'The baseline is the POST alone (`deliver()`), same concurrency, same receiver.\n\n' +
      sections.join('\n\n'),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run().then(
    () => process.exit(0),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}

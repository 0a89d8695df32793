// PostgreSQL across a network link: what a round trip to the database costs a payment. The server
// reaches PostgreSQL through a TCP relay in this process that holds every chunk DB_LINK_DELAY_MS
// (default 1 ms) each way, as a database in another zone would; the payment runs with one client
// (its latency is the sum of its round trips) and with 20. `ledger verify` runs at the end.
// Run: npx tsx bench/db-latency.ts (BENCH_LABEL names the section, BENCH_SECONDS lengthens it).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { cli, startServer, serverEnvironment } from '../test/helpers/server.js';
import { API, DIALECTS, machine, writeSection } from './lib.js';
import { drive, payingWorld, type Json } from './paying.js';

const DELAY_MS = Number(process.env.DB_LINK_DELAY_MS ?? 1);

/** A TCP relay to `target` delaying each chunk by delayMs in each direction, in order (timers of one duration fire in the order set). */
async function delayedLink(target: URL, delayMs: number): Promise<{ port: number; close: () => void }> {
  const open = new Set<net.Socket>();
  const relay = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => setTimeout(() => to.write(chunk), delayMs));
    from.on('end', () => setTimeout(() => to.end(), delayMs));
    from.on('error', () => to.destroy());
    from.on('close', () => open.delete(from));
    open.add(from);
  };
  // Without Nagle's algorithm, as PostgreSQL and node-postgres set their own sockets: with it, the
  // relay held a second answer until the first was acknowledged, and the receiver, waiting for that
  // second answer before writing, acknowledged only after its delayed-ACK timer (40 ms).
  const server = net.createServer({ noDelay: true }, (client) => {
    const upstream = net.connect({ port: Number(target.port || 5432), host: target.hostname, noDelay: true });
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      for (const s of open) s.destroy();
      server.close();
    },
  };
}

export async function run() {
  if (!DIALECTS.includes('postgres')) return;
  const { env, cleanup } = await serverEnvironment('postgres');
  const url = new URL(env.DATABASE_URL);
  const link = await delayedLink(new URL(url), DELAY_MS);
  url.host = `127.0.0.1:${link.port}`;
  const serverEnv = { ...env, DATABASE_URL: url.toString(), LOG_LEVEL: 'error' };
  const server = await startServer(serverEnv);
  try {
    const creds = JSON.parse(fs.readFileSync(path.join(env.DATA_DIR, 'credentials.json'), 'utf8'));
    const auth = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString('base64')}`;
    const base = server.baseUrl;
    const json = { authorization: auth, 'content-type': 'application/json' };
    const { sources, quote } = await payingWorld(base, auth);
    const oneClient = await drive(
      { url: `${base}${API}/quotes`, connections: 1, requests: [{ method: 'POST', headers: json, body: quote(sources[0]) }] },
      base,
    );
    let k = 0;
    const twenty = await drive(
      {
        url: `${base}${API}/quotes`,
        requests: [{ method: 'POST', headers: json, setupRequest: (req: Json) => ({ ...req, body: quote(sources[k++ % sources.length]) }) }],
      },
      base,
    );
    await server.stop();
    // Directly, not through the relay: cli() waits synchronously, so the relay in this process could not forward.
    const verify = cli(['ledger', 'verify'], { ...serverEnv, DATABASE_URL: env.DATABASE_URL });
    const verified = verify.status === 0 ? 'clean' : `FAILED (exit ${verify.status}): ${verify.stdout}${verify.stderr}`;
    const label = process.env.BENCH_LABEL ?? 'after';
    writeSection(
      `db-latency-${label}`,
      [
        `## PostgreSQL ${DELAY_MS} ms away (${label})`,
        '',
        `${machine('1 and 20 connections')}. Every chunk between server and database held ${DELAY_MS} ms each way by a relay (a round trip ≥ ${2 * DELAY_MS} ms).`,
        '',
        '| full payment (POST /quotes immediatelyExecute) | req/s | p50 ms | p99 ms | statements / payment | non-2xx |',
        '|---|---|---|---|---|---|',
        `| 1 client, 1 payer | ${oneClient.rps} | ${oneClient.p50} | ${oneClient.p99} | ${oneClient.statements} | ${oneClient.failed} |`,
        `| 20 clients, 40 payers | ${twenty.rps} | ${twenty.p50} | ${twenty.p99} | ${twenty.statements} | ${twenty.failed} |`,
        '',
        `\`ledger verify\` after the run: ${verified}.`,
      ].join('\n'),
    );
  } finally {
    await server.stop();
    link.close();
    await cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();

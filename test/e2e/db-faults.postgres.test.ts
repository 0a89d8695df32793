// The fault harness (issue 38; docs/reliability.md, "Database faults"): real server processes, one
// and then three, reach PostgreSQL through a TCP relay the test controls, while clients pay from
// one shared balance and retry every request with its Idempotency-Key until a final answer.
// Meanwhile the database's side of the nodes' connections is broken in every way a client can
// meet: backends terminated (all of them; those idle inside a transaction; those running COMMIT),
// statements cancelled, the network frozen (a silent cut: nothing arrives, nothing is reset) for
// 30 s, and every connection reset. Then the proof: every 2xx exists, nothing is doubled, the
// balance is exact, `ledger verify` is clean, every webhook arrived, and no request waited longer
// than the bound the configuration sets.
// (PostgreSQL only: the relay stands between the nodes and PostgreSQL; the sqlite project excludes *.postgres.test.ts.)
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOperations, Cluster, prepareWorld, runLoad, sleep, verify } from '../../scripts/chaos/lib.js';
import { PG_URL } from '../helpers/env.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';

// The bounds, tighter than the defaults (docs/reliability.md, "Bounds") so that a run fits CI; the
// same code paths. A request meets at most one answer awaited in vain (PG_QUERY_TIMEOUT_MS) or
// connection attempt (PG_CONNECT_TIMEOUT_MS): the steps after it fail at once (src/db/faults.ts,
// reachability). Checked against twice their sum, plus 2 s, for a busy test machine.
const BOUNDS = {
  PG_STATEMENT_TIMEOUT_MS: '2000',
  PG_LOCK_TIMEOUT_MS: '1500',
  PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '2500',
  PG_QUERY_TIMEOUT_MS: '3000',
  PG_CONNECT_TIMEOUT_MS: '2000',
  PG_KEEPALIVE_INITIAL_DELAY_MS: '1000',
};
const BOUND_MS = 2 * (3000 + 2000) + 2000;
/** The silent cut of the issue: thirty seconds, ten times the answer timeout. */
const FREEZE_MS = 30_000;

/** The backends behind the relay: only this test's nodes, never another test's connections. */
async function ours(admin: pg.Client, relay: TcpRelay, where = 'true'): Promise<number[]> {
  const ports = relay.upstreamPorts();
  if (ports.length === 0) return [];
  const r = await admin.query(`select pid from pg_stat_activity where client_port = any($1::int[]) and ${where}`, [ports]);
  return r.rows.map((row: { pid: number }) => row.pid);
}

/**
 * For `ms`, ends (or cancels) every backend of ours that matches `where` as soon as it is seen:
 * sampled every few milliseconds, so a COMMIT or an idle transaction is caught in the act.
 */
async function strike(admin: pg.Client, relay: TcpRelay, action: 'terminate' | 'cancel', where: string, ms: number): Promise<number> {
  let hit = 0;
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const pid of await ours(admin, relay, where)) {
      const r = await admin.query(`select pg_${action}_backend($1) as done`, [pid]);
      if (r.rows[0].done) hit++;
    }
    await sleep(3);
  }
  return hit;
}

async function faultRun(nodes: number, relay: TcpRelay, admin: pg.Client) {
  let direct = '';
  const cluster = await Cluster.start('postgres', nodes, { ...BOUNDS, WEBHOOK_CONCURRENCY: '4' }, (url) => {
    direct = url;
    return relay.urlFor(url);
  });
  try {
    const world = await prepareWorld(cluster);
    const errors: Error[] = [];
    let stop = false;
    const load = runLoad(
      world,
      availableOperations(world),
      8,
      () => stop,
      (e) => errors.push(e),
    );
    const struck: Record<string, number> = {};
    await sleep(2000);
    struck.terminatedAll = await strike(admin, relay, 'terminate', 'true', 50);
    await sleep(1500);
    struck.terminatedIdleInTransaction = await strike(admin, relay, 'terminate', `state = 'idle in transaction'`, 2000);
    struck.terminatedAtCommit = await strike(admin, relay, 'terminate', `state = 'active' and query ilike 'commit%'`, 3000);
    struck.cancelled = await strike(admin, relay, 'cancel', `state = 'active' and query not ilike 'commit%'`, 2000);
    await sleep(1000);
    relay.freeze();
    await sleep(FREEZE_MS);
    relay.thaw();
    await sleep(3000);
    relay.reset();
    await sleep(3000);
    stop = true;
    const operations = await load;
    // `ledger verify` runs as a child process the test waits for without turning its event loop,
    // which moves the relay's bytes: it reaches PostgreSQL directly.
    cluster.env = { ...cluster.env, DATABASE_URL: direct };
    const { problems, facts } = await verify(cluster, world);
    const attempts = world.client.log;
    const slowest = Math.max(...attempts.map((e) => e.ms ?? 0));
    await world.receiver.close();
    return {
      problems: [...errors.map((e) => `operation failed: ${e.message}`), ...problems],
      facts: { ...facts, ...struck, operations, slowestMs: Math.round(slowest), unavailable: attempts.filter((e) => e.answer?.status === 503).length },
      slowest,
      unanswered: attempts.filter((e) => !e.answer),
    };
  } finally {
    relay.thaw();
    await cluster.stop();
  }
}

describe('database faults under payments, behind a relay to PostgreSQL', () => {
  let relay: TcpRelay;
  let admin: pg.Client;
  beforeAll(async () => {
    relay = await startTcpRelay();
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await relay?.close();
  });

  for (const nodes of [1, 3]) {
    it(
      `${nodes} node${nodes > 1 ? 's' : ''}: backends terminated (idle in a transaction, at COMMIT), statements cancelled, a ${FREEZE_MS / 1000} s silent cut, a reset`,
      { timeout: 420_000 },
      async () => {
        const r = await faultRun(nodes, relay, admin);
        console.log(`db faults, ${nodes} node(s): ${JSON.stringify(r.facts)}`);
        expect(r.problems).toEqual([]);
        // Every attempt got an answer (a 503 while the database was away), none waited past the bound.
        expect(r.unanswered.map((e) => `${e.method} ${e.path}: ${e.error}`)).toEqual([]);
        expect(r.slowest).toBeLessThan(BOUND_MS);
        // The faults reached the nodes: the cut was answered 503, and the strikes found backends.
        expect(r.facts.unavailable).toBeGreaterThan(0);
        expect(r.facts.terminatedAll).toBeGreaterThan(0);
        expect(r.facts.payments).toBeGreaterThan(0);
      },
    );
  }
});

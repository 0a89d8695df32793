// The fault harness (issue 38; docs/reliability.md, "Database faults"): real server processes, one
// and then three, reach PostgreSQL through a TCP relay the test controls, while clients pay from
// one shared balance and retry every request with its Idempotency-Key until a final answer.
// Meanwhile the database's side of the nodes' connections is broken in every way a client can
// meet: backends terminated (all of them; those idle inside a transaction; those running COMMIT),
// statements cancelled, the network frozen (a silent cut: nothing arrives, nothing is reset) for
// 30 s, and every connection reset; and, on a PostgreSQL server of the test's own, PostgreSQL itself
// restarted (`pg_ctl restart -m immediate`, then `-m fast`) and the network frozen for 3 minutes.
// Then the proof: every 2xx exists, nothing is doubled, the balance is exact, `ledger verify` is
// clean, every webhook arrived, and no request waited longer than the bound the configuration sets.
// (PostgreSQL only: the relay stands between the nodes and PostgreSQL; the sqlite project excludes *.postgres.test.ts.)
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableOperations, Client, Cluster, prepareWorld, runLoad, sleep, verify } from '../../scripts/chaos/lib.js';
import { PG_URL } from '../helpers/env.js';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/private-postgres.js';
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
/** The long silent cut of the issue: three minutes, sixty times the answer timeout. */
const LONG_FREEZE_MS = 180_000;

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

interface Target {
  relay: TcpRelay;
  /** The database the nodes use, straight to its server, from the URL of the fresh schema on the shared one. */
  direct(url: string): string;
}

/** Starts `nodes` nodes behind the relay, runs the payment load while `faults` runs, stops the load, and checks the end. */
async function faultRun(nodes: number, target: Target, faults: () => Promise<Record<string, number>>) {
  let direct = '';
  const cluster = await Cluster.start('postgres', nodes, { ...BOUNDS, WEBHOOK_CONCURRENCY: '4' }, (url) => {
    direct = target.direct(url);
    return target.relay.urlFor(direct);
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
    let struck: Record<string, number>;
    try {
      struck = await faults();
    } finally {
      target.relay.thaw();
      stop = true;
    }
    const operations = await load;
    // `ledger verify` runs as a child process the test waits for without turning its event loop,
    // which moves the relay's bytes: it reaches PostgreSQL directly.
    cluster.env = { ...cluster.env, DATABASE_URL: direct };
    const { problems, facts } = await verify(cluster, world);
    const attempts = world.client.log;
    const slowest = Math.max(...attempts.map((e) => e.ms ?? 0));
    await world.receiver.close();
    const all: Record<string, number> = {
      ...facts,
      ...struck,
      operations,
      slowestMs: Math.round(slowest),
      unavailable: attempts.filter((e) => e.answer?.status === 503).length,
    };
    return {
      problems: [...errors.map((e) => `operation failed: ${e.message}`), ...problems],
      facts: all,
      slowest,
      unanswered: attempts.filter((e) => !e.answer),
    };
  } finally {
    target.relay.thaw();
    await cluster.stop();
  }
}

/** The checks every case ends with. */
function expectClean(r: Awaited<ReturnType<typeof faultRun>>) {
  expect(r.problems).toEqual([]);
  // Every attempt got an answer (a 503 while the database was away), none waited past the bound.
  expect(r.unanswered.map((e) => `${e.method} ${e.path}: ${e.error}`)).toEqual([]);
  expect(r.slowest).toBeLessThan(BOUND_MS);
  expect(r.facts.payments).toBeGreaterThan(0);
}

/** The relay frozen for `ms`: nothing arrives either way, nothing is reset. */
async function silentCut(relay: TcpRelay, ms: number) {
  relay.freeze();
  await sleep(ms);
  relay.thaw();
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
        const r = await faultRun(nodes, { relay, direct: (url) => url }, async () => {
          const struck: Record<string, number> = {};
          await sleep(2000);
          struck.terminatedAll = await strike(admin, relay, 'terminate', 'true', 50);
          await sleep(1500);
          struck.terminatedIdleInTransaction = await strike(admin, relay, 'terminate', `state = 'idle in transaction'`, 2000);
          struck.terminatedAtCommit = await strike(admin, relay, 'terminate', `state = 'active' and query ilike 'commit%'`, 3000);
          struck.cancelled = await strike(admin, relay, 'cancel', `state = 'active' and query not ilike 'commit%'`, 2000);
          await sleep(1000);
          await silentCut(relay, FREEZE_MS);
          await sleep(3000);
          relay.reset();
          await sleep(3000);
          return struck;
        });
        console.log(`db faults, ${nodes} node(s): ${JSON.stringify(r.facts)}`);
        expectClean(r);
        // The faults reached the nodes: the cut was answered 503, and the strikes found backends.
        expect(r.facts.unavailable).toBeGreaterThan(0);
        expect(r.facts.terminatedAll).toBeGreaterThan(0);
      },
    );
  }
});

// PostgreSQL itself restarted, and the long cut, on a server of this test's own
// (test/helpers/private-postgres.ts): a restart would break every other test sharing the common one.
describe('PostgreSQL restarted (-m immediate, -m fast), and a 3-minute silent cut, on a private server', () => {
  let server: PrivatePostgres;
  let relay: TcpRelay;
  let databases = 0;
  /** A fresh database on the private server for each case; the nodes reach it through the relay. */
  async function target(): Promise<Target> {
    const name = `faults_${++databases}`;
    await server.createDatabase(name);
    return { relay, direct: () => server.url(name) };
  }
  beforeAll(async () => {
    server = await startPrivatePostgres();
    relay = await startTcpRelay({ host: '127.0.0.1', port: server.port });
  }, 120_000);
  afterAll(async () => {
    await relay?.close();
    await server?.stop();
  });

  for (const nodes of [1, 3]) {
    it(`${nodes} node${nodes > 1 ? 's' : ''}: pg_ctl restart -m immediate, then -m fast`, { timeout: 300_000 }, async () => {
      const pids = [server.pid()];
      const r = await faultRun(nodes, await target(), async () => {
        await sleep(3000);
        const immediateMs = await server.restart('immediate');
        pids.push(server.pid());
        await sleep(5000);
        const fastMs = await server.restart('fast');
        pids.push(server.pid());
        await sleep(5000);
        return { immediateMs, fastMs };
      });
      console.log(`db restarts, ${nodes} node(s): ${JSON.stringify(r.facts)}`);
      expectClean(r);
      // Both restarts happened (a new postmaster each time), while the nodes were paying.
      expect(new Set(pids).size).toBe(3);
      expect(server.log()).toMatch(/database system was interrupted|not properly shut down/);
    });
  }

  it(`1 node: a ${LONG_FREEZE_MS / 1000} s silent cut`, { timeout: 600_000 }, async () => {
    // The load's clients give a request up after 120 s of retries; through this cut they keep
    // retrying with the same key until it is over, as a client told "retry after 1 s" would.
    const settle = Client.prototype.settle;
    Client.prototype.settle = function (method, p, body, key, deadlineMs = LONG_FREEZE_MS + 120_000) {
      return settle.call(this, method, p, body, key, deadlineMs);
    };
    let r: Awaited<ReturnType<typeof faultRun>>;
    try {
      r = await faultRun(1, await target(), async () => {
        await sleep(3000);
        await silentCut(relay, LONG_FREEZE_MS);
        await sleep(5000);
        return {};
      });
    } finally {
      Client.prototype.settle = settle;
    }
    console.log(`db long cut, 1 node: ${JSON.stringify(r.facts)}`);
    expectClean(r);
    expect(r.facts.unavailable).toBeGreaterThan(0);
  });
});

/**
 * Delivery that keeps up (issue 15): the dispatcher (src/events/dispatcher.ts) against real
 * receivers. One platform's dead endpoint does not delay another platform's deliveries; the
 * circuit breaker opens after N failures and the attempts it skips show in the delivery log on
 * their retry schedule; a batch claim hands each job to one claimer; keep-alive reuses
 * connections. No assertion depends on the machine's speed: only on order and arrival.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/common/scope.js';
import { RETRY_SCHEDULE_MS, maxJitterMs } from '../src/events/backoff.js';
import { createCircuitBreaker } from '../src/events/circuit.js';
import { startDispatcher, type Dispatcher } from '../src/events/dispatcher.js';
import { CIRCUIT_OPEN_ERROR } from '../src/events/worker.js';
import { call, testContext, type TestContext } from './helpers/context.js';

let ctx: TestContext;

beforeAll(async () => {
  ctx = await testContext();
});

/** A receiver that answers 200 at once and counts the connections it was given. */
async function healthyReceiver() {
  const bodies: any[] = [];
  let sockets = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.end('ok');
    });
  });
  server.on('connection', () => sockets++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bodies,
    sockets: () => sockets,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** A receiver that accepts connections and never answers. */
async function hangingReceiver() {
  const open = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    socket.resume();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    connections: () => connections,
    close: () => {
      for (const s of open) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

/** A URL nothing listens on (connections are refused). */
async function deadUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/hooks`;
}

async function platformWithEndpoint(name: string, url: string): Promise<{ scope: Scope; auth: string }> {
  const p = await ctx.newPlatform(name);
  await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: url } });
  return { scope: { platformId: p.platformId, environment: 'SANDBOX' }, auth: p.auth };
}

/** n events of their own transactions (so none waits behind another), one transaction of writes. */
async function emit(scope: Scope, n: number, tag: string): Promise<string[]> {
  return ctx.container.db.tx(async () => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const subject = `Transaction:${tag}-${i}-${Math.random().toString(36).slice(2)}`;
      ids.push((await ctx.container.events.emit(scope, { type: 'OUTGOING_PAYMENT', subject, payload: { transaction: { id: subject } } })).deliveryId);
    }
    return ids;
  });
}

async function deliveries(ids: string[]) {
  return ctx.container.db.executor().selectFrom('webhook_deliveries').selectAll().where('id', 'in', ids).execute();
}

async function waitFor(check: () => boolean | Promise<boolean>, what: string, limitMs = 60_000) {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function dispatcher(opts: { concurrency: number; endpointConcurrency: number; circuit?: ReturnType<typeof createCircuitBreaker> }): Dispatcher {
  return startDispatcher({ worker: ctx.container.webhooks.worker, jobs: ctx.container.jobs, idleMs: 50, onError: (e) => console.error(e), ...opts });
}

/** Removes the delivery jobs a test left (so the next test's dispatcher does not see them). */
async function clearJobs() {
  await ctx.container.db.tx((trx) => trx.deleteFrom('jobs').where('kind', '=', 'webhook.deliver').execute());
}

describe('fairness across platforms', () => {
  it("one platform's hanging endpoint does not delay another platform's deliveries", { timeout: 120_000 }, async () => {
    const hang = await hangingReceiver();
    const good = await healthyReceiver();
    const slow = await platformWithEndpoint('Hanging', hang.url);
    const fast = await platformWithEndpoint('Healthy', good.url);
    // The hanging platform's events are older: an oldest-first worker pool would take them all first.
    const slowIds = await emit(slow.scope, 12, 'slow');
    const fastIds = await emit(fast.scope, 12, 'fast');
    const d = dispatcher({ concurrency: 8, endpointConcurrency: 2 });
    try {
      await waitFor(() => good.bodies.length >= fastIds.length, 'the healthy platform’s events');
      await waitFor(async () => (await deliveries(fastIds)).every((r) => r.status === 'DELIVERED'), 'the healthy deliveries recorded');
      // Every healthy event arrived while the hanging endpoint still held its first attempts: none of them has ended yet.
      const slowRows = await deliveries(slowIds);
      expect(slowRows.every((r) => r.status === 'PENDING' && Number(r.attempt_count) === 0)).toBe(true);
      expect(hang.connections()).toBeGreaterThan(0);
      expect(hang.connections()).toBeLessThanOrEqual(2);
      await waitFor(async () => (await deliveries(fastIds)).every((r) => r.status === 'DELIVERED'), 'the healthy deliveries recorded');
    } finally {
      await hang.close();
      await d.stop();
      await good.close();
      await clearJobs();
    }
  });

  it("one platform's refusing endpoint does not delay another platform's deliveries", { timeout: 120_000 }, async () => {
    const good = await healthyReceiver();
    const dead = await platformWithEndpoint('Dead', await deadUrl());
    const fast = await platformWithEndpoint('Healthy 2', good.url);
    const deadIds = await emit(dead.scope, 30, 'dead');
    const fastIds = await emit(fast.scope, 30, 'fast2');
    const d = dispatcher({ concurrency: 8, endpointConcurrency: 2 });
    try {
      await waitFor(() => good.bodies.length >= fastIds.length, 'the healthy platform’s events');
      await waitFor(async () => (await deliveries(fastIds)).every((r) => r.status === 'DELIVERED'), 'the healthy deliveries recorded');
      await waitFor(async () => (await deliveries(deadIds)).every((r) => Number(r.attempt_count) === 1), 'the dead endpoint’s first attempts');
      expect((await deliveries(deadIds)).every((r) => r.status === 'PENDING')).toBe(true);
    } finally {
      await d.stop();
      await good.close();
      await clearJobs();
    }
  });
});

describe('circuit breaker', () => {
  it('opens after N failures in a row; the skipped attempts are in the delivery log and keep the retry schedule', { timeout: 60_000 }, async () => {
    const url = await deadUrl();
    const dead = await platformWithEndpoint('Circuit', url);
    const ids = await emit(dead.scope, 6, 'circuit');
    const circuit = createCircuitBreaker({ failures: 3, openMs: 600_000 });
    // One attempt at a time to the endpoint: exactly the first three go out.
    const d = dispatcher({ concurrency: 4, endpointConcurrency: 1, circuit });
    try {
      await waitFor(async () => (await deliveries(ids)).every((r) => Number(r.attempt_count) === 1), 'a first attempt of every delivery');
    } finally {
      await d.stop();
    }
    expect(circuit.state(url)).toBe('open');
    const attempts = await ctx.container.db
      .executor()
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('delivery_id', 'in', ids)
      .orderBy('attempted_at')
      .execute();
    expect(attempts).toHaveLength(6);
    const refused = attempts.filter((a) => a.error === 'connection refused');
    const skipped = attempts.filter((a) => a.error === CIRCUIT_OPEN_ERROR);
    expect([refused.length, skipped.length]).toEqual([3, 3]);
    expect(refused.every((r) => skipped.every((s) => r.attempted_at <= s.attempted_at))).toBe(true);
    expect(attempts.every((a) => a.status_code === null && a.url === url)).toBe(true);
    // Each skipped attempt is a failed attempt: PENDING, due again on the schedule's first step.
    const rows = await deliveries(ids);
    const jobs = await ctx.container.db.executor().selectFrom('jobs').selectAll().where('kind', '=', 'webhook.deliver').execute();
    for (const row of rows) {
      expect(row.status).toBe('PENDING');
      const attempt = attempts.find((a) => a.delivery_id === row.id)!;
      const wait = new Date(row.next_attempt_at!).getTime() - new Date(attempt.attempted_at).getTime();
      expect(wait).toBeGreaterThanOrEqual(RETRY_SCHEDULE_MS[0] - 50);
      expect(wait).toBeLessThan(RETRY_SCHEDULE_MS[0] + maxJitterMs(RETRY_SCHEDULE_MS[0]) + 1000);
      const job = jobs.find((j) => JSON.parse(j.payload).deliveryId === row.id)!;
      expect(job.run_at).toBe(row.next_attempt_at);
      expect(job.locked_until).toBeNull();
    }
    // The delivery log shows them as the API answers them.
    const shown = (await call(ctx, 'GET', `/webhooks/deliveries/${skipped[0].delivery_id}`, { auth: dead.auth })).body;
    expect(shown.attempts[0]).toMatchObject({ attemptNumber: 1, error: CIRCUIT_OPEN_ERROR });
    expect(shown.attempts[0]).not.toHaveProperty('statusCode'); // no answer: absent, not null
    await clearJobs();
  });

  it('half-opens after its time with one probe, and closes on success', () => {
    let now = 0;
    const c = createCircuitBreaker({ failures: 2, openMs: 1000, now: () => now });
    c.record('u', false);
    expect(c.decide('u')).toBe('attempt');
    c.record('u', false);
    expect(c.decide('u')).toBe('open');
    now = 1000;
    expect(c.decide('u')).toBe('probe');
    expect(c.decide('u')).toBe('open'); // one probe at a time
    c.record('u', false); // the probe failed: open again, for twice as long
    now = 2999;
    expect(c.decide('u')).toBe('open');
    now = 3000;
    expect(c.decide('u')).toBe('probe');
    c.record('u', true);
    expect(c.state('u')).toBe('closed');
    expect(c.decide('u')).toBe('attempt');
  });
});

describe('batch claims', () => {
  it('concurrent batch claims get disjoint jobs, each job once', async () => {
    const kind = 'test.batch';
    await ctx.container.db.tx(() => ctx.container.jobs.enqueue(...Array.from({ length: 40 }, (_, i) => ({ kind, payload: { i } }))));
    const claims = await Promise.all(Array.from({ length: 4 }, () => ctx.container.jobs.claimBatch([kind], 60_000, 15)));
    const ids = claims.flat().map((j) => j.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(40);
    expect(claims.flat().every((j) => j.attempts === 1)).toBe(true);
    expect(await ctx.container.jobs.claimBatch([kind], 60_000, 15)).toEqual([]);
    await ctx.container.db.tx((trx) => trx.deleteFrom('jobs').where('kind', '=', kind).execute());
  });

  it('a released job is due again at once, its claim not counted as an attempt', async () => {
    const kind = 'test.release';
    await ctx.container.db.tx(() => ctx.container.jobs.enqueue(...Array.from({ length: 5 }, (_, i) => ({ kind, payload: { i } }))));
    const claimed = await ctx.container.jobs.claimBatch([kind], 60_000, 5);
    await ctx.container.jobs.release(claimed.slice(0, 3));
    const again = await ctx.container.jobs.claimBatch([kind], 60_000, 5);
    expect(again.map((j) => j.id).sort()).toEqual(
      claimed
        .slice(0, 3)
        .map((j) => j.id)
        .sort(),
    );
    expect(again.every((j) => j.attempts === 1)).toBe(true);
    await ctx.container.db.tx((trx) => trx.deleteFrom('jobs').where('kind', '=', kind).execute());
  });

  it('leaves the lanes it is told to skip, and only the first job of a subject', async () => {
    const kind = 'test.lanes';
    await ctx.container.db.tx(() =>
      ctx.container.jobs.enqueue(
        { kind, payload: { platformId: 'A', environment: 'SANDBOX' } },
        { kind, payload: { platformId: 'B', environment: 'SANDBOX' }, subject: 's' },
        { kind, payload: { platformId: 'B', environment: 'SANDBOX' }, subject: 's' },
        { kind, payload: { platformId: 'A', environment: 'PRODUCTION' } },
        { kind, payload: {} },
      ),
    );
    const claimed = await ctx.container.jobs.claimBatch([kind], 60_000, 10, { skipLanes: ['A|SANDBOX'] });
    expect(claimed.map((j) => JSON.stringify(j.payload)).sort()).toEqual(
      [{ platformId: 'A', environment: 'PRODUCTION' }, { platformId: 'B', environment: 'SANDBOX' }, {}].map((x) => JSON.stringify(x)).sort(),
    );
    await ctx.container.db.tx((trx) => trx.deleteFrom('jobs').where('kind', '=', kind).execute());
  });
});

describe('keep-alive', () => {
  it('reuses connections: the receiver sees fewer connections than requests', { timeout: 60_000 }, async () => {
    const good = await healthyReceiver();
    const p = await platformWithEndpoint('Keep-alive', good.url);
    const ids = await emit(p.scope, 40, 'ka');
    const d = dispatcher({ concurrency: 8, endpointConcurrency: 2 });
    try {
      await waitFor(() => good.bodies.length >= ids.length, 'every event');
      expect(good.sockets()).toBeLessThanOrEqual(2);
      expect(good.sockets()).toBeLessThan(good.bodies.length);
    } finally {
      await d.stop();
      await good.close();
      await clearJobs();
    }
  });
});

/**
 * A sandbox platform's webhook retry schedule follows its sandbox clock: a failed attempt's retry
 * is due when the platform's clock reaches the attempt plus the backoff, so an advance makes it
 * due at once and the delivery worker sends it. The webhook's own timestamp and signature time
 * stay real. Real time is a manual clock that moves only when a test moves it; the worker is
 * drained by hand, so nothing here waits on real time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BASE_DELAY_MS, maxJitterMs } from '../src/events/backoff.js';
import { webhookStore } from '../src/events/store.js';
import { DELIVER_JOB } from '../src/events/types.js';
import { call, type TestContext, type TestPlatform } from './helpers/context.js';
import { clockedSuite } from './helpers/sandbox-clock.js';
import type { WebhookReceiver } from './helpers/webhook-receiver.js';

const suite = clockedSuite('Clocked webhooks');
const { clock } = suite;
const platform = suite.platform;
const DAY_MS = 86_400_000;
// The first retry waits 5 s plus up to 2.5 s of jitter: 4 s never reaches it, 8 s always does.
const SHORT_OF_BACKOFF_S = 4;
const PAST_BACKOFF_S = Math.ceil((BASE_DELAY_MS + maxJitterMs(BASE_DELAY_MS)) / 1000);
let ctx: TestContext;
beforeAll(() => {
  ctx = suite.ctx;
});

/**
 * A pending delivery of an event, no money involved: a TEST event sent to a receiver that is
 * told to fail it, then resent (a resend goes through the delivery worker and its retry schedule).
 */
async function pendingDelivery(p: TestPlatform & { receiver: WebhookReceiver }) {
  p.receiver.respondWith(503);
  const test = await call(ctx, 'POST', '/webhooks/test', { auth: p.auth, body: {} });
  expect(test.body.delivered).toBe(false);
  const resent = await call(ctx, 'POST', `/webhooks/deliveries/${test.body.deliveryId}/resend`, { auth: p.auth });
  expect(resent.body.status).toBe('PENDING');
  return resent.body;
}

/** The receiver answers 500 to its next request, then 200. */
function failOnce(receiver: WebhookReceiver) {
  let failures = 1;
  receiver.respondWith(() => (failures-- > 0 ? 500 : 200));
}

const advance = (p: TestPlatform, seconds: number) => call(ctx, 'POST', '/sandbox/clock/advance', { auth: p.auth, body: { seconds } });
const freeze = (p: TestPlatform, frozen: boolean) => call(ctx, 'POST', '/sandbox/clock', { auth: p.auth, body: { frozen } });
const delivery = async (p: TestPlatform, id: string) => (await call(ctx, 'GET', `/webhooks/deliveries/${id}`, { auth: p.auth })).body;
const platformNow = async (p: TestPlatform) => Date.parse((await call(ctx, 'GET', '/sandbox/clock', { auth: p.auth })).body.now);

/** Runs the delivery worker until nothing is due; returns how many jobs it handled. */
async function drainWebhooks(): Promise<number> {
  let n = 0;
  while (await ctx.container.webhooks.worker.processNext()) n++;
  return n;
}

/** The delivery job of a delivery (its run_at is real time), or undefined once it finished. */
async function jobOf(deliveryId: string) {
  const rows = await ctx.container.db.executor().selectFrom('jobs').selectAll().where('kind', '=', DELIVER_JOB).execute();
  return rows.find((r) => JSON.parse(r.payload).deliveryId === deliveryId);
}

async function ledgerRows() {
  const ex = ctx.container.db.executor();
  const count = async (table: 'ledger_journals' | 'ledger_transfers') =>
    Number(
      (
        await ex
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return { journals: await count('ledger_journals'), transfers: await count('ledger_transfers') };
}

describe('webhook retries on the sandbox clock', () => {
  it('a failed attempt is retried when the platform’s clock reaches its backoff: an advance makes it due, the worker delivers it', async () => {
    const p = await platform();
    const other = await platform();
    // The platform's clock runs a day ahead of real time, so the two cannot be confused.
    expect((await advance(p, 86_400)).status).toBe(200);
    const offset = (await platformNow(p)) - clock.now().getTime();
    expect(offset).toBe(DAY_MS);

    const mine = await pendingDelivery(p);
    const theirs = await pendingDelivery(other);
    // Each receiver fails the first attempt, then succeeds.
    failOnce(p.receiver);
    failOnce(other.receiver);
    const attemptedAtMs = clock.now().getTime();
    expect(await drainWebhooks()).toBe(2);
    expect(p.receiver.requests.map((r) => r.status)).toEqual([503, 500]);
    expect(other.receiver.requests.map((r) => r.status)).toEqual([503, 500]);

    // The delivery log: the attempt at real time, the next attempt on the platform's clock.
    const logged = await delivery(p, mine.id);
    expect(logged).toMatchObject({ status: 'PENDING', attemptCount: 1 });
    expect(logged.attempts.map((a: any) => [a.attemptedAt, a.statusCode])).toEqual([[new Date(attemptedAtMs).toISOString(), 500]]);
    const backoffMs = Date.parse(logged.nextAttemptAt) - (attemptedAtMs + DAY_MS);
    expect(backoffMs).toBeGreaterThanOrEqual(BASE_DELAY_MS);
    expect(backoffMs).toBeLessThan(BASE_DELAY_MS + maxJitterMs(BASE_DELAY_MS));
    // Its job runs at the real instant the platform's clock reaches that time.
    expect((await jobOf(mine.id))?.run_at).toBe(new Date(attemptedAtMs + backoffMs).toISOString());
    // The other platform's retry is on real time (its clock never moved).
    const theirLog = await delivery(other, theirs.id);
    const theirJob = await jobOf(theirs.id);
    expect(Date.parse(theirLog.nextAttemptAt) - attemptedAtMs).toBeGreaterThanOrEqual(BASE_DELAY_MS);
    expect(theirJob?.run_at).toBe(theirLog.nextAttemptAt);
    // PRODUCTION reads real time whatever the platform's sandbox clock says.
    const production = await ctx.container.sandbox.clocks.retryAt({ platformId: p.platformId, environment: 'PRODUCTION' }, 5_000);
    expect(production).toEqual({ runAt: new Date(attemptedAtMs + 5_000), dueAt: new Date(attemptedAtMs + 5_000) });

    // Not before its time: the worker finds nothing due, before or after an advance short of the backoff.
    const ledgerBefore = await ledgerRows();
    expect(await drainWebhooks()).toBe(0);
    const short = await advance(p, SHORT_OF_BACKOFF_S);
    expect(short.body.stepsRun).toBe(0);
    expect(await drainWebhooks()).toBe(0);
    expect(p.receiver.requests).toHaveLength(2);

    // Past the backoff: due at once, and the worker delivers it (no network call inside the advance).
    const past = await advance(p, PAST_BACKOFF_S - SHORT_OF_BACKOFF_S);
    expect(past.status).toBe(200);
    expect(past.body.stepsRun).toBe(0);
    expect(p.receiver.requests).toHaveLength(2);
    expect(Date.parse((await jobOf(mine.id))!.run_at)).toBeLessThanOrEqual(clock.now().getTime());
    expect(await drainWebhooks()).toBe(1);
    expect(p.receiver.requests).toHaveLength(3);
    const retry = p.receiver.requests[2];
    expect(retry.status).toBe(200);
    expect(retry.event.webhookId).toBe(mine.webhookId);
    // The body's timestamp and the signature's t= are real time (the receiver checked the 5-minute window at real time).
    expect(retry.verified).toBe(true);
    expect(retry.event.timestamp).toBe(new Date(attemptedAtMs).toISOString());
    expect(retry.signature).toMatch(new RegExp(`^t=${Math.floor(clock.now().getTime() / 1000)},`));
    const done = await delivery(p, mine.id);
    expect(done).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
    expect(done).not.toHaveProperty('nextAttemptAt');
    expect(done.attempts[1].attemptedAt).toBe(clock.now().toISOString());
    expect(await jobOf(mine.id)).toBeUndefined();

    // The other platform's pending retry did not move: still due at its real time.
    expect((await jobOf(theirs.id))?.run_at).toBe(theirJob?.run_at);
    expect(other.receiver.requests).toHaveLength(2);
    // No money moved.
    expect(await ledgerRows()).toEqual(ledgerBefore);

    // Real time reaches the other platform's retry: its worker delivers it as before.
    clock.advance(PAST_BACKOFF_S * 1000);
    expect(await drainWebhooks()).toBe(1);
    expect(other.receiver.accepted().map((e) => e.webhookId)).toEqual([theirs.webhookId]);
    expect((await delivery(other, theirs.id)).status).toBe('DELIVERED');
  });

  it('a frozen clock delivers new events at once in real time; a retry waits for the clock, and an advance makes it due', async () => {
    const p = await platform();
    expect((await freeze(p, true)).body.frozen).toBe(true);
    const frozenAtMs = await platformNow(p);

    // A first attempt is never held by a freeze.
    const first = await pendingDelivery(p);
    failOnce(p.receiver);
    expect(await drainWebhooks()).toBe(1);
    expect(p.receiver.requests.map((r) => r.status)).toEqual([503, 500]);
    const logged = await delivery(p, first.id);
    expect(Date.parse(logged.nextAttemptAt) - frozenAtMs).toBeGreaterThanOrEqual(BASE_DELAY_MS);

    // Its retry waits while the clock stands still, however much real time passes.
    clock.advance(3_600_000);
    expect(await drainWebhooks()).toBe(0);

    // A new event is still delivered at once.
    const second = await pendingDelivery(p);
    p.receiver.respondWith(200);
    expect(await drainWebhooks()).toBe(1);
    expect((await delivery(p, second.id)).status).toBe('DELIVERED');
    expect((await delivery(p, first.id)).status).toBe('PENDING');

    // An advance past the backoff makes the retry due (the clock stays frozen); the worker delivers it.
    const moved = await advance(p, PAST_BACKOFF_S);
    expect(moved.body.frozen).toBe(true);
    expect(await drainWebhooks()).toBe(1);
    const done = await delivery(p, first.id);
    expect(done).toMatchObject({ status: 'DELIVERED', attemptCount: 2 });
    expect(p.receiver.requests.at(-1)?.verified).toBe(true);
    expect((await freeze(p, false)).body.frozen).toBe(false);
  });

  it('unfrozen, a held retry is due when the restarted clock reaches it', async () => {
    const p = await platform();
    const pending = await pendingDelivery(p);
    failOnce(p.receiver);
    expect(await drainWebhooks()).toBe(1);
    const nextAttemptAt = Date.parse((await delivery(p, pending.id)).nextAttemptAt);
    await freeze(p, true);
    clock.advance(3_600_000);
    expect(await drainWebhooks()).toBe(0);
    await freeze(p, false);
    // The clock runs on from where it stopped: the retry is as far away as when it was frozen.
    expect(await drainWebhooks()).toBe(0);
    clock.advance(nextAttemptAt - (await platformNow(p)));
    expect(await drainWebhooks()).toBe(1);
    expect((await delivery(p, pending.id)).status).toBe('DELIVERED');
  });

  it('a delivery job queued before its payload named the platform is still delivered', async () => {
    const p = await platform();
    await advance(p, 3_600);
    const { container } = ctx;
    const scope = { platformId: p.platformId, environment: 'SANDBOX' as const };
    const deliveryId = await container.db.tx(async (trx) => {
      const event = container.events.buildEvent(scope, { type: 'TEST', payload: { test: { message: 'queued earlier' } } });
      await webhookStore.insertEvent(trx, event);
      const row = await container.events.addDelivery(event, { url: null, hasTarget: true, enqueue: false });
      await container.jobs.enqueue({ kind: DELIVER_JOB, payload: { deliveryId: row.id } });
      return row.id;
    });
    expect(await drainWebhooks()).toBe(1);
    expect(p.receiver.accepted().map((e) => e.test?.message)).toEqual(['queued earlier']);
    expect((await delivery(p, deliveryId)).status).toBe('DELIVERED');
  });
});

import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { newId } from '../src/common/ids.js';
import { createRetentionSweeper } from '../src/retention/sweeper.js';
import { startWorkers } from '../src/workers/index.js';
import { call, testContext } from './helpers/context.js';

const DAY = 86_400_000;

describe('retention sweeper', async () => {
  const clock = manualClock(new Date('2026-06-01T00:00:00.000Z'));
  const ctx = await testContext({ clock });
  const db = ctx.container.db;
  const scope = { platform_id: ctx.platform.platformId, environment: 'SANDBOX' };
  const at = (daysAgo: number) => new Date(clock.now().getTime() - daysAgo * DAY).toISOString();

  async function event(daysAgo: number) {
    const id = newId('Webhook');
    await db.tx((trx) =>
      trx
        .insertInto('webhook_events')
        .values({ id, ...scope, type: 'OUTGOING_PAYMENT', subject: null, body: `{"webhookId":"${id}"}`, created_at: at(daysAgo) })
        .execute(),
    );
    return id;
  }
  async function delivery(eventId: string, status: string, daysAgo: number, attempts: number) {
    const id = newId('Delivery');
    await db.tx(async (trx) => {
      await trx
        .insertInto('webhook_deliveries')
        .values({
          id,
          ...scope,
          event_id: eventId,
          event_type: 'OUTGOING_PAYMENT',
          subject: null,
          url: null,
          status,
          attempt_count: attempts,
          last_status_code: null,
          last_error: null,
          next_attempt_at: status === 'PENDING' ? at(daysAgo - 1) : null,
          delivered_at: null,
          resend_of: null,
          created_at: at(daysAgo + 1),
          updated_at: at(daysAgo),
        })
        .execute();
      for (let n = 1; n <= attempts; n++) {
        await trx
          .insertInto('webhook_attempts')
          .values({
            delivery_id: id,
            attempt_number: n,
            ...scope,
            attempted_at: at(daysAgo),
            url: 'https://example.com/hook',
            status_code: 500,
            latency_ms: 3,
            error: null,
            response_body: 'x'.repeat(4096),
          })
          .execute();
      }
    });
    return id;
  }
  async function lookup(expiredDaysAgo: number) {
    const id = newId('Lookup');
    await db.tx((trx) =>
      trx
        .insertInto('receiver_lookups')
        .values({
          id,
          ...scope,
          kind: 'UMA',
          uma_address: '$someone@example.com',
          external_account_id: null,
          receiver_platform_id: null,
          receiver_customer_id: null,
          sending_currency: 'USD',
          supported_currencies: '[]',
          required_payer_data_fields: '[]',
          expires_at: at(expiredDaysAgo),
          created_at: at(expiredDaysAgo),
        })
        .execute(),
    );
    return id;
  }
  const ids = async (table: 'webhook_events' | 'webhook_deliveries' | 'receiver_lookups') =>
    (await db.executor().selectFrom(table).select('id').execute()).map((r) => r.id).sort();
  const attemptsOf = async (deliveryId: string) =>
    (await db.executor().selectFrom('webhook_attempts').select('attempt_number').where('delivery_id', '=', deliveryId).execute()).length;

  it('removes old finished webhook history and expired lookups in batches, and keeps everything a pending delivery still needs', async () => {
    // Old and finished: goes, with its attempts and its event.
    const oldEvent = await event(45);
    const oldDelivered = await delivery(oldEvent, 'DELIVERED', 40, 3);
    const oldFailed = await delivery(oldEvent, 'FAILED', 35, 30);
    // Old events never sent (no endpoint) go too.
    const noEndpointEvents = [await event(60), await event(61), await event(62)];
    for (const e of noEndpointEvents) await delivery(e, 'NO_ENDPOINT', 60, 0);
    // Old but still PENDING (an outage that outlived the window): the delivery, its attempts and its event stay.
    const pendingEvent = await event(40);
    const pending = await delivery(pendingEvent, 'PENDING', 31, 5);
    // An old event with one old finished delivery and one recent resend: the event stays (the resend needs it).
    const resentEvent = await event(50);
    const resentOld = await delivery(resentEvent, 'FAILED', 45, 2);
    const resentNew = await delivery(resentEvent, 'DELIVERED', 2, 1);
    // Recent: stays.
    const recentEvent = await event(5);
    const recent = await delivery(recentEvent, 'DELIVERED', 5, 1);
    // Lookups: expired 10 days ago go (7-day window); expired yesterday and live ones stay.
    const oldLookups = [await lookup(10), await lookup(8)];
    const keptLookups = [await lookup(1), await lookup(-1)];

    // A batch of 4 rows per statement: several passes are needed.
    const sweeper = createRetentionSweeper({ db, clock, settings: { webhookDays: 30, lookupDays: 7, batchSize: 4 } });
    const first = await sweeper.sweepOnce();
    expect(first.more).toBe(true);
    expect(Math.max(...Object.values(first.removed))).toBeLessThanOrEqual(4);
    const rest = await sweeper.sweepAll();

    expect(first.removed.webhookAttempts + rest.webhookAttempts).toBe(3 + 30 + 2);
    expect(await ids('webhook_deliveries')).toEqual([pending, resentNew, recent].sort());
    expect(await ids('webhook_events')).toEqual([pendingEvent, resentEvent, recentEvent].sort());
    expect(await ids('receiver_lookups')).toEqual(keptLookups.sort());
    expect(await attemptsOf(pending)).toBe(5);
    expect(await attemptsOf(recent)).toBe(1);
    expect(await attemptsOf(oldDelivered)).toBe(0);
    expect(await attemptsOf(oldFailed)).toBe(0);
    expect(await attemptsOf(resentOld)).toBe(0);
    for (const id of oldLookups) expect(await ids('receiver_lookups')).not.toContain(id);
    // The platform's delivery log no longer lists what went, and still lists what stayed.
    const log = await call(ctx, 'GET', '/webhooks/deliveries', { query: { limit: 100 } });
    expect(log.status).toBe(200);
    const listed = JSON.stringify(log.body);
    expect(listed).not.toContain(oldDelivered);
    expect(listed).toContain(recent);

    // Nothing more to do now; when the clock passes the windows of what stayed, it goes too,
    // except the still-pending delivery.
    expect((await sweeper.sweepOnce()).more).toBe(false);
    clock.advance(40 * DAY);
    await sweeper.sweepAll();
    expect(await ids('webhook_deliveries')).toEqual([pending]);
    expect(await ids('webhook_events')).toEqual([pendingEvent]);
    expect(await ids('receiver_lookups')).toEqual([]);
  });

  it('keeps everything when a window is 0', async () => {
    const e = await event(400);
    await delivery(e, 'DELIVERED', 400, 1);
    await lookup(400);
    const sweeper = createRetentionSweeper({ db, clock, settings: { webhookDays: 0, lookupDays: 0, batchSize: 500 } });
    expect(await sweeper.sweepAll()).toEqual({ webhookAttempts: 0, webhookDeliveries: 0, webhookEvents: 0, receiverLookups: 0 });
    expect(await ids('webhook_events')).toContain(e);
  });

  it("runs as one of the node's worker loops, with the configured windows", async () => {
    const e = await event(100);
    const d = await delivery(e, 'DELIVERED', 100, 2);
    const silent = { error: () => undefined, info: () => undefined, warn: () => undefined, debug: () => undefined } as never;
    const workers = startWorkers(ctx.container, silent);
    try {
      // The sweeper looks at once when the node starts; wait until it has removed the old rows.
      while ((await ids('webhook_deliveries')).includes(d)) await new Promise((r) => setTimeout(r, 20));
      while ((await ids('webhook_events')).includes(e)) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await workers.stop();
    }
    expect(await attemptsOf(d)).toBe(0);
  });
});

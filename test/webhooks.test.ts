import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { startWorkers } from '../src/workers/index.js';
import { manualClock } from '../src/common/clock.js';
import type { Scope } from '../src/common/scope.js';
import type { EventType } from '../src/events/types.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { startWebhookReceiver, verifyCorridorSignature, type WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
let scope: Scope;
let receiver: WebhookReceiver;
let publicKeyPem: string;

const TX = (n: number) => `Transaction:019a6f1e-8f3c-7cc1-9d6e-${String(n).padStart(12, '0')}`;

function emit(type: EventType, subject: string | undefined, payload: Record<string, unknown>, s: Scope = scope) {
  return ctx.container.db.tx(() => ctx.container.events.emit(s, { type, subject, payload }));
}

async function drain() {
  let n = 0;
  while (await ctx.container.webhooks.worker.processNext()) n++;
  return n;
}

async function jobCount() {
  return Number(
    (
      await ctx.container.db
        .executor()
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

beforeAll(async () => {
  ctx = await testContext({ clock });
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
  publicKeyPem = (await call(ctx, 'GET', '/config')).body.webhookPublicKey;
  receiver = await startWebhookReceiver({ publicKeyPem, now: () => clock.now().getTime() });
  await call(ctx, 'PATCH', '/config', { body: { webhookEndpoint: receiver.url } });
});
afterAll(() => receiver.close());

describe('outbox', () => {
  it('stores the event with its body serialised once, and a delivery job, in the caller transaction', async () => {
    const transaction = { id: TX(1), status: 'COMPLETED', sentAmount: { amount: 1000n, currency: { code: 'USD' } } };
    const emitted = await emit('OUTGOING_PAYMENT', TX(1), { transaction });
    expect(emitted.webhookId).toMatch(/^Webhook:[0-9a-f-]{36}$/);
    expect(emitted.status).toBe('PENDING');
    const row = await ctx.container.db.executor().selectFrom('webhook_events').selectAll().where('id', '=', emitted.webhookId).executeTakeFirstOrThrow();
    expect(row.body).toBe(
      JSON.stringify({
        type: 'OUTGOING_PAYMENT',
        webhookId: emitted.webhookId,
        timestamp: clock.now().toISOString(),
        transaction: { ...transaction, sentAmount: { amount: 1000, currency: { code: 'USD' } } },
      }),
    );
    expect(await jobCount()).toBe(1);
    await drain();
    expect(receiver.requests.at(-1)?.rawBody).toBe(row.body);
  });

  it('writes nothing when the transaction rolls back', async () => {
    const before = (await call(ctx, 'GET', '/webhooks/deliveries')).body.totalCount;
    await expect(
      ctx.container.db.tx(async (trx) => {
        await ctx.container.events.emit(scope, { type: 'OUTGOING_PAYMENT', subject: TX(2), payload: { transaction: { id: TX(2) } } });
        throw new Error('the payment change failed');
      }),
    ).rejects.toThrow('the payment change failed');
    expect((await call(ctx, 'GET', '/webhooks/deliveries')).body.totalCount).toBe(before);
    expect(await jobCount()).toBe(0);
    expect(await drain()).toBe(0);
  });

  it('refuses a payload that would overwrite the envelope', async () => {
    await expect(emit('OUTGOING_PAYMENT', TX(3), { webhookId: 'Webhook:mine' })).rejects.toThrow(/webhookId/);
  });
});

describe('signed delivery', () => {
  it('POSTs JSON signed with the key of GET /config; an integrator verifies it with node:crypto', async () => {
    receiver.requests.length = 0;
    const { webhookId } = await emit('OUTGOING_PAYMENT', TX(10), { transaction: { id: TX(10), status: 'PENDING' } });
    expect(await drain()).toBe(1);
    const [req] = receiver.requests;
    expect(req.verified).toBe(true);
    expect(req.status).toBe(200);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.event).toMatchObject({ type: 'OUTGOING_PAYMENT', webhookId, timestamp: expect.any(String), transaction: { id: TX(10) } });
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    expect(verifyCorridorSignature(req.signature, req.rawBody, publicKeyPem, nowSeconds)).toBe(true);
  });

  it('a tampered body, a tampered timestamp and a stale timestamp all fail verification', async () => {
    const req = receiver.requests.at(-1)!;
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    const [, t, sig] = /^t=(\d+),v1=(.+)$/.exec(req.signature!)!;
    expect(verifyCorridorSignature(req.signature, req.rawBody.replace('PENDING', 'COMPLETED'), publicKeyPem, nowSeconds)).toBe(false);
    expect(verifyCorridorSignature(req.signature, `${req.rawBody} `, publicKeyPem, nowSeconds)).toBe(false);
    expect(verifyCorridorSignature(`t=${Number(t) + 1},v1=${sig}`, req.rawBody, publicKeyPem, nowSeconds)).toBe(false);
    expect(verifyCorridorSignature(req.signature, req.rawBody, publicKeyPem, nowSeconds + 301)).toBe(false);
    expect(verifyCorridorSignature(req.signature, req.rawBody, publicKeyPem, nowSeconds - 301)).toBe(false);
    const otherKey = (await call(ctx, 'GET', '/config', { auth: await ctx.platform.token(['VIEW'], 'PRODUCTION') })).body.webhookPublicKey;
    expect(verifyCorridorSignature(req.signature, req.rawBody, otherKey, nowSeconds)).toBe(false);
  });

  it('signs every attempt afresh: same bytes, new timestamp', async () => {
    receiver.requests.length = 0;
    receiver.respondWith(503);
    await emit('OUTGOING_PAYMENT', TX(11), { transaction: { id: TX(11) } });
    await drain();
    receiver.respondWith(200);
    clock.advance(10 * 60 * 1000);
    await drain();
    const [first, second] = receiver.requests;
    expect(first.status).toBe(503);
    expect(second.status).toBe(200);
    expect(second.rawBody).toBe(first.rawBody);
    expect(second.signature).not.toBe(first.signature);
    expect(second.verified).toBe(true);
  });
});

describe('worker loops', () => {
  it('deliver promptly after an enqueue (woken, not waiting for the idle poll)', async () => {
    receiver.requests.length = 0;
    const silent = { error: () => undefined } as unknown as Parameters<typeof startWorkers>[1];
    const workers = startWorkers(ctx.container, silent);
    await new Promise((r) => setTimeout(r, 50)); // let the loops reach their idle sleep (1 s)
    const started = Date.now();
    const { webhookId } = await emit('OUTGOING_PAYMENT', TX(12), { transaction: { id: TX(12) } });
    await receiver.waitFor(() => receiver.requests.length === 1, 2_000);
    expect(Date.now() - started).toBeLessThan(800);
    await workers.stop();
    expect(receiver.requests[0].event.webhookId).toBe(webhookId);
  });
});

describe('no endpoint configured', () => {
  it('stores the event as NO_ENDPOINT (no job), shows it in the log, and resends once an endpoint exists', async () => {
    const p = await ctx.newPlatform('No endpoint');
    const s: Scope = { platformId: p.platformId, environment: 'SANDBOX' };
    const { deliveryId, status } = await emit('OUTGOING_PAYMENT', TX(20), { transaction: { id: TX(20) } }, s);
    expect(status).toBe('NO_ENDPOINT');
    expect(await jobCount()).toBe(0);
    const log = await call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth });
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0]).toMatchObject({ id: deliveryId, status: 'NO_ENDPOINT', attemptCount: 0, attempts: [] });
    expectError(await call(ctx, 'POST', `/webhooks/deliveries/${deliveryId}/resend`, { auth: p.auth }), 409, 'WEBHOOK_ENDPOINT_NOT_CONFIGURED');

    const pk = (await call(ctx, 'GET', '/config', { auth: p.auth })).body.webhookPublicKey;
    const own = await startWebhookReceiver({ publicKeyPem: pk, now: () => clock.now().getTime() });
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: own.url } });
    const resent = await call(ctx, 'POST', `/webhooks/deliveries/${deliveryId}/resend`, { auth: p.auth });
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ status: 'PENDING', resendOf: deliveryId, webhookId: log.body.data[0].webhookId });
    await drain();
    expect(own.accepted().map((e) => e.webhookId)).toEqual([log.body.data[0].webhookId]);
    expect(own.requests[0].verified).toBe(true);
    await own.close();
  });

  it('an endpoint removed while deliveries are pending turns them NO_ENDPOINT', async () => {
    const p = await ctx.newPlatform('Removed');
    const s: Scope = { platformId: p.platformId, environment: 'SANDBOX' };
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: 'http://127.0.0.1:9/none' } });
    const { deliveryId } = await emit('OUTGOING_PAYMENT', TX(21), { transaction: { id: TX(21) } }, s);
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: null } });
    await drain();
    expect((await call(ctx, 'GET', `/webhooks/deliveries/${deliveryId}`, { auth: p.auth })).body).toMatchObject({ status: 'NO_ENDPOINT', attemptCount: 0 });
  });
});

describe('POST /webhooks/test', () => {
  it('sends a signed TEST event to the configured endpoint and answers with what happened', async () => {
    receiver.requests.length = 0;
    const res = await call(ctx, 'POST', '/webhooks/test', { body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, statusCode: 200, url: receiver.url, deliveryId: expect.stringMatching(/^Delivery:/) });
    expect(res.body).not.toHaveProperty('error');
    expect(res.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0].verified).toBe(true);
    expect(receiver.requests[0].event).toMatchObject({ type: 'TEST', webhookId: res.body.webhookId });
    const logged = await call(ctx, 'GET', `/webhooks/deliveries/${res.body.deliveryId}`);
    expect(logged.body).toMatchObject({
      type: 'TEST',
      status: 'DELIVERED',
      url: receiver.url,
      attemptCount: 1,
      attempts: [{ attemptNumber: 1, statusCode: 200 }],
    });
    // The body is optional: without one, the configured endpoint is used too.
    expect((await call(ctx, 'POST', '/webhooks/test')).body).toMatchObject({ delivered: true, url: receiver.url });
  });

  it('reports the receiver status (its body only for a 2xx), or the network error', async () => {
    const failing = await startWebhookReceiver({ respond: () => ({ status: 500, body: 'database is down' }) });
    const res = await call(ctx, 'POST', '/webhooks/test', { body: { url: failing.url } });
    expect(res.body).toMatchObject({ delivered: false, statusCode: 500, error: 'HTTP 500', url: failing.url });
    expect(res.body).not.toHaveProperty('responseBody');
    const url = failing.url;
    await failing.close();
    const refused = await call(ctx, 'POST', '/webhooks/test', { body: { url } });
    expect(refused.body).toMatchObject({ delivered: false, error: 'connection refused' });
    expect(refused.body).not.toHaveProperty('statusCode');
    const logged = await call(ctx, 'GET', `/webhooks/deliveries/${refused.body.deliveryId}`);
    expect(logged.body).toMatchObject({ status: 'FAILED', attempts: [{ error: 'connection refused' }] });
    expect(logged.body.attempts[0]).not.toHaveProperty('statusCode');
  });

  it('replays an Idempotency-Key without sending again', async () => {
    receiver.requests.length = 0;
    const headers = { 'idempotency-key': 'test-webhook-once' };
    const first = await call(ctx, 'POST', '/webhooks/test', { body: { url: receiver.url }, headers });
    const again = await call(ctx, 'POST', '/webhooks/test', { body: { url: receiver.url }, headers });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(receiver.requests).toHaveLength(1);
  });

  it('refuses bad input with the field, and a VIEW token', async () => {
    const p = await ctx.newPlatform('No endpoint for test');
    expect(expectError(await call(ctx, 'POST', '/webhooks/test', { auth: p.auth, body: {} }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('url');
    expect(expectError(await call(ctx, 'POST', '/webhooks/test', { body: { url: 'nope' } }), 400, 'INVALID_INPUT').details.fields[0].field).toBe('url');
    expect(
      expectError(await call(ctx, 'POST', '/webhooks/test', { body: { url: receiver.url, extra: 1 } }), 400, 'INVALID_INPUT').details.fields[0].field,
    ).toBe('extra');
    expectError(await call(ctx, 'POST', '/webhooks/test', { auth: await ctx.platform.token(['VIEW']), body: {} }), 403, 'FORBIDDEN');
    expect((await call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth })).body.totalCount).toBe(0);
  });
});

describe('delivery log', () => {
  it('filters by type, transactionId and status, newest first, paginated', async () => {
    const p = await ctx.newPlatform('Log');
    const s: Scope = { platformId: p.platformId, environment: 'SANDBOX' };
    const pk = (await call(ctx, 'GET', '/config', { auth: p.auth })).body.webhookPublicKey;
    const own = await startWebhookReceiver({ publicKeyPem: pk, now: () => clock.now().getTime() });
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: own.url } });
    for (let i = 0; i < 5; i++) await emit('OUTGOING_PAYMENT', TX(100), { transaction: { id: TX(100), n: i } }, s);
    await emit('INCOMING_PAYMENT', TX(101), { transaction: { id: TX(101) } }, s);
    await call(ctx, 'POST', '/webhooks/test', { auth: p.auth, body: {} });
    const get = (query: Record<string, string | number>) => call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth, query });

    expect((await get({})).body.totalCount).toBe(7);
    expect((await get({ status: 'PENDING' })).body.totalCount).toBe(6);
    expect((await get({ type: 'TEST' })).body.data.map((d: any) => d.status)).toEqual(['DELIVERED']);
    expect((await get({ type: 'INCOMING_PAYMENT' })).body.data.map((d: any) => d.transactionId)).toEqual([TX(101)]);
    const page1 = await get({ transactionId: TX(100), limit: 3 });
    expect(page1.body).toMatchObject({ totalCount: 5, hasMore: true });
    expect(page1.body.data.map((d: any) => d.event.transaction.n)).toEqual([4, 3, 2]);
    const page2 = await get({ transactionId: TX(100), limit: 3, cursor: page1.body.nextCursor });
    expect(page2.body.data.map((d: any) => d.event.transaction.n)).toEqual([1, 0]);
    expect(page2.body.hasMore).toBe(false);

    await drain();
    const done = await get({ status: 'DELIVERED', type: 'OUTGOING_PAYMENT' });
    expect(done.body.totalCount).toBe(5);
    expect(done.body.data[0].attempts[0]).toMatchObject({ attemptNumber: 1, statusCode: 200, url: own.url, attemptedAt: expect.any(String) });
    expect(done.body.data[0].attempts[0]).not.toHaveProperty('error');
    expect(done.body.data[0].attempts[0].latencyMs).toBeGreaterThanOrEqual(0);
    await own.close();
  });

  it('validates filters and keeps other platforms out (404)', async () => {
    expectError(await call(ctx, 'GET', '/webhooks/deliveries', { query: { status: 'LOST' } }), 400, 'INVALID_INPUT');
    expect(
      expectError(await call(ctx, 'GET', '/webhooks/deliveries', { query: { transactionId: 'Customer:1' } }), 400, 'INVALID_INPUT').details.fields[0].field,
    ).toBe('transactionId');
    expectError(await call(ctx, 'GET', '/webhooks/deliveries', { query: { limit: 101 } }), 400, 'INVALID_INPUT');
    const mine = (await call(ctx, 'GET', '/webhooks/deliveries', { query: { limit: 1 } })).body.data[0].id;
    const other = await ctx.newPlatform('Snoop');
    expectError(await call(ctx, 'GET', `/webhooks/deliveries/${mine}`, { auth: other.auth }), 404, 'DELIVERY_NOT_FOUND');
    expectError(await call(ctx, 'POST', `/webhooks/deliveries/${mine}/resend`, { auth: other.auth }), 404, 'DELIVERY_NOT_FOUND');
    expectError(await call(ctx, 'GET', `/webhooks/deliveries/${mine}`, { auth: await ctx.platform.token(['VIEW'], 'PRODUCTION') }), 404, 'DELIVERY_NOT_FOUND');
  });
});

describe('resend', () => {
  it('sends the same event again as a new delivery; a pending one cannot be resent', async () => {
    receiver.requests.length = 0;
    const { deliveryId, webhookId } = await emit('OUTGOING_PAYMENT', TX(30), { transaction: { id: TX(30) } });
    expectError(await call(ctx, 'POST', `/webhooks/deliveries/${deliveryId}/resend`), 409, 'DELIVERY_PENDING');
    await drain();
    expectError(await call(ctx, 'POST', `/webhooks/deliveries/${deliveryId}/resend`, { auth: await ctx.platform.token(['VIEW']) }), 403, 'FORBIDDEN');
    const resent = await call(ctx, 'POST', `/webhooks/deliveries/${deliveryId}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ webhookId, resendOf: deliveryId, status: 'PENDING', attemptCount: 0 });
    await drain();
    expect(receiver.requests.map((r) => r.event.webhookId)).toEqual([webhookId, webhookId]);
    expect(receiver.requests[1].rawBody).toBe(receiver.requests[0].rawBody);
    expect((await call(ctx, 'GET', `/webhooks/deliveries/${deliveryId}`)).body.status).toBe('DELIVERED');
    expect((await call(ctx, 'GET', `/webhooks/deliveries/${resent.body.id}`)).body.status).toBe('DELIVERED');
  });
});

describe('the signing key stays secret', () => {
  it('appears in no response and no log line', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = await buildApp(ctx.container, { logger: { level: 'trace', stream } });
    const bodies: string[] = [];
    for (const [method, url, payload] of [
      ['GET', '/config'],
      ['POST', '/webhooks/test', {}],
      ['GET', '/webhooks/deliveries'],
    ] as const) {
      const res = await app.inject({ method, url: `/2025-10-13${url}`, headers: { authorization: ctx.platform.auth }, ...(payload ? { payload } : {}) });
      bodies.push(res.body);
    }
    await emit('OUTGOING_PAYMENT', TX(40), { transaction: { id: TX(40) } });
    await drain();
    await app.close();
    const signer = await ctx.container.webhooks.keys.signer(scope);
    expect(`${JSON.stringify(signer)} ${String(signer)}`).not.toMatch(/PRIVATE/);
    expect(lines.length).toBeGreaterThan(0);
    expect([...bodies, ...lines].join('\n')).not.toMatch(/PRIVATE KEY|private_key/i);
  });
});

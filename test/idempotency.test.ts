import { describe, expect, it } from 'vitest';
import { API_PREFIX, buildApp } from '../src/app.js';
import { createContainer } from '../src/container.js';
import { call, expectError, testContext } from './helpers/context.js';
import { individual } from './helpers/factories.js';

describe('Idempotency-Key (D5)', async () => {
  const ctx = await testContext();
  const count = async (platformCustomerId: string) => (await call(ctx, 'GET', '/customers', { query: { platformCustomerId } })).body.totalCount;

  it('a replay returns the first status and body with Idempotent-Replayed: true', async () => {
    const body = individual();
    const first = await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-replay' } });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await call(ctx, 'POST', '/customers', { body: { ...body }, headers: { 'idempotency-key': 'k-replay' } });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count(body.platformCustomerId)).toBe(1);
  });

  it('the same key with another body gets 422 and changes nothing', async () => {
    const body = individual();
    await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-reuse' } });
    const other = individual();
    expectError(await call(ctx, 'POST', '/customers', { body: other, headers: { 'idempotency-key': 'k-reuse' } }), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect(await count(other.platformCustomerId)).toBe(0);
  });

  it('key order in the body does not matter', async () => {
    const body = individual();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const first = await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-order' } });
    const again = await call(ctx, 'POST', '/customers', { body: reordered, headers: { 'idempotency-key': 'k-order' } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  /** Exactly one reply is the original 201; every other is that reply replayed (same status and body, marked) or 409. */
  function expectOneOriginal(replies: Array<{ status: number; body: any; headers: Record<string, unknown> }>) {
    const originals = replies.filter((r) => r.headers['idempotent-replayed'] === undefined && r.status !== 409);
    expect(originals).toHaveLength(1);
    const [first] = originals;
    expect(first.status).toBe(201);
    for (const r of replies) {
      if (r === first) continue;
      if (r.status === 409) expectError(r, 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
      else {
        expect(r.headers['idempotent-replayed']).toBe('true');
        expect(r.status).toBe(first.status);
        expect(r.body).toEqual(first.body);
      }
    }
    return first;
  }

  it('20 concurrent sends of one request create exactly one customer; each reply is the first replayed or 409', async () => {
    const body = individual();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-concurrent' } })),
    );
    const first = expectOneOriginal(replies);
    expect(await count(body.platformCustomerId)).toBe(1);
    const later = await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-concurrent' } });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(later.body).toEqual(first.body);
  });

  it('the same 20 sends spread over two nodes on one database still create exactly one customer', async () => {
    // A second node: its own services, its own in-flight set, the same database.
    const other = await createContainer(ctx.config, { db: ctx.container.db });
    const nodeB = await buildApp(other);
    try {
      const body = individual();
      const headers = { authorization: ctx.platform.auth, 'idempotency-key': 'k-two-nodes' };
      const replies = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          if (i % 2 === 0) return call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-two-nodes' } });
          const res = await nodeB.inject({ method: 'POST', url: `${API_PREFIX}/customers`, headers, payload: body });
          return { status: res.statusCode, body: res.json(), headers: res.headers as Record<string, unknown> };
        }),
      );
      expectOneOriginal(replies);
      expect(await count(body.platformCustomerId)).toBe(1);
    } finally {
      await nodeB.close();
      other.fx.stop(); // not other.close(): the database belongs to the first node
    }
  });

  it('a rejected request is replayed as the same rejection', async () => {
    const body = individual({ nationality: 'XX' });
    const first = await call(ctx, 'POST', '/customers', { body: { ...individual(), platformCustomerId: 'taken' }, headers: { 'idempotency-key': 'k-seed' } });
    expect(first.status).toBe(201);
    const conflict = await call(ctx, 'POST', '/customers', {
      body: { ...individual(), platformCustomerId: 'taken' },
      headers: { 'idempotency-key': 'k-conflict' },
    });
    expectError(conflict, 409, 'PLATFORM_CUSTOMER_ID_EXISTS');
    const replay = await call(ctx, 'POST', '/customers', {
      body: { ...individual(), platformCustomerId: 'taken' },
      headers: { 'idempotency-key': 'k-conflict' },
    });
    expect(replay.status).toBe(409);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(conflict.body);
    expectError(await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-invalid' } }), 400, 'INVALID_INPUT');
  });

  it('keys are scoped per platform and per route', async () => {
    const other = await ctx.newPlatform('Other');
    const a = individual();
    const b = individual();
    expect((await call(ctx, 'POST', '/customers', { body: a, headers: { 'idempotency-key': 'shared-key' } })).status).toBe(201);
    const theirs = await call(ctx, 'POST', '/customers', { auth: other.auth, body: b, headers: { 'idempotency-key': 'shared-key' } });
    expect(theirs.status).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    const token = await call(ctx, 'POST', '/tokens', { body: { name: 'scoped', permissions: ['VIEW'] }, headers: { 'idempotency-key': 'shared-key' } });
    expect(token.status).toBe(201);
  });

  it('is scoped by route and path parameters, not the raw URL: /customers and /customers/ are one request', async () => {
    const body = individual();
    const first = await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-slash' } });
    expect(first.status).toBe(201);
    const again = await call(ctx, 'POST', '/customers/', { body, headers: { 'idempotency-key': 'k-slash' } });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await count(body.platformCustomerId)).toBe(1);
  });

  it('a path parameter spelled two ways is one request; another parameter is another request', async () => {
    const test = await call(ctx, 'POST', '/webhooks/test', { body: { url: 'http://127.0.0.1:9/hook' } });
    const id: string = test.body.deliveryId;
    const resend = await call(ctx, 'POST', `/webhooks/deliveries/${id}/resend`, { headers: { 'idempotency-key': 'k-param' } });
    expect(resend.status).toBe(202);
    const encoded = await call(ctx, 'POST', `/webhooks/deliveries/${id.replace(':', '%3A')}/resend/`, { headers: { 'idempotency-key': 'k-param' } });
    expect(encoded.headers['idempotent-replayed']).toBe('true');
    expect(encoded.body).toEqual(resend.body);
    const log = await call(ctx, 'GET', '/webhooks/deliveries', { query: { limit: 100 } });
    expect(log.body.data.filter((d: { resendOf: string | null }) => d.resendOf === id)).toHaveLength(1);
    const other = await call(ctx, 'POST', `/webhooks/deliveries/${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}/resend`, {
      headers: { 'idempotency-key': 'k-param' },
    });
    expectError(other, 404, 'DELIVERY_NOT_FOUND');
  });

  it('refuses a malformed key', async () => {
    const err = expectError(
      await call(ctx, 'POST', '/customers', { body: individual(), headers: { 'idempotency-key': 'x'.repeat(300) } }),
      400,
      'INVALID_INPUT',
    );
    expect(err.details.fields[0]).toMatchObject({ field: 'Idempotency-Key', in: 'header' });
  });
});

import { describe, expect, it } from 'vitest';
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

  it('20 concurrent sends of one request create exactly one customer; each reply is the first or 409', async () => {
    const body = individual();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-concurrent' } })),
    );
    const created = replies.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const r of created) expect(r.body).toEqual(created[0].body);
    for (const r of replies.filter((x) => x.status !== 201)) expectError(r, 409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect(await count(body.platformCustomerId)).toBe(1);
    const later = await call(ctx, 'POST', '/customers', { body, headers: { 'idempotency-key': 'k-concurrent' } });
    expect(later.body).toEqual(created[0].body);
  });

  it('a rejected request is replayed as the same rejection', async () => {
    const body = individual({ nationality: 'XX' });
    const first = await call(ctx, 'POST', '/customers', { body: { ...individual(), platformCustomerId: 'taken' }, headers: { 'idempotency-key': 'k-seed' } });
    expect(first.status).toBe(201);
    const conflict = await call(ctx, 'POST', '/customers', { body: { ...individual(), platformCustomerId: 'taken' }, headers: { 'idempotency-key': 'k-conflict' } });
    expectError(conflict, 409, 'PLATFORM_CUSTOMER_ID_EXISTS');
    const replay = await call(ctx, 'POST', '/customers', { body: { ...individual(), platformCustomerId: 'taken' }, headers: { 'idempotency-key': 'k-conflict' } });
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

  it('refuses a malformed key', async () => {
    const err = expectError(await call(ctx, 'POST', '/customers', { body: individual(), headers: { 'idempotency-key': 'x'.repeat(300) } }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0]).toMatchObject({ field: 'Idempotency-Key', in: 'header' });
  });
});

import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { basic, call, expectError, testContext } from './helpers/context.js';

describe('tokens and authentication', async () => {
  const clock = manualClock(new Date('2026-05-01T00:00:00.000Z'));
  const ctx = await testContext({ clock });

  describe('authentication', () => {
    it('refuses missing, malformed and wrong credentials alike with 401 UNAUTHORIZED', async () => {
      const made = await call(ctx, 'POST', '/tokens', { body: { name: 'probe', permissions: ['VIEW'] } });
      const good = basic(made.body.clientId, made.body.clientSecret);
      expect((await call(ctx, 'GET', '/customers', { auth: good })).status).toBe(200);
      const attempts = [
        null,
        'Bearer abc',
        'Basic',
        'Basic !!!notbase64',
        `Basic ${Buffer.from('no-colon').toString('base64')}`,
        basic(made.body.clientId, 'cs_wrong'),
        basic(made.body.clientId, `${made.body.clientSecret}x`),
        basic('corr_test_unknown', made.body.clientSecret),
        basic('', made.body.clientSecret),
      ];
      const bodies = new Set<string>();
      for (const auth of attempts) {
        const res = await call(ctx, 'GET', '/customers', { auth });
        expectError(res, 401, 'UNAUTHORIZED');
        bodies.add(JSON.stringify(res.body));
      }
      expect(bodies.size).toBe(1);
    });

    it('stores secrets only as hashes', async () => {
      const made = await call(ctx, 'POST', '/tokens', { body: { name: 'hash-check', permissions: ['VIEW'] } });
      const row = await ctx.container.db.executor().selectFrom('tokens').selectAll().where('client_id', '=', made.body.clientId).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(made.body.clientSecret);
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('routes outside the API need no credentials; unknown routes are 404 in the D2 shape', async () => {
      expect((await ctx.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
      expect((await ctx.app.inject({ url: '/readyz' })).statusCode).toBe(200);
      const metrics = await ctx.app.inject({ url: '/metrics' });
      expect(metrics.body).toContain('corridor_http_requests_total');
      expectError(await call(ctx, 'GET', '/nothing-here'), 404, 'ROUTE_NOT_FOUND');
    });

    it('sends a request id back, taking a well-formed one from the caller', async () => {
      const given = await call(ctx, 'GET', '/customers', { headers: { 'x-request-id': 'req-123' } });
      expect(given.headers['x-request-id']).toBe('req-123');
      const generated = await call(ctx, 'GET', '/customers', { headers: { 'x-request-id': 'bad id with spaces' } });
      expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('POST/GET/DELETE /tokens', () => {
    it('creates a token in the caller environment and shows the secret exactly once', async () => {
      const res = await call(ctx, 'POST', '/tokens', { body: { name: 'reporting', permissions: ['TRANSACT', 'VIEW'] } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ name: 'reporting', permissions: ['VIEW', 'TRANSACT'], environment: 'SANDBOX' });
      expect(res.body.id).toMatch(/^Token:/);
      expect(res.body.clientId).toMatch(/^corr_test_/);
      expect(res.body.clientSecret).toMatch(/^cs_/);
      const read = await call(ctx, 'GET', `/tokens/${res.body.id}`);
      const { clientSecret: _secret, ...withoutSecret } = res.body;
      expect(read.body).toEqual(withoutSecret);
      const list = await call(ctx, 'GET', '/tokens', { query: { name: 'reporting' } });
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0].clientSecret).toBeUndefined();
    });

    it('a token gets at most the permissions of its creator', async () => {
      const manageOnly = await ctx.platform.token(['MANAGE']);
      const err = expectError(
        await call(ctx, 'POST', '/tokens', { auth: manageOnly, body: { name: 'escalate', permissions: ['TRANSACT'] } }),
        403,
        'PERMISSION_NOT_GRANTABLE',
      );
      expect(err.details.permissions).toEqual(['TRANSACT']);
      expect((await call(ctx, 'POST', '/tokens', { auth: manageOnly, body: { name: 'ok', permissions: ['MANAGE'] } })).status).toBe(201);
    });

    it('a PRODUCTION caller makes PRODUCTION tokens and sees only them', async () => {
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      const made = await call(ctx, 'POST', '/tokens', { auth: prod, body: { name: 'live', permissions: ['VIEW'] } });
      expect(made.body.environment).toBe('PRODUCTION');
      expect(made.body.clientId).toMatch(/^corr_live_/);
      const names = (await call(ctx, 'GET', '/tokens', { auth: prod, query: { limit: 100 } })).body.data.map((t: any) => t.environment);
      expect(new Set(names)).toEqual(new Set(['PRODUCTION']));
    });

    it('token routes need MANAGE', async () => {
      const view = await ctx.platform.token(['VIEW', 'TRANSACT']);
      expectError(await call(ctx, 'GET', '/tokens', { auth: view }), 403, 'FORBIDDEN');
      expectError(await call(ctx, 'POST', '/tokens', { auth: view, body: { name: 'x', permissions: ['VIEW'] } }), 403, 'FORBIDDEN');
    });

    it.each([
      [{ permissions: ['VIEW'] }, 'name'],
      [{ name: 'x', permissions: [] }, 'permissions'],
      [{ name: 'x', permissions: ['ADMIN'] }, 'permissions.0'],
      [{ name: 'x', permissions: 'VIEW' }, 'permissions'],
      [{ name: '', permissions: ['VIEW'] }, 'name'],
      // The environment is the caller's, never chosen: a sandbox token cannot mint production access.
      [{ name: 'x', permissions: ['VIEW'], environment: 'PRODUCTION' }, 'environment'],
      [{ name: 'x', permissions: ['VIEW', 'VIEW'] }, 'permissions'],
    ])('refuses %j naming %s', async (body, field) => {
      const err = expectError(await call(ctx, 'POST', '/tokens', { body }), 400, 'INVALID_INPUT');
      expect(err.details.fields.map((f: any) => f.field)).toContain(field);
    });

    it('revoking stops the token at once and hides it', async () => {
      const made = await call(ctx, 'POST', '/tokens', { body: { name: 'short-lived', permissions: ['VIEW'] } });
      const auth = basic(made.body.clientId, made.body.clientSecret);
      expect((await call(ctx, 'GET', '/customers', { auth })).status).toBe(200); // now cached
      const del = await call(ctx, 'DELETE', `/tokens/${made.body.id}`);
      expect(del.status).toBe(200);
      expectError(await call(ctx, 'GET', '/customers', { auth }), 401, 'UNAUTHORIZED');
      expectError(await call(ctx, 'GET', `/tokens/${made.body.id}`), 404, 'TOKEN_NOT_FOUND');
      expectError(await call(ctx, 'DELETE', `/tokens/${made.body.id}`), 404, 'TOKEN_NOT_FOUND');
    });

    it("the same platform's other environment does not see or revoke the token (404), which keeps working", async () => {
      const made = await call(ctx, 'POST', '/tokens', { body: { name: 'sandbox-only', permissions: ['VIEW'] } });
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      expectError(await call(ctx, 'GET', `/tokens/${made.body.id}`, { auth: prod }), 404, 'TOKEN_NOT_FOUND');
      expectError(await call(ctx, 'DELETE', `/tokens/${made.body.id}`, { auth: prod }), 404, 'TOKEN_NOT_FOUND');
      expect((await call(ctx, 'GET', '/tokens', { auth: prod, query: { name: 'sandbox-only' } })).body.totalCount).toBe(0);
      expect((await call(ctx, 'GET', '/ping', { auth: basic(made.body.clientId, made.body.clientSecret) })).status).toBe(200);
    });

    it("another platform's token ids do not exist for the caller", async () => {
      const other = await ctx.newPlatform('Other');
      const theirs = await call(ctx, 'POST', '/tokens', { auth: other.auth, body: { name: 'theirs', permissions: ['VIEW'] } });
      expectError(await call(ctx, 'GET', `/tokens/${theirs.body.id}`), 404, 'TOKEN_NOT_FOUND');
      expectError(await call(ctx, 'DELETE', `/tokens/${theirs.body.id}`), 404, 'TOKEN_NOT_FOUND');
      expect((await call(ctx, 'GET', '/customers', { auth: basic(theirs.body.clientId, theirs.body.clientSecret) })).status).toBe(200);
    });

    it('filters by creation and update time', async () => {
      clock.set(new Date('2026-06-01T00:00:00.000Z'));
      const june = await call(ctx, 'POST', '/tokens', { body: { name: 'june', permissions: ['VIEW'] } });
      clock.set(new Date('2026-07-01T00:00:00.000Z'));
      const july = await call(ctx, 'POST', '/tokens', { body: { name: 'july', permissions: ['VIEW'] } });
      const after = await call(ctx, 'GET', '/tokens', { query: { createdAfter: '2026-06-01T00:00:00Z' } });
      expect(after.body.data.map((t: any) => t.id)).toEqual([july.body.id, june.body.id]);
      const before = await call(ctx, 'GET', '/tokens', { query: { createdAfter: '2026-06-01T00:00:00Z', createdBefore: '2026-06-30T00:00:00Z' } });
      expect(before.body.data.map((t: any) => t.id)).toEqual([june.body.id]);
      const updated = await call(ctx, 'GET', '/tokens', { query: { updatedAfter: '2026-06-15T00:00:00Z', updatedBefore: '2026-07-01T00:00:00Z' } });
      expect(updated.body.data.map((t: any) => t.id)).toEqual([july.body.id]);
      expect([after.body.totalCount, before.body.totalCount, updated.body.totalCount]).toEqual([2, 1, 1]);
    });

    it('pages newest first with an exact totalCount, and refuses bad limits and cursors', async () => {
      const made: string[] = [];
      for (let i = 0; i < 12; i++) made.push((await call(ctx, 'POST', '/tokens', { body: { name: 'paged', permissions: ['VIEW'] } })).body.id);
      const seen: string[] = [];
      let cursor: string | undefined;
      const sizes: number[] = [];
      do {
        const page = await call(ctx, 'GET', '/tokens', { query: { name: 'paged', limit: 5, cursor } });
        expect(page.status).toBe(200);
        expect(page.body.totalCount).toBe(12);
        sizes.push(page.body.data.length);
        seen.push(...page.body.data.map((t: any) => t.id));
        expect(page.body.data.every((t: any) => t.clientSecret === undefined)).toBe(true);
        cursor = page.body.hasMore ? page.body.nextCursor : undefined;
        if (!page.body.hasMore) expect(page.body.nextCursor).toBeUndefined();
      } while (cursor);
      expect(sizes).toEqual([5, 5, 2]);
      expect(seen).toEqual([...made].reverse());
      // A revoked token leaves the list and the count.
      await call(ctx, 'DELETE', `/tokens/${made[0]}`);
      expect((await call(ctx, 'GET', '/tokens', { query: { name: 'paged' } })).body.totalCount).toBe(11);

      for (const limit of ['0', '-1', '101', '9223372036854775808', '1.5']) {
        const err = expectError(await call(ctx, 'GET', '/tokens', { query: { limit } }), 400, 'INVALID_INPUT');
        expect(err.details.fields[0]).toMatchObject({ field: 'limit', in: 'query' });
      }
      const first = await call(ctx, 'GET', '/tokens', { query: { name: 'paged', limit: 2 } });
      // A cursor of the customers list, which holds two customers.
      for (const id of ['cursor-a', 'cursor-b'])
        await call(ctx, 'POST', '/customers', { body: { platformCustomerId: id, customerType: 'INDIVIDUAL', fullName: 'C' } });
      const customerCursor = (await call(ctx, 'GET', '/customers', { query: { limit: 1 } })).body.nextCursor;
      for (const [cursor, query] of [
        ['never-issued', {}],
        [first.body.nextCursor, { name: 'other' }],
        [customerCursor, {}],
      ] as const) {
        expect(cursor).toBeTruthy();
        const err = expectError(await call(ctx, 'GET', '/tokens', { query: { ...query, cursor } }), 400, 'INVALID_INPUT');
        expect(err.details.fields[0]).toMatchObject({ field: 'cursor', in: 'query' });
      }
      expectError(await call(ctx, 'GET', '/tokens', { query: { permissions: 'VIEW' } }), 400, 'INVALID_INPUT');
    });
  });
});

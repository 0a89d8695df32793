import { afterAll, describe, expect, it } from 'vitest';
import { API_PREFIX, buildApp } from '../src/app.js';
import { expectError, testContext } from './helpers/context.js';

describe('load shedding', async () => {
  // The measured limits are off here (0), so only the forced check decides: no test depends on the machine's speed.
  const ctx = await testContext({ env: { OVERLOAD_RETRY_AFTER_SECONDS: '7', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' } });
  // The same service, on a node whose pressure check says it is overloaded.
  const overloaded = await buildApp(ctx.container, { pressureCheck: async () => true });
  afterAll(() => overloaded.close());
  const send = async (app: typeof overloaded, method: string, url: string, body?: object) => {
    const res = await app.inject({ method: method as 'GET', url, headers: { authorization: ctx.platform.auth }, ...(body ? { payload: body } : {}) });
    let json: any;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = res.body;
    }
    return { status: res.statusCode, body: json, headers: res.headers, text: res.body };
  };

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After before doing any work, in the D2 shape', async () => {
    const list = await send(overloaded, 'GET', `${API_PREFIX}/customers`);
    const body = expectError(list, 503, 'SERVICE_UNAVAILABLE');
    expect(body.details).toMatchObject({ reason: 'overloaded', retryAfterSeconds: 7 });
    expect(list.headers['retry-after']).toBe('7');
    expect(list.headers['x-content-type-options']).toBe('nosniff');

    const created = await send(overloaded, 'POST', `${API_PREFIX}/customers`, {
      platformCustomerId: 'shed-1',
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
    });
    expectError(created, 503, 'SERVICE_UNAVAILABLE');
    // Refused before any work: nothing was written.
    const stored = await ctx.container.db.executor().selectFrom('customers').select('id').where('platform_customer_id', '=', 'shed-1').execute();
    expect(stored).toEqual([]);
    // Even without credentials the answer is 503, not 401: authentication costs work too.
    const anonymous = await overloaded.inject({ method: 'GET', url: `${API_PREFIX}/customers` });
    expect(anonymous.statusCode).toBe(503);
  });

  it('keeps answering /healthz, /readyz and /metrics, which show the shedding', async () => {
    expect((await send(overloaded, 'GET', '/healthz')).status).toBe(200);
    expect((await send(overloaded, 'GET', '/readyz')).status).toBe(200);
    const metrics = await send(overloaded, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/corridor_http_shed_requests_total\{cause="healthCheck"\} 3/);
    expect(metrics.text).toMatch(/corridor_under_pressure 1/);
    expect(metrics.text).toMatch(/corridor_event_loop_delay_seconds \d/);
  });

  it('a node that is not overloaded serves normally and shows no pressure', async () => {
    expect((await send(ctx.app, 'GET', `${API_PREFIX}/customers`)).status).toBe(200);
    const metrics = await send(ctx.app, 'GET', '/metrics');
    expect(metrics.text).toMatch(/corridor_under_pressure 0/);
    expect(metrics.text).not.toMatch(/corridor_http_shed_requests_total\{/);
  });
});

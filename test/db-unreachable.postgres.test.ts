// A database that cannot be reached (issue 38, item 4). A network cut that drops packets instead
// of resetting is noticed by nothing but a timeout: without one, a request and its lane waited for
// as long as TCP takes to give up (many minutes). Every wait is bounded; while the database cannot
// be reached, requests answer 503 DATABASE_UNAVAILABLE with Retry-After, and the server recovers by
// itself once it can. The relay between the server and PostgreSQL cuts the network on demand.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, API_PREFIX } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContainer, type Container } from '../src/container.js';
import { dropPostgresSchema, openDatabase, randomSchemaName } from '../src/db/database.js';
import type { App } from '../src/http/types.js';
import { basic, PG_URL, TEST_KEK } from './helpers/context.js';
import { individual } from './helpers/factories.js';
import { startTcpRelay, type TcpRelay } from './helpers/tcp-relay.js';

// Tighter than the defaults (docs/reliability.md, "Bounds") so the test runs in seconds; the
// same code paths. A request waits at most for one answer and one connection attempt.
const QUERY_TIMEOUT_MS = 1500;
const CONNECT_TIMEOUT_MS = 1000;
const BOUND_MS = QUERY_TIMEOUT_MS + CONNECT_TIMEOUT_MS + 1000;

describe('a database that cannot be reached', () => {
  let relay: TcpRelay;
  let container: Container;
  let app: App;
  let auth: string;
  const schema = randomSchemaName('unreach');

  beforeAll(async () => {
    relay = await startTcpRelay();
    const db = await openDatabase({
      url: relay.urlFor(PG_URL),
      pgSchema: schema,
      poolSize: 4,
      statementTimeoutMs: 1000,
      lockTimeoutMs: 1000,
      idleInTransactionTimeoutMs: 2000,
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      connectTimeoutMs: CONNECT_TIMEOUT_MS,
      keepAliveInitialDelayMs: 1000,
    });
    // No credential cache: every request reads the database, as one that missed the cache does.
    const config = loadConfig({ DATA_DIR: '/nonexistent', CORRIDOR_KEK: TEST_KEK, OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', AUTH_CACHE_TTL_MS: '0' });
    container = await createContainer(config, { db });
    app = await buildApp(container);
    const platform = await container.services.platforms.create('Unreachable');
    const { row, clientSecret } = await container.services.tokens.issue({
      platformId: platform.id,
      environment: 'SANDBOX',
      name: 'test',
      permissions: ['VIEW', 'TRANSACT', 'MANAGE'],
    });
    auth = basic(row.client_id, clientSecret);
  });
  afterAll(async () => {
    relay.thaw();
    await app.close();
    await container.close();
    await relay.close();
    await dropPostgresSchema(PG_URL, schema);
  });

  const createCustomer = async (key: string, body: unknown) => {
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: `${API_PREFIX}/customers`,
      headers: { authorization: auth, 'idempotency-key': key },
      payload: body as object,
    });
    return { status: res.statusCode, body: res.json(), headers: res.headers, ms: performance.now() - started };
  };
  const customers = async () =>
    (await container.db.admin.selectFrom('customers').select('platform_customer_id').execute()).map((r) => r.platform_customer_id).sort();

  it('frozen: a write and a read answer 503 DATABASE_UNAVAILABLE with Retry-After within the bound, not a hang; thawed, the retry succeeds once', async () => {
    const body = individual();
    expect((await createCustomer('warm-up', individual())).status).toBe(201);
    relay.freeze();
    const [write, read] = await Promise.all([
      createCustomer('frozen-write', body),
      app
        .inject({ method: 'GET', url: `${API_PREFIX}/customers`, headers: { authorization: auth } })
        .then((res) => ({ status: res.statusCode, body: res.json(), headers: res.headers })),
    ]);
    expect(write.status).toBe(503);
    expect(write.body).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
    expect(write.headers['retry-after']).toBe('1');
    expect(write.ms).toBeLessThan(BOUND_MS);
    expect(read.status).toBe(503);
    expect(read.body.code).toBe('DATABASE_UNAVAILABLE');
    // Still frozen: a new request fails as fast, it does not queue behind the first.
    const again = await createCustomer('frozen-write', body);
    expect(again.status).toBe(503);
    expect(again.ms).toBeLessThan(BOUND_MS);
    relay.thaw();
    // No restart: the next requests get new connections.
    const retried = await createCustomer('frozen-write', body);
    expect(retried.status).toBe(201);
    const replayed = await createCustomer('frozen-write', body);
    expect(replayed.status).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect((await customers()).filter((id) => id === body.platformCustomerId)).toHaveLength(1);
  });

  it('reset: work in flight answers 201 or 503, never hangs; retried with its key, each customer exists exactly once', async () => {
    const bodies = Array.from({ length: 12 }, () => individual());
    const first = Promise.all(bodies.map((b, i) => createCustomer(`reset-${i}`, b)));
    await new Promise((r) => setTimeout(r, 5));
    relay.reset();
    const answers = await first;
    for (const a of answers) {
      expect([201, 503]).toContain(a.status);
      expect(a.ms).toBeLessThan(BOUND_MS);
    }
    const retried = await Promise.all(bodies.map((b, i) => createCustomer(`reset-${i}`, b)));
    expect(retried.map((r) => r.status)).toEqual(bodies.map(() => 201));
    const stored = await customers();
    for (const b of bodies) expect(stored.filter((id) => id === b.platformCustomerId)).toHaveLength(1);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../db/database.js';
import { migrate } from '../../db/migrate.js';
import { statement } from '../../db/statements.js';
import { systemClock } from '../../common/clock.js';
import { createConfigCache } from './config-cache.js';
import { createPlatformService } from './service.js';

let scope: { platformId: string; environment: 'SANDBOX' };
const SET_ENDPOINT = statement('update platform_configs set webhook_endpoint = ? where platform_id = ? and environment = ?');

describe('configuration cache', () => {
  let db: Database;
  afterEach(() => db?.close());

  async function setUp(ttlMs: number) {
    db = await openDatabase({ url: ':memory:' });
    await migrate(db);
    const platform = await createPlatformService({ db, clock: systemClock, umaBaseDomain: 'example.test' }).create('One');
    scope = { platformId: platform.id, environment: 'SANDBOX' };
    let t = 0;
    const cache = createConfigCache({ db, ttlMs, now: () => t });
    return { cache, advance: (ms: number) => (t += ms), setEndpoint: (url: string) => db.execute(SET_ENDPOINT, [url, scope.platformId, scope.environment]) };
  }

  it('reads the row once per ttl, then again', async () => {
    const { cache, advance, setEndpoint } = await setUp(1000);
    expect((await cache.get(scope)).webhook_endpoint).toBeNull();
    await setEndpoint('https://a.example/hook');
    // Another node changed it: this node keeps its copy, without a read, until the ttl runs out.
    const before = db.stats.statements;
    expect((await cache.get(scope)).webhook_endpoint).toBeNull();
    expect(db.stats.statements).toBe(before);
    advance(1000);
    expect((await cache.get(scope)).webhook_endpoint).toBe('https://a.example/hook');
  });

  it('forget() makes the next read fresh at once', async () => {
    const { cache, setEndpoint } = await setUp(60_000);
    await cache.get(scope);
    await setEndpoint('https://b.example/hook');
    cache.forget(scope);
    expect((await cache.get(scope)).webhook_endpoint).toBe('https://b.example/hook');
  });

  it('does not keep a read that was under way when forget() was called', async () => {
    const { cache, setEndpoint } = await setUp(60_000);
    const stale = cache.get(scope);
    cache.forget(scope);
    await stale;
    await setEndpoint('https://c.example/hook');
    expect((await cache.get(scope)).webhook_endpoint).toBe('https://c.example/hook');
  });
});

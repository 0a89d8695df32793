import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';
import { systemClock, type Clock } from './common/clock.js';
import { Cursors } from './common/pagination.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createAuthenticator } from './http/auth.js';
import { createIdempotency } from './http/idempotency.js';
import { createCustomerService } from './modules/customers/service.js';
import { createPlatformService } from './modules/platforms/service.js';
import { createTokenService } from './modules/tokens/service.js';

export interface Overrides {
  clock?: Clock;
  /** An open database (tests); otherwise opened from the config. */
  db?: Database;
}

/** The database URL the config points at: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export function databaseUrl(config: Config): string {
  return config.databaseUrl ?? path.join(config.dataDir, 'corridor.db');
}

/** A secret that must be the same on every node and survive restarts, kept in the database. */
async function sharedSecret(db: Database, key: string): Promise<string> {
  return db.tx(async (trx) => {
    const found = await trx.selectFrom('system_settings').select('value').where('key', '=', key).executeTakeFirst();
    if (found) return found.value;
    const value = randomBytes(32).toString('base64url');
    await trx.insertInto('system_settings').values({ key, value }).execute();
    return value;
  });
}

/** Builds every service over one database. No module reaches for globals: tests swap what they need. */
export async function createContainer(config: Config, overrides: Overrides = {}) {
  const db = overrides.db ?? (await openDatabase({ url: databaseUrl(config), sqliteSynchronous: config.sqliteSynchronous }));
  await migrate(db);
  const clock = overrides.clock ?? systemClock;
  const cursors = new Cursors(await sharedSecret(db, 'cursor_secret'));
  const authenticator = createAuthenticator({ db, ttlMs: config.authCacheTtlMs });
  const idempotency = createIdempotency({ db, clock });

  const services = {
    platforms: createPlatformService({ db, clock, umaBaseDomain: config.umaBaseDomain }),
    tokens: createTokenService({ db, clock, cursors, onRevoke: (clientId) => authenticator.forget(clientId) }),
    customers: createCustomerService({ db, clock, cursors }),
  };

  return {
    config,
    db,
    clock,
    cursors,
    authenticator,
    idempotency,
    services,
    async close() {
      await db.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

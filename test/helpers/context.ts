import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { buildApp, API_PREFIX } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createContainer, type Container, type Overrides } from '../../src/container.js';
import type { Clock } from '../../src/common/clock.js';
import type { Environment, Permission } from '../../src/common/scope.js';
import { dropPostgresSchema, openDatabase, randomSchemaName, type Database } from '../../src/db/database.js';
import type { App } from '../../src/http/types.js';

import { PG_URL, dialect } from './env.js';

export { PG_URL, dialect };

/** The key-encryption key of in-process tests (base64 of 32 bytes). */
export const TEST_KEK = Buffer.alloc(32, 7).toString('base64');

/** A fresh, empty database of the dialect under test (its own PostgreSQL schema). */
export async function freshDatabase(): Promise<{ db: Database; url: string; schema?: string; drop: () => Promise<void> }> {
  if (dialect === 'postgres') {
    const schema = randomSchemaName('test');
    const db = await openDatabase({ url: PG_URL, pgSchema: schema, poolSize: 8 });
    return { db, url: PG_URL, schema, drop: () => dropPostgresSchema(PG_URL, schema) };
  }
  // A file, as in production: a write connection and a read connection, WAL, group commit.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-test-'));
  const url = path.join(dir, 'corridor.db');
  const db = await openDatabase({ url, sqliteSynchronous: 'NORMAL' });
  return { db, url, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface TestContext {
  app: App;
  container: Container;
  config: Config;
  /** A platform with a SANDBOX token holding every permission. */
  platform: TestPlatform;
  newPlatform(name?: string): Promise<TestPlatform>;
  close(): Promise<void>;
}

export interface TestPlatform {
  platformId: string;
  auth: string;
  /** Another token on this platform. */
  token(permissions: Permission[], environment?: Environment): Promise<string>;
}

export function basic(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

/** Builds the app in-process on a fresh database; closes everything after the file's tests. */
export async function testContext(
  opts: { clock?: Clock; env?: Record<string, string>; webhookResolve?: (host: string) => Promise<string[]>; domainProof?: Overrides['domainProof'] } = {},
): Promise<TestContext> {
  const { db, drop } = await freshDatabase();
  // A fixed key-encryption key: the data directory does not exist, so none could be generated there.
  // Load shedding on measured event-loop delay is off in tests (a busy machine must not turn answers
  // into 503s); test/overload.test.ts forces the pressure instead.
  const config = loadConfig({
    DATA_DIR: '/nonexistent',
    AUTH_CACHE_TTL_MS: '5000',
    CORRIDOR_KEK: TEST_KEK,
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    // PRODUCTION payments here are settled by the operator's commands (the manual rail); the bank
    // rails have their own tests (test/bank-*.test.ts, test/e2e/bank-rails.test.ts).
    PRODUCTION_MANUAL_RAIL: 'true',
    ...opts.env,
  });
  const container = await createContainer(config, { db, clock: opts.clock, webhookResolve: opts.webhookResolve, domainProof: opts.domainProof });
  const app = await buildApp(container);

  async function newPlatform(name = 'Test platform'): Promise<TestPlatform> {
    const p = await container.services.platforms.create(name);
    const token = async (permissions: Permission[], environment: Environment = 'SANDBOX') => {
      const { row, clientSecret } = await container.services.tokens.issue({ platformId: p.id, environment, name: 'test', permissions });
      return basic(row.client_id, clientSecret);
    };
    return { platformId: p.id, auth: await token(['VIEW', 'TRANSACT', 'MANAGE']), token };
  }

  const ctx: TestContext = {
    app,
    container,
    config,
    platform: await newPlatform(),
    newPlatform,
    async close() {
      await app.close();
      await container.close();
      await drop();
    },
  };
  afterAll(() => ctx.close());
  return ctx;
}

export interface CallOptions {
  auth?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
}

/** Calls the API under the version prefix and parses the JSON answer. */
export async function call(ctx: TestContext, method: string, path: string, opts: CallOptions = {}) {
  const headers: Record<string, string> = { ...opts.headers };
  const auth = opts.auth === undefined ? ctx.platform.auth : opts.auth;
  if (auth) headers.authorization = auth;
  const query = opts.query
    ? Object.fromEntries(
        Object.entries(opts.query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      )
    : undefined;
  const res = await ctx.app.inject({
    method: method as 'GET',
    url: `${API_PREFIX}${path}`,
    headers,
    query,
    ...(opts.body === undefined ? {} : typeof opts.body === 'string' ? { payload: opts.body } : { payload: opts.body as object }),
  });
  let body: any;
  try {
    body = res.body ? JSON.parse(res.body) : undefined;
  } catch {
    body = res.body;
  }
  return { status: res.statusCode, body, headers: res.headers };
}

/** Asserts the D2 error shape and returns the body. */
export function expectError(res: { status: number; body: any }, status: number, code: string) {
  if (res.status !== status || res.body?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  if (res.body.status !== status || typeof res.body.message !== 'string') throw new Error(`not a D2 error body: ${JSON.stringify(res.body)}`);
  return res.body;
}

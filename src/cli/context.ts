import { loadConfig } from '../config.js';
import { createContainer, type Container } from '../container.js';

/**
 * `npx corridor <command>`: operator commands over the same DATA_DIR / DATABASE_URL as the
 * server. Safe while the server runs (SQLite waits for the write lock; PostgreSQL is shared).
 */
export async function withContainer<T>(fn: (c: Container) => Promise<T>): Promise<T> {
  // An operator's command (a `ledger verify` over years of transfers) may run one statement longer
  // than any request should: without the request-sized limits on one statement and on an answer,
  // unless the operator set them. The other bounds (connect, locks, idle transactions) stay.
  const env = { PG_STATEMENT_TIMEOUT_MS: '0', PG_QUERY_TIMEOUT_MS: '0', ...process.env };
  const container = await createContainer(loadConfig(env));
  try {
    return await fn(container);
  } finally {
    await container.close();
  }
}

export function print(json: boolean, value: Record<string, unknown>, human: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

import { loadConfig } from '../config.js';
import { createContainer, type Container } from '../container.js';

/**
 * `npx corridor <command>`: operator commands over the same DATA_DIR / DATABASE_URL as the
 * server. Safe while the server runs (SQLite waits for the write lock; PostgreSQL is shared).
 */
export async function withContainer<T>(fn: (c: Container) => Promise<T>): Promise<T> {
  const container = await createContainer(loadConfig());
  try {
    return await fn(container);
  } finally {
    await container.close();
  }
}

export function print(json: boolean, value: Record<string, unknown>, human: string) {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
}

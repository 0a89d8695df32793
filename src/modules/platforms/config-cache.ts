import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { PlatformConfigsTable } from '../../db/schema.js';
import { statement } from '../../db/statements.js';

const SELECT_CONFIG = statement('select * from platform_configs where platform_id = ? and environment = ?');

/** Every platform has its configuration rows from its creation: a missing one is a fault, not a 404. */
function present(row: PlatformConfigsTable | undefined, scope: Scope): PlatformConfigsTable {
  if (!row) throw new Error(`no configuration for ${scope.platformId} ${scope.environment}`);
  return row;
}

/** The platform's configuration as it is now (in the open transaction, else committed), uncached: for reads that must see a change at once. */
export async function readConfig(db: Pick<Database, 'query'>, scope: Scope): Promise<PlatformConfigsTable> {
  const [row] = await db.query<PlatformConfigsTable>(SELECT_CONFIG, [scope.platformId, scope.environment]);
  return present(row, scope);
}

/**
 * The platform's configuration, held (a share lock) until the open transaction ends: for a write
 * that depends on it and must not interleave with a change of it (PATCH /config updates the row
 * first, so each waits for the other to commit).
 */
export async function heldConfig(db: Pick<Database, 'lockRow'>, scope: Scope): Promise<PlatformConfigsTable> {
  return present(await db.lockRow<PlatformConfigsTable>('platform_configs', { platform_id: scope.platformId, environment: scope.environment }, 'share'), scope);
}

/**
 * A platform's configuration as payments read it (currency limits, whether a webhook endpoint is
 * set): reused for ttlMs instead of read several times per payment. PATCH /config forgets it on
 * its own node once committed; other nodes see the change within ttlMs (docs/decisions.md).
 * A read that began before a forget() is not kept, so a stale row never outlives the forget; a read
 * inside a transaction is kept only once that transaction committed.
 */
export function createConfigCache(deps: { db: Database; ttlMs: number; now?: () => number }) {
  const { db, ttlMs } = deps;
  const now = deps.now ?? Date.now;
  const entries = new Map<string, { row: PlatformConfigsTable; until: number }>();
  const generations = new Map<string, number>();
  const keyOf = (scope: Scope) => `${scope.platformId}|${scope.environment}`;

  /** The cached row while it is fresh, else undefined. */
  const cached = (key: string) => {
    const hit = entries.get(key);
    return hit && hit.until > now() ? hit.row : undefined;
  };

  return {
    /** The cached configuration without waiting, when this node holds a fresh one (a hook's fast path). */
    peek: (scope: Scope): PlatformConfigsTable | undefined => cached(keyOf(scope)),

    async get(scope: Scope): Promise<PlatformConfigsTable> {
      const key = keyOf(scope);
      const hit = cached(key);
      if (hit) return hit;
      const generation = generations.get(key) ?? 0;
      const row = await readConfig(db, scope);
      // Kept only once the transaction it was read in committed (at once outside one): inside a
      // batch the read sees the earlier members' writes, a PATCH /config among them, which may
      // still roll back. A forget() meanwhile (PATCH /config committing first) means it is stale.
      if (ttlMs > 0)
        db.afterCommit(() => {
          if ((generations.get(key) ?? 0) !== generation) return;
          if (entries.size >= 10_000) entries.delete(entries.keys().next().value as string);
          entries.set(key, { row, until: now() + ttlMs });
        });
      return row;
    },

    /** After a change of the configuration (called once it committed). */
    forget(scope: Scope) {
      const key = keyOf(scope);
      entries.delete(key);
      generations.set(key, (generations.get(key) ?? 0) + 1);
    },
  };
}

export type ConfigCache = ReturnType<typeof createConfigCache>;

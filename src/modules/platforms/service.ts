import { randomBytes } from 'node:crypto';
import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { ENVIRONMENTS } from '../../common/scope.js';
import type { Database } from '../../db/database.js';

/**
 * Platforms are the API's clients. They are created by the operator (CLI, bootstrap), never
 * through the API. Each has a configuration per environment; its UMA domain names the platform
 * in every customer's UMA address, so it is unique.
 */
export function createPlatformService(deps: { db: Database; clock: Clock; umaBaseDomain: string }) {
  const { db, clock } = deps;

  function defaultUmaDomain(name: string, environment: string): string {
    const slug =
      name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 30) || 'platform';
    const env = environment === 'SANDBOX' ? 'sandbox.' : '';
    return `${env}${slug}-${randomBytes(3).toString('hex')}.${deps.umaBaseDomain}`;
  }

  return {
    async create(name: string): Promise<{ id: string; name: string }> {
      const now = clock.now().toISOString();
      const id = newId('Platform');
      await db.tx(async (trx) => {
        await trx.insertInto('platforms').values({ id, name, created_at: now, updated_at: now }).execute();
        for (const environment of ENVIRONMENTS) {
          await trx
            .insertInto('platform_configs')
            .values({ platform_id: id, environment, uma_domain: defaultUmaDomain(name, environment), created_at: now, updated_at: now })
            .execute();
        }
      });
      return { id, name };
    },

    async exists(id: string): Promise<boolean> {
      return (await db.executor().selectFrom('platforms').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    async count(): Promise<number> {
      const r = await db
        .executor()
        .selectFrom('platforms')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}

export type PlatformService = ReturnType<typeof createPlatformService>;

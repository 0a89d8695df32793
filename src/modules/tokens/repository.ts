import type { Executor } from '../../db/database.js';
import type { TokensTable } from '../../db/schema.js';
import type { Scope } from '../../common/scope.js';

export type TokenRow = TokensTable;

export interface TokenFilters {
  name?: string;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
}

export const tokenRepository = {
  insert(db: Executor, row: TokenRow) {
    return db.insertInto('tokens').values(row).execute();
  },

  /** The token that authenticates as clientId now: not revoked, not expired (by the server's clock). */
  findActiveByClientId(db: Executor, clientId: string, now: string = new Date().toISOString()) {
    return db
      .selectFrom('tokens')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
  },

  /** An unrevoked token of any platform by id or client id (operator commands). */
  findUnrevoked(db: Executor, idOrClientId: string) {
    return db
      .selectFrom('tokens')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrClientId), eb('client_id', '=', idOrClientId)]))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  findActive(db: Executor, scope: Scope, id: string) {
    return db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
  },

  revoke(db: Executor, id: string, at: string) {
    return db.updateTable('tokens').set({ revoked_at: at, updated_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
  },

  filtered(db: Executor, scope: Scope, f: TokenFilters) {
    let q = db.selectFrom('tokens').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment).where('revoked_at', 'is', null);
    if (f.name !== undefined) q = q.where('name', '=', f.name);
    if (f.createdAfter) q = q.where('created_at', '>=', f.createdAfter);
    if (f.createdBefore) q = q.where('created_at', '<=', f.createdBefore);
    if (f.updatedAfter) q = q.where('updated_at', '>=', f.updatedAfter);
    if (f.updatedBefore) q = q.where('updated_at', '<=', f.updatedBefore);
    return q;
  },
};

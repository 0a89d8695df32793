import type { Clock } from '../../common/clock.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import { type AuthContext, type Environment, type Permission, type Scope, PERMISSIONS } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import { invalidField } from '../../common/errors.js';
import { tokenErrors } from './errors.js';
import { tokenRepository, type TokenFilters, type TokenRow } from './repository.js';
import { hashSecret, newClientId, newClientSecret } from './secrets.js';
import { tokenView } from './view.js';

export interface TokenServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  /** Called when a token is revoked, so this node stops trusting it at once. */
  onRevoke: (clientId: string) => void;
}

export interface NewToken {
  platformId: string;
  environment: Environment;
  name: string;
  permissions: readonly Permission[];
  /** Fixed credentials (bootstrap); otherwise generated. */
  clientId?: string;
  clientSecret?: string;
  /** ISO time after which the token no longer authenticates; none: never. */
  expiresAt?: string;
}

/** Orders permissions canonically and drops duplicates. */
function normalise(perms: readonly Permission[]): Permission[] {
  return PERMISSIONS.filter((p) => perms.includes(p));
}

export function createTokenService(deps: TokenServiceDeps) {
  const { db, clock } = deps;

  /** Issues a token; the secret is returned here and never again. */
  async function issue(input: NewToken): Promise<{ row: TokenRow; clientSecret: string }> {
    const now = clock.now().toISOString();
    const clientSecret = input.clientSecret ?? newClientSecret();
    const row: TokenRow = {
      id: newId('Token'),
      platform_id: input.platformId,
      environment: input.environment,
      name: input.name,
      permissions: normalise(input.permissions).join(','),
      client_id: input.clientId ?? newClientId(input.environment),
      secret_hash: hashSecret(clientSecret),
      created_at: now,
      updated_at: now,
      revoked_at: null,
      expires_at: input.expiresAt ?? null,
    };
    await db.tx((trx) => tokenRepository.insert(trx, row));
    return { row, clientSecret };
  }

  return {
    issue,

    /** POST /tokens: the caller's environment, at most the caller's permissions. */
    async create(caller: AuthContext, body: { name: string; permissions: Permission[]; expiresAt?: string }) {
      const notHeld = body.permissions.filter((p) => !caller.permissions.includes(p));
      if (notHeld.length) throw tokenErrors.PERMISSION_NOT_GRANTABLE({ permissions: notHeld, callerPermissions: caller.permissions });
      let expiresAt: string | undefined;
      if (body.expiresAt !== undefined) {
        const at = Date.parse(body.expiresAt);
        if (Number.isNaN(at)) throw invalidField('expiresAt', 'must be an ISO 8601 date-time');
        if (at <= clock.now().getTime()) throw invalidField('expiresAt', 'must be in the future');
        expiresAt = new Date(at).toISOString();
      }
      const { row, clientSecret } = await issue({
        platformId: caller.platformId,
        environment: caller.environment,
        name: body.name,
        permissions: body.permissions,
        expiresAt,
      });
      return { ...tokenView(row), clientSecret };
    },

    async get(scope: Scope, id: string) {
      const row = await tokenRepository.findActive(db.executor(), scope, id);
      if (!row) throw tokenErrors.TOKEN_NOT_FOUND();
      return tokenView(row);
    },

    async list(scope: Scope, filters: TokenFilters, page: PageRequest) {
      const ex = db.executor();
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `tokens|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
        fetch: (after, n) => {
          let q = tokenRepository.filtered(ex, scope, filters).selectAll();
          if (after) q = q.where('id', '<', after);
          return q.orderBy('id', 'desc').limit(n).execute();
        },
        count: async () =>
          toNumber(
            (
              await tokenRepository
                .filtered(ex, scope, filters)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n as bigint,
          ),
        view: (row) => tokenView(row),
      });
    },

    /** `npx corridor token revoke`: by id or client id, any platform; undefined when no unrevoked token matches. */
    async revokeAny(idOrClientId: string) {
      const row = await db.tx(async (trx) => {
        const found = await tokenRepository.findUnrevoked(trx, idOrClientId);
        if (!found) return undefined;
        const at = clock.now().toISOString();
        await tokenRepository.revoke(trx, found.id, at);
        return { ...found, revoked_at: at, updated_at: at };
      });
      if (row) deps.onRevoke(row.client_id);
      return row;
    },

    /** DELETE /tokens/{id}: revokes at once; the token stops authenticating on this node immediately. */
    async revoke(scope: Scope, id: string) {
      const row = await db.tx(async (trx) => {
        const found = await tokenRepository.findActive(trx, scope, id);
        if (!found) throw tokenErrors.TOKEN_NOT_FOUND();
        const at = clock.now().toISOString();
        await tokenRepository.revoke(trx, id, at);
        return { ...found, revoked_at: at, updated_at: at };
      });
      deps.onRevoke(row.client_id);
      return tokenView(row);
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

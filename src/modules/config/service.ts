import { sql } from 'kysely';
import { absent } from '../../common/absent.js';
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { PlatformConfigsTable } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/values.js';
import type { WebhookKeys } from '../../events/keys.js';
import type { DeliveryWorker } from '../../events/worker.js';
import type { ConfigCache } from '../platforms/config-cache.js';
import { readConfig } from '../platforms/config-cache.js';
import { configErrors } from './errors.js';
import { profileOf } from './grid-profile.js';
import type { ConfigPatch } from './schemas.js';
import { allCurrencySettings, mergeCurrencySettings } from './settings.js';
import { incomingSettingsView, mergeIncomingSettings } from './incoming.js';
import { claims, claimView, newClaimToken, proveClaim, systemProofNetwork, underBaseDomain, type DomainProofNetwork } from './uma-domain.js';

export interface ConfigServiceDeps {
  db: Database;
  clock: Clock;
  /** Forgotten once a change commits, so this node's next payment reads the new settings. */
  configs: Pick<ConfigCache, 'forget'>;
  keys: WebhookKeys;
  worker: Pick<DeliveryWorker, 'checkUrl'>;
  /** UMA_BASE_DOMAIN: domains under it are the operator's namespace and apply at once. */
  umaBaseDomain: string;
  /** How a PRODUCTION umaDomain is proven (HTTPS well-known file, DNS TXT); injected in tests. */
  domainProof?: DomainProofNetwork;
}

/**
 * A webhook URL is checked when it is saved, for quick feedback, and again at every attempt
 * (DNS can change). A host that does not resolve yet is accepted: the delivery log will show
 * the failure; an address in a forbidden range is refused.
 */
export async function checkWebhookTarget(worker: Pick<DeliveryWorker, 'checkUrl'>, url: string, scope: Scope, field: string) {
  const check = await worker.checkUrl(url, scope.environment);
  if (!check.ok && !check.reason.startsWith('could not resolve')) throw invalidField(field, check.reason);
  return check;
}

/** Moves every customer UMA address of the scope from one domain to another (same local part). */
async function moveUmaAddresses(trx: Executor, scope: Scope, from: string, to: string, now: string) {
  const suffix = `@${from}`;
  await trx
    .updateTable('customers')
    .set({ uma_address: sql<string>`substr(uma_address, 1, length(uma_address) - ${sql.lit(from.length)}) || ${to}`, updated_at: now })
    .where('platform_id', '=', scope.platformId)
    .where('environment', '=', scope.environment)
    .where(sql<string>`substr(uma_address, length(uma_address) - ${sql.lit(from.length)})`, '=', suffix)
    .execute();
}

/**
 * Makes `domain` the platform's UMA domain (unique per environment: 409 when another platform has
 * it) and moves every customer address with it, in the caller's transaction.
 */
async function applyDomain(trx: Executor, scope: Scope, from: string, domain: string, now: string) {
  await trx
    .updateTable('platform_configs')
    .set({ uma_domain: domain, updated_at: now })
    .where('platform_id', '=', scope.platformId)
    .where('environment', '=', scope.environment)
    .execute()
    .catch((e: unknown) => {
      throw isUniqueViolation(e) ? configErrors.UMA_DOMAIN_TAKEN({ umaDomain: domain }) : e;
    });
  // Decision: addresses follow the domain, in this transaction, so they stay valid
  // (normaliseUmaAddress accepts only the platform's domain); the old ones stop resolving.
  await moveUmaAddresses(trx, scope, from, domain, now);
  await claims.remove(trx, scope);
}

export function createConfigService(deps: ConfigServiceDeps) {
  const { db, clock, keys } = deps;
  const proofNetwork = deps.domainProof ?? systemProofNetwork;

  async function view(scope: Scope, row: PlatformConfigsTable) {
    const claim = await claims.get(db.executor(), scope);
    const compatibility = profileOf(row);
    // No endpoint, no pending claim, no limit: left out (D11).
    return absent({
      environment: scope.environment,
      webhookEndpoint: row.webhook_endpoint,
      webhookPublicKey: await keys.publicKeyPem(scope),
      compatibility,
      // Made on first use: a platform that never turns GRID on never gets a P-256 key.
      ...(compatibility === 'GRID' ? { gridWebhookPublicKey: await keys.gridPublicKeyPem(scope) } : {}),
      umaDomain: row.uma_domain,
      umaDomainClaim: claim ? claimView(claim) : null,
      currencies: allCurrencySettings(row).map((c) => absent(c)),
      ...incomingSettingsView(row),
      updatedAt: row.updated_at,
    });
  }

  return {
    async get(scope: Scope) {
      return view(scope, await readConfig(db, scope));
    },

    async update(scope: Scope, patch: ConfigPatch) {
      // The URL check may wait on DNS: it runs before the transaction opens.
      if (typeof patch.webhookEndpoint === 'string') await checkWebhookTarget(deps.worker, patch.webhookEndpoint, scope, 'webhookEndpoint');
      const row = await db.tx(async (trx) => {
        const current = await readConfig(db, scope);
        const now = clock.now().toISOString();
        const changes: Partial<PlatformConfigsTable> = { updated_at: now };
        if (patch.webhookEndpoint !== undefined) changes.webhook_endpoint = patch.webhookEndpoint;
        if (patch.compatibility !== undefined) changes.compatibility = patch.compatibility;
        if (patch.currencies) changes.currency_settings = mergeCurrencySettings(current.currency_settings, patch.currencies);
        Object.assign(changes, mergeIncomingSettings(current, patch));
        const requested = patch.umaDomain?.toLowerCase();
        // The operator's namespace applies at once; a domain of its own must be proven in
        // PRODUCTION (a pending claim) and does not exist in the sandbox.
        const direct = requested !== undefined && requested !== current.uma_domain && underBaseDomain(requested, deps.umaBaseDomain);
        if (requested !== undefined && requested !== current.uma_domain && !direct) {
          if (scope.environment === 'SANDBOX') throw invalidField('umaDomain', `must be ${deps.umaBaseDomain} or a domain under it in the sandbox`);
          const pending = await claims.get(trx, scope);
          if (pending?.domain !== requested) await claims.put(trx, scope, { domain: requested, token: newClaimToken(), requestedAt: now });
        }
        if (requested === current.uma_domain || direct) await claims.remove(trx, scope);
        const domain = direct ? requested : undefined;
        await trx
          .updateTable('platform_configs')
          .set(changes)
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .execute();
        if (domain) await applyDomain(trx, scope, current.uma_domain, domain, now);
        // This node reads the new settings at once; other nodes within CONFIG_CACHE_TTL_MS.
        db.afterCommit(() => deps.configs.forget(scope));
        return { ...current, ...changes, ...(domain ? { uma_domain: domain } : {}) };
      });
      return view(scope, row);
    },

    /**
     * POST /config/uma-domain/verify: fetches the proof of the pending claim (outside any
     * transaction), and on success makes it the platform's domain.
     */
    async verifyUmaDomain(scope: Scope) {
      const claim = await claims.get(db.executor(), scope);
      if (!claim) throw configErrors.NO_UMA_DOMAIN_CLAIM();
      const result = await proveClaim(proofNetwork, claim);
      if (!result.proven) throw configErrors.UMA_DOMAIN_NOT_PROVEN({ umaDomain: claim.domain, tried: result.tried });
      return view(scope, await adopt(scope, claim.domain));
    },

    /** The operator approves a pending claim without proof (`npx corridor uma-domain approve`). */
    async approveUmaDomain(scope: Scope): Promise<{ umaDomain: string }> {
      const claim = await claims.get(db.executor(), scope);
      if (!claim) throw configErrors.NO_UMA_DOMAIN_CLAIM();
      return { umaDomain: (await adopt(scope, claim.domain)).uma_domain };
    },

    /** Pending claims of every platform, for the operator. */
    async pendingUmaDomains() {
      const rows = await db.executor().selectFrom('system_settings').selectAll().where('key', 'like', 'uma_domain_claim|%').execute();
      return rows.map((r) => {
        const [, platformId, environment] = r.key.split('|');
        return { platformId, environment, ...(JSON.parse(r.value) as { domain: string; requestedAt: string }) };
      });
    },
  };

  /** Adopts a claimed domain if it is still the pending one (a new PATCH may have replaced it). */
  async function adopt(scope: Scope, domain: string) {
    return db.tx(async (trx) => {
      const current = await readConfig(db, scope);
      const claim = await claims.get(trx, scope);
      if (!claim || claim.domain !== domain) throw configErrors.NO_UMA_DOMAIN_CLAIM();
      const now = clock.now().toISOString();
      await applyDomain(trx, scope, current.uma_domain, domain, now);
      db.afterCommit(() => deps.configs.forget(scope));
      return { ...current, uma_domain: domain, updated_at: now };
    });
  }
}

export type ConfigService = ReturnType<typeof createConfigService>;

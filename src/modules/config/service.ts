import { sql } from 'kysely';
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { PlatformConfigsTable } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/values.js';
import type { WebhookKeys } from '../../events/keys.js';
import type { DeliveryWorker } from '../../events/worker.js';
import type { ConfigCache } from '../platforms/config-cache.js';
import { platformConfig } from '../platforms/service.js';
import { configErrors } from './errors.js';
import type { ConfigPatch } from './schemas.js';
import { allCurrencySettings, mergeCurrencySettings } from './settings.js';
import { incomingSettingsView, mergeIncomingSettings } from './incoming.js';

export interface ConfigServiceDeps {
  db: Database;
  clock: Clock;
  /** Forgotten once a change commits, so this node's next payment reads the new settings. */
  configs: Pick<ConfigCache, 'forget'>;
  keys: WebhookKeys;
  worker: Pick<DeliveryWorker, 'checkUrl'>;
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

export function createConfigService(deps: ConfigServiceDeps) {
  const { db, clock, keys } = deps;

  async function view(scope: Scope, row: PlatformConfigsTable) {
    return {
      environment: scope.environment,
      webhookEndpoint: row.webhook_endpoint,
      webhookPublicKey: await keys.publicKeyPem(scope),
      umaDomain: row.uma_domain,
      currencies: allCurrencySettings(row),
      ...incomingSettingsView(row),
      updatedAt: row.updated_at,
    };
  }

  return {
    async get(scope: Scope) {
      return view(scope, await platformConfig(db.executor(), scope));
    },

    async update(scope: Scope, patch: ConfigPatch) {
      // The URL check may wait on DNS: it runs before the transaction opens.
      if (typeof patch.webhookEndpoint === 'string') await checkWebhookTarget(deps.worker, patch.webhookEndpoint, scope, 'webhookEndpoint');
      const row = await db.tx(async (trx) => {
        const current = await platformConfig(trx, scope);
        const now = clock.now().toISOString();
        const changes: Partial<PlatformConfigsTable> = { updated_at: now };
        if (patch.webhookEndpoint !== undefined) changes.webhook_endpoint = patch.webhookEndpoint;
        if (patch.currencies) changes.currency_settings = mergeCurrencySettings(current.currency_settings, patch.currencies);
        Object.assign(changes, mergeIncomingSettings(current, patch));
        const domain = patch.umaDomain?.toLowerCase();
        const moving = domain !== undefined && domain !== current.uma_domain;
        if (moving) changes.uma_domain = domain;
        await trx
          .updateTable('platform_configs')
          .set(changes)
          .where('platform_id', '=', scope.platformId)
          .where('environment', '=', scope.environment)
          .execute()
          .catch((e: unknown) => {
            throw isUniqueViolation(e) ? configErrors.UMA_DOMAIN_TAKEN({ umaDomain: domain }) : e;
          });
        // Decision: addresses follow the domain, in this transaction, so they stay valid
        // (normaliseUmaAddress accepts only the platform's domain); the old ones stop resolving.
        if (moving) await moveUmaAddresses(trx, scope, current.uma_domain, domain, now);
        db.afterCommit(() => deps.configs.forget(scope));
        return { ...current, ...changes };
      });
      return view(scope, row);
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;

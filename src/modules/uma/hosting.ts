/**
 * Which platform answers a UMA request: the one whose UMA domain is the request's Host. A domain is
 * unique within an environment; a Host that names domains in both environments answers nothing,
 * rather than guess which books a payment belongs to.
 */
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { PlatformConfigsTable } from '../../db/schema.js';

export interface HostedPlatform {
  scope: Scope;
  domain: string;
  config: PlatformConfigsTable;
}

/** The Host header as a UMA domain: lower case, without a trailing dot. */
export const domainOfHost = (host: string | undefined) => (host ?? '').trim().toLowerCase().replace(/\.$/, '');

export async function hostedPlatform(ex: Executor, host: string | undefined): Promise<HostedPlatform | undefined> {
  const domain = domainOfHost(host);
  if (!domain) return undefined;
  // The Host of a request sent to a mapped or default port may carry it; the domain may not.
  const candidates = [domain, domain.replace(/:\d+$/, '')];
  for (const d of new Set(candidates)) {
    const rows = await ex.selectFrom('platform_configs').selectAll().where('uma_domain', '=', d).execute();
    if (rows.length === 1)
      return { scope: { platformId: rows[0].platform_id, environment: rows[0].environment as Scope['environment'] }, domain: d, config: rows[0] };
    if (rows.length > 1) return undefined;
  }
  return undefined;
}

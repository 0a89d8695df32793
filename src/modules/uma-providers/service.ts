/**
 * GET /uma-providers: the platforms hosted by this Corridor in the caller's environment, each with
 * the UMA domain of its customers' addresses, the currencies it has enabled and the countries of
 * those currencies. Every one is reachable from here (a payment to it settles inside Corridor).
 */
import { currency, currencyView, CURRENCY_CODES } from '../../common/currencies.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { currencySetting } from '../config/settings.js';

export interface UmaProviderFilters {
  countryCode?: string;
  currencyCode?: string;
  sortOrder?: 'asc' | 'desc';
}

// A self-hosted Corridor holds few platforms; the list is filtered in memory, at most this many.
const MAX_PLATFORMS = 10_000;

export function createUmaProviderService(deps: { db: Database; cursors: Cursors }) {
  return {
    async list(scope: Scope, f: UmaProviderFilters, page: PageRequest) {
      const order = f.sortOrder ?? 'desc';
      const rows = await deps.db
        .executor()
        .selectFrom('platform_configs as c')
        .innerJoin('platforms as p', 'p.id', 'c.platform_id')
        .select(['p.id', 'p.name', 'c.uma_domain', 'c.currency_settings'])
        .where('c.environment', '=', scope.environment)
        .orderBy('p.id', order)
        .limit(MAX_PLATFORMS)
        .execute();
      const providers = rows
        .map((r) => {
          const codes = CURRENCY_CODES.filter((code) => currencySetting(r, code).enabled);
          const regions = [...new Set(codes.flatMap((code) => currency(code).countries))].sort();
          return { id: r.id, name: r.name, domain: r.uma_domain, codes, regions };
        })
        .filter((p) => (!f.currencyCode || p.codes.includes(f.currencyCode)) && (!f.countryCode || p.regions.includes(f.countryCode)));
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `uma-providers|${scope.platformId}|${scope.environment}|${f.countryCode ?? ''}|${f.currencyCode ?? ''}|${order}`,
        fetch: async (after, n) => {
          const start = after === undefined ? 0 : providers.findIndex((p) => (order === 'asc' ? p.id > after : p.id < after));
          return start < 0 ? [] : providers.slice(start, start + n);
        },
        count: async () => providers.length,
        view: (p) => ({ name: p.name, domain: p.domain, supportedCurrencies: p.codes.map(currencyView), supportedRegions: p.regions, allowListStatus: true }),
      });
    },
  };
}

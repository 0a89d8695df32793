/**
 * GET /uma-providers: the platforms hosted by this Corridor in the caller's environment, each with
 * the UMA domain of its customers' addresses, the currencies it has enabled and the countries of
 * those currencies. Every one is reachable from here (a payment to it settles inside Corridor).
 */
import { Type } from 'typebox';
import { currency, currencyView, CURRENCY_CODES } from '../../common/currencies.js';
import { paginate } from '../../common/pagination.js';
import { CountryCode, CurrencyCode, CurrencySchema } from '../../common/schemas.js';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { currencySetting } from '../config/settings.js';
import { PageQuery } from '../../common/pagination.js';

const UmaProviderQuery = Type.Object(
  {
    countryCode: Type.Optional(CountryCode),
    currencyCode: Type.Optional(CurrencyCode),
    hasBlockedProviders: Type.Optional(Type.Boolean({ description: 'Accepted for the vendor SDK; Corridor keeps no allow list, so no provider is blocked' })),
    sortOrder: Type.Optional(Type.Enum(['asc', 'desc'], { description: 'desc (default): newest platform first' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

const UmaProviderSchema = Type.Object({
  name: Type.String(),
  domain: Type.String({ description: "The UMA domain of the platform's customers' addresses" }),
  supportedCurrencies: Type.Array(CurrencySchema),
  supportedRegions: Type.Array(Type.String(), { description: 'Countries whose currency the platform has enabled (ISO 3166-1 alpha-2)' }),
  allowListStatus: Type.Boolean({ description: 'Always true: Corridor keeps no allow list' }),
});

const UmaProviderPage = Type.Object({
  data: Type.Array(UmaProviderSchema),
  hasMore: Type.Boolean(),
  nextCursor: Type.Optional(Type.String()),
  totalCount: Type.Integer(),
});

// A self-hosted Corridor holds few platforms; the list is filtered in memory, at most this many.
const MAX_PLATFORMS = 10_000;

export function umaProviderRoutes(app: App, { db, cursors }: Container) {
  app.get('/uma-providers', {
    config: { permission: 'VIEW' },
    schema: {
      tags: ['Receivers'],
      summary: 'The platforms and UMA domains reachable from this Corridor, filtered by country and currency',
      querystring: UmaProviderQuery,
      response: { 200: UmaProviderPage },
    },
  }, async (req) => {
    const { countryCode, currencyCode, sortOrder = 'desc', limit, cursor } = req.query;
    const rows = await db
      .executor()
      .selectFrom('platform_configs as c')
      .innerJoin('platforms as p', 'p.id', 'c.platform_id')
      .select(['p.id', 'p.name', 'c.uma_domain', 'c.currency_settings'])
      .where('c.environment', '=', req.auth.environment)
      .orderBy('p.id', sortOrder)
      .limit(MAX_PLATFORMS)
      .execute();
    const providers = rows
      .map((r) => {
        const codes = CURRENCY_CODES.filter((code) => currencySetting(r, code).enabled);
        const regions = [...new Set(codes.flatMap((code) => currency(code).countries))].sort();
        return { id: r.id, name: r.name, domain: r.uma_domain, codes, regions };
      })
      .filter((p) => (!currencyCode || p.codes.includes(currencyCode)) && (!countryCode || p.regions.includes(countryCode)));
    return paginate({
      cursors,
      request: { limit, cursor },
      scope: `uma-providers|${req.auth.platformId}|${req.auth.environment}|${countryCode ?? ''}|${currencyCode ?? ''}|${sortOrder}`,
      fetch: async (after, n) => {
        const start = after === undefined ? 0 : providers.findIndex((p) => (sortOrder === 'asc' ? p.id > after : p.id < after));
        return start < 0 ? [] : providers.slice(start, start + n);
      },
      count: async () => providers.length,
      view: (p) => ({ name: p.name, domain: p.domain, supportedCurrencies: p.codes.map(currencyView), supportedRegions: p.regions, allowListStatus: true }),
    });
  });
}

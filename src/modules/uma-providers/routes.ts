import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { UmaProviderPage, UmaProviderQuery } from './schemas.js';
import { createUmaProviderService } from './service.js';

export function umaProviderRoutes(app: App, { db, cursors }: Container) {
  const providers = createUmaProviderService({ db, cursors });
  app.get(
    '/uma-providers',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags: ['Receivers'],
        summary: 'The platforms and UMA domains reachable from this Corridor, filtered by country and currency',
        querystring: UmaProviderQuery,
        response: { 200: UmaProviderPage },
      },
    },
    async (req) => {
      const { limit, cursor, hasBlockedProviders: _noAllowList, ...filters } = req.query;
      return providers.list(req.auth, filters, { limit, cursor });
    },
  );
}

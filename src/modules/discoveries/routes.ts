import type { App } from '../../http/types.js';
import type { Container } from '../../container.js';
import { listDiscoveries } from './catalogue.js';
import { DiscoveryList, DiscoveryQuery } from './schemas.js';

export function discoveryRoutes(app: App, _container: Container) {
  // Load and check the catalogue now, so a bad data file stops the start instead of a request.
  listDiscoveries();
  app.get(
    '/discoveries',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags: ['Discoveries'],
        summary: 'List the bank names (and mobile-money operators) accepted in accountInfo',
        description:
          'Both filters are optional and combine. A valid country or currency the catalogue has nothing for answers an empty list, not an error. Sorted by displayName.',
        querystring: DiscoveryQuery,
        response: { 200: DiscoveryList },
      },
    },
    async (req) => ({ data: listDiscoveries({ country: req.query.country, currency: req.query.currency }) }),
  );
}

import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { CustomerInternalAccountQuery, InternalAccountIdParams, InternalAccountPage, InternalAccountSchema, PlatformInternalAccountQuery } from './schemas.js';

export function internalAccountRoutes(app: App, { services }: Container) {
  const accounts = services.internalAccounts;
  const tags = ['Internal accounts'];

  app.get(
    '/customers/internal-accounts',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: "List customers' internal accounts (one per customer and enabled currency), newest first",
        querystring: CustomerInternalAccountQuery,
        response: { 200: InternalAccountPage },
      },
    },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return accounts.listOfCustomers(req.auth, filters, { limit, cursor });
    },
  );

  app.get(
    '/platform/internal-accounts',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: "List the platform's internal accounts (one per supported currency)",
        querystring: PlatformInternalAccountQuery,
        response: { 200: InternalAccountPage },
      },
    },
    async (req) => {
      const { limit, cursor, ...filters } = req.query;
      return accounts.listOfPlatform(req.auth, filters, { limit, cursor });
    },
  );

  app.get(
    '/internal-accounts/:accountId',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Retrieve an internal account (customer or platform)',
        params: InternalAccountIdParams,
        response: { 200: InternalAccountSchema },
      },
    },
    async (req) => accounts.get(req.auth, req.params.accountId),
  );
}

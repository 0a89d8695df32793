import { oneOfSpellings, sameInstant } from '../../common/aliases.js';
import { isoOrUndefined } from '../../common/schemas.js';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { TransactionIdParams, TransactionListQuery, TransactionPage, TransactionSchema } from './schemas.js';

export function transactionRoutes(app: App, { services }: Container) {
  const tags = ['Transactions'];

  app.get(
    '/transactions',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List transactions, newest first', querystring: TransactionListQuery, response: { 200: TransactionPage } },
    },
    async (req) => {
      const { limit, cursor, createdAfter: _a, createdBefore: _b, startDate: _s, endDate: _e, sortOrder, ...rest } = req.query;
      const createdAfter = oneOfSpellings<string>(req.query, 'createdAfter', 'startDate', 'query', sameInstant);
      const createdBefore = oneOfSpellings<string>(req.query, 'createdBefore', 'endDate', 'query', sameInstant);
      return services.transactions.list(
        req.auth,
        { ...rest, createdAfter: isoOrUndefined(createdAfter), createdBefore: isoOrUndefined(createdBefore) },
        { limit, cursor },
        sortOrder,
      );
    },
  );

  app.get(
    '/transactions/:transactionId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a transaction', params: TransactionIdParams, response: { 200: TransactionSchema } },
    },
    async (req) => services.transactions.get(req.auth, req.params.transactionId),
  );
}

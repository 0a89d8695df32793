import { isoOrUndefined } from '../../common/schemas.js';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { QuoteCreateBody, QuoteIdParams, QuoteListQuery, QuotePage, QuoteSchema } from './schemas.js';

export function quoteRoutes(app: App, { services }: Container) {
  const quotes = services.quotes;
  const tags = ['Quotes'];

  app.post(
    '/quotes',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Create a quote: lock the rate, fees and amounts (and execute at once with immediatelyExecute)',
        body: QuoteCreateBody,
        response: { 201: QuoteSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return quotes.create(req.auth, req.body);
    },
  );

  app.get(
    '/quotes',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'List quotes, newest first', querystring: QuoteListQuery, response: { 200: QuotePage } },
    },
    async (req) => {
      const { limit, cursor, createdAfter, createdBefore, ...rest } = req.query;
      return quotes.list(req.auth, { ...rest, createdAfter: isoOrUndefined(createdAfter), createdBefore: isoOrUndefined(createdBefore) }, { limit, cursor });
    },
  );

  app.get(
    '/quotes/:quoteId',
    {
      config: { permission: 'VIEW' },
      schema: { tags, summary: 'Retrieve a quote', params: QuoteIdParams, response: { 200: QuoteSchema } },
    },
    async (req) => quotes.get(req.auth, req.params.quoteId),
  );

  app.post(
    '/quotes/:quoteId/execute',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Execute a prefunded or pullable quote: funds are debited at once (not for REALTIME_FUNDING quotes)',
        params: QuoteIdParams,
        response: { 200: QuoteSchema },
      },
    },
    async (req) => quotes.execute(req.auth, req.params.quoteId),
  );
}

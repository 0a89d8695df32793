import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { ExchangeRateList, ExchangeRateQuery } from './schemas.js';
import { createExchangeRateService } from './service.js';

export function exchangeRateRoutes(app: App, container: Container) {
  const rates = createExchangeRateService({ db: container.db, fx: container.fx });
  app.get(
    '/exchange-rates',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags: ['Exchange rates'],
        summary: "The rates and this platform's fees that quotes use now, per corridor, with the receiving amount for a sending amount",
        querystring: ExchangeRateQuery,
        response: { 200: ExchangeRateList },
      },
      // Several destinations come repeated (?destinationCurrency=EUR&destinationCurrency=MXN, as the
      // vendor's OpenAPI shows) or comma-separated (EUR,MXN, as its SDK sends arrays).
      preValidation: async (req) => {
        const query = req.query as Record<string, unknown>;
        const given = query.destinationCurrency;
        if (given !== undefined) query.destinationCurrency = (Array.isArray(given) ? given : [given]).flatMap((v) => String(v).split(','));
      },
    },
    async (req) => rates.list(req.auth, req.query),
  );
}

import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { ExchangeRateList, ExchangeRateQuery } from './schemas.js';
import { createExchangeRateService } from './service.js';

export function exchangeRateRoutes(app: App, container: Container) {
  const rates = createExchangeRateService({ db: container.db, fx: container.fx });
  app.get('/exchange-rates', {
    config: { permission: 'VIEW' },
    schema: {
      tags: ['Exchange rates'],
      summary: "The rates and this platform's fees that quotes use now, per corridor, with the receiving amount for a sending amount",
      querystring: ExchangeRateQuery,
      response: { 200: ExchangeRateList },
    },
  }, async (req) => rates.list(req.auth, req.query));
}

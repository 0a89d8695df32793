import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { ExternalAccountLookupParams, LookupQuery, LookupSchema, UmaAddressParams } from './schemas.js';

export function receiverRoutes(app: App, { services }: Container) {
  const tags = ['Receivers'];

  app.get(
    '/receiver/uma/:receiverUmaAddress',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Look up a UMA address: the currencies it receives (indicative rates, limits) and the payer data a quote must carry',
        params: UmaAddressParams,
        querystring: LookupQuery,
        response: { 200: LookupSchema },
      },
    },
    async (req) => services.receiver.lookupUma(req.auth, req.params.receiverUmaAddress, req.query),
  );

  app.get(
    '/receiver/external-account/:accountId',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'Look up an external account as a receiver: its currency, limits and the payer data a quote must carry',
        params: ExternalAccountLookupParams,
        querystring: LookupQuery,
        response: { 200: LookupSchema },
      },
    },
    async (req) => services.receiver.lookupExternalAccount(req.auth, req.params.accountId, req.query),
  );
}

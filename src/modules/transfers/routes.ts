import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { TransactionSchema } from '../transactions/schemas.js';
import { TransferInBody, TransferOutBody } from './schemas.js';

export function transferRoutes(app: App, { services }: Container) {
  const tags = ['Transfers'];

  app.post(
    '/transfer-out',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Pay an external account from an internal account of the same currency',
        body: TransferOutBody,
        response: { 201: TransactionSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return services.transfers.transferOut(req.auth, req.body);
    },
  );

  app.post(
    '/transfer-in',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Pull from a pullable external account into an internal account of the same currency',
        body: TransferInBody,
        response: { 201: TransactionSchema },
      },
    },
    async (req, reply) => {
      reply.code(201);
      return services.transfers.transferIn(req.auth, req.body);
    },
  );
}

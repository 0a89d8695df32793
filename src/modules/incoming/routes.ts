import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { TransactionIdParams, TransactionSchema } from '../transactions/schemas.js';
import { ApproveBody, RejectBody } from './schemas.js';

/** No body at all means {}: every field is optional. */
async function emptyBody(req: { body: unknown }) {
  if (req.body === undefined) req.body = {};
}

export function incomingRoutes(app: App, { services }: Container) {
  const tags = ['Transactions'];

  app.post(
    '/transactions/:transactionId/approve',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Approve an incoming payment waiting for approval (the INCOMING_PAYMENT webhook with status PENDING); it completes',
        params: TransactionIdParams,
        body: ApproveBody,
        response: { 200: TransactionSchema },
      },
      preValidation: emptyBody,
    },
    async (req) => services.incoming.approve(req.auth, req.params.transactionId, req.body),
  );

  app.post(
    '/transactions/:transactionId/reject',
    {
      config: { permission: 'TRANSACT' },
      schema: {
        tags,
        summary: 'Refuse an incoming payment waiting for approval: it becomes REJECTED and the money goes back to the sender',
        params: TransactionIdParams,
        body: RejectBody,
        response: { 200: TransactionSchema },
      },
      preValidation: emptyBody,
    },
    async (req) => services.incoming.reject(req.auth, req.params.transactionId, req.body),
  );
}

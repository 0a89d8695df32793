/**
 * POST /sandbox/uma/receive: a UMA payment arriving from outside for one of the caller's
 * customers, named by UMA address. It follows the platform's configuration (required payer
 * data, approval) and the address's sandbox suffix (docs/incoming-payments.md).
 */
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { SandboxReceiveBody } from '../incoming/schemas.js';
import { TransactionSchema } from '../transactions/schemas.js';

export function sandboxReceiveRoutes(app: App, { services }: Container) {
  app.post('/sandbox/uma/receive', {
    config: { permission: 'TRANSACT', sandboxOnly: true },
    schema: {
      tags: ['Sandbox'],
      summary: "Simulate a UMA payment arriving for one of your customers' UMA addresses (sandbox only)",
      body: SandboxReceiveBody,
      response: { 200: TransactionSchema },
    },
  }, async (req) => services.incoming.sandboxReceive(req.auth, req.body));
}

import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { FundBody, InternalAccountIdParams, InternalAccountSchema } from '../internal-accounts/schemas.js';

/** POST /sandbox/internal-accounts/{accountId}/fund: sandbox money, from the SANDBOX_FUNDING account. */
export function sandboxFundRoutes(app: App, { services }: Container) {
  app.post(
    '/sandbox/internal-accounts/:accountId/fund',
    {
      config: { permission: 'TRANSACT', sandboxOnly: true },
      schema: {
        tags: ['Sandbox'],
        summary: 'Add balance to an internal account (sandbox only)',
        params: InternalAccountIdParams,
        body: FundBody,
        response: { 200: InternalAccountSchema },
      },
    },
    async (req) => services.internalAccounts.fund(req.auth, req.params.accountId, BigInt(req.body.amount)),
  );
}

/**
 * POST /sandbox/uma/receive: a UMA payment arriving from outside for one of the caller's
 * customers, named by UMA address. It follows the platform's configuration (required payer
 * data, approval) and the address's sandbox suffix (docs/incoming-payments.md).
 */
import { oneOfNames } from '../../common/aliases.js';
import { invalidInput, type FieldProblem } from '../../common/errors.js';
import type { Container } from '../../container.js';
import type { App } from '../../http/types.js';
import { SandboxReceiveBody } from '../incoming/schemas.js';
import { TransactionSchema } from '../transactions/schemas.js';

export function sandboxReceiveRoutes(app: App, container: Container) {
  const { services } = container;
  app.post(
    '/sandbox/uma/receive',
    {
      config: { permission: 'TRANSACT', sandboxOnly: true },
      schema: {
        tags: ['Sandbox'],
        summary: "Simulate a UMA payment arriving for one of your customers' UMA addresses (sandbox only)",
        body: SandboxReceiveBody,
        response: { 200: TransactionSchema },
      },
    },
    async (req) => {
      // The spec's names, the SDK's (receivingCurrencyCode/Amount, customerId) and the CLI's
      // (currency, amount) are one request; given twice, they must agree.
      const body = req.body as Record<string, unknown>;
      const currencyCode = oneOfNames<string>(body, 'currencyCode', ['receivingCurrencyCode', 'currency'], 'body');
      const currencyAmount = oneOfNames<number>(body, 'currencyAmount', ['receivingCurrencyAmount', 'amount'], 'body');
      let receiverUmaAddress = req.body.receiverUmaAddress;
      if (req.body.customerId !== undefined) {
        const customer = await services.customers.getLive(req.auth, req.body.customerId);
        if (receiverUmaAddress !== undefined && receiverUmaAddress.toLowerCase() !== customer.uma_address) {
          throw invalidInput([{ field: 'customerId', in: 'body', message: 'is not the customer of receiverUmaAddress; give one' }]);
        }
        receiverUmaAddress = customer.uma_address;
      }
      const missing: FieldProblem[] = [];
      if (receiverUmaAddress === undefined) missing.push({ field: 'receiverUmaAddress', in: 'body', message: 'is required (or customerId)' });
      if (currencyCode === undefined) missing.push({ field: 'currencyCode', in: 'body', message: 'is required (or receivingCurrencyCode)' });
      if (currencyAmount === undefined) missing.push({ field: 'currencyAmount', in: 'body', message: 'is required (or receivingCurrencyAmount)' });
      if (missing.length) throw invalidInput(missing);
      const { senderUmaAddress, senderCustomerInfo, description } = req.body;
      return services.incoming.sandboxReceive(req.auth, {
        receiverUmaAddress: receiverUmaAddress!,
        currencyCode: currencyCode!,
        currencyAmount: currencyAmount!,
        senderUmaAddress,
        senderCustomerInfo,
        description,
      });
    },
  );
}

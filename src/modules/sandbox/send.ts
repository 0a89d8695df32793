/**
 * POST /sandbox/send: simulates the payment a JIT (REALTIME_FUNDING) quote waits for, matched by
 * quoteId or by the reference of its paymentInstructions. The right amount starts the payment
 * (PROCESSING, then the destination's sandbox pattern); a wrong amount fails the transaction
 * with FUNDING_AMOUNT_MISMATCH and the payment is sent back.
 */
import { Type } from 'typebox';
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import { idPattern } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import { CurrencyCode } from '../../common/schemas.js';
import type { Container } from '../../container.js';
import type { Database } from '../../db/database.js';
import { MAX_AMOUNT } from '../../fx/pricing.js';
import type { App } from '../../http/types.js';
import { quoteErrors } from '../quotes/errors.js';
import type { QuoteService } from '../quotes/service.js';
import type { PaymentEngine } from '../transactions/engine.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { transactionRepository } from '../transactions/repository.js';
import { TransactionSchema } from '../transactions/schemas.js';
import { transactionView } from '../transactions/view.js';

export const SandboxSendBody = Type.Object(
  {
    quoteId: Type.Optional(Type.String({ pattern: idPattern('Quote'), description: 'The JIT quote paid (or give reference)' })),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The reference of the quote’s paymentInstructions' })),
    currencyCode: CurrencyCode,
    currencyAmount: Type.Optional(Type.Integer({ minimum: 1, maximum: Number(MAX_AMOUNT), description: 'Defaults to the quote’s totalSendingAmount' })),
  },
  { additionalProperties: false },
);

export function createSandboxSend(deps: { db: Database; clock: Clock; quotes: QuoteService; engine: PaymentEngine; lifecycle: Lifecycle }) {
  const { db, clock, quotes, engine, lifecycle } = deps;

  return async function send(scope: Scope, input: { quoteId?: string; reference?: string; currencyCode: string; currencyAmount?: number }) {
    if ((input.quoteId === undefined) === (input.reference === undefined))
      throw invalidField('quoteId', 'give either quoteId or reference (the paymentInstructions reference), not both');
    return db.tx(async (trx) => {
      let quoteId = input.quoteId;
      if (quoteId === undefined) {
        const tx = await transactionRepository.findByReference(trx, scope, input.reference!);
        if (!tx?.quote_id) throw quoteErrors.QUOTE_NOT_FOUND({ reference: input.reference }, 'No quote with this reference');
        quoteId = tx.quote_id;
      }
      const { quote, tx } = await quotes.load(trx, scope, quoteId);
      if (quote.funding !== 'REALTIME') throw quoteErrors.QUOTE_NOT_REALTIME_FUNDED({ quoteId });
      if (input.currencyCode !== tx.sending_currency) throw invalidField('currencyCode', `must be ${tx.sending_currency}, the sending currency of the quote`);
      if (tx.status === 'EXPIRED' || (tx.status === 'PENDING' && clock.now().toISOString() >= quote.expires_at)) {
        throw quoteErrors.QUOTE_EXPIRED({ quoteId, expiresAt: quote.expires_at });
      }
      if (tx.status !== 'PENDING') throw quoteErrors.QUOTE_NOT_PENDING({ quoteId, status: tx.status }, 'This quote was already funded, or it failed');
      const amount = input.currencyAmount === undefined ? BigInt(tx.sent_amount) : BigInt(input.currencyAmount);
      const next =
        amount === BigInt(tx.sent_amount)
          ? await engine.initiate(trx, tx, await quotes.payableAccounts(trx, scope, tx), 'payment received with the quote reference (sandbox)')
          : await lifecycle.rejectFunding(tx, `payment of ${amount} received where ${tx.sent_amount} was quoted (sandbox)`);
      if (!next) throw quoteErrors.QUOTE_NOT_PENDING({ quoteId }, 'This quote was already funded, or it failed');
      return transactionView(next);
    });
  };
}

export function sandboxSendRoutes(app: App, { services }: Container) {
  app.post(
    '/sandbox/send',
    {
      config: { permission: 'TRANSACT', sandboxOnly: true },
      schema: {
        tags: ['Sandbox'],
        summary: 'Simulate the payment a REALTIME_FUNDING quote waits for (sandbox only)',
        body: SandboxSendBody,
        response: { 200: TransactionSchema },
      },
    },
    async (req) => services.sandboxSend(req.auth, req.body),
  );
}

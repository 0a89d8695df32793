/**
 * The default UMA deposit account: once an incoming payment has landed in the customer's
 * internal account, the funds are paid on to the customer's ACTIVE external account flagged
 * defaultUmaDepositAccount (same currency only). The payout is its own OUTGOING transaction
 * (kind UMA_DEPOSIT), started through the payment engine and the environment's rail like a
 * transfer-out, so it has its own outcome: a failed payout refunds the internal account.
 */
import { ApiError } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Clock } from '../../common/clock.js';
import type { Database, Executor } from '../../db/database.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import { priceTransfer, type Fx } from '../quotes/pricing.js';
import type { PaymentEngine } from '../transactions/engine.js';
import { payoutRow } from '../transactions/row.js';
import type { TransactionRow } from '../transactions/repository.js';
import { incomingRepository as repo } from './repository.js';

export async function forwardToDeposit(deps: { db: Database; clock: Clock; fx: Fx; engine: PaymentEngine }, trx: Executor, row: TransactionRow): Promise<void> {
  const scope: Scope = { platformId: row.platform_id, environment: row.environment as Scope['environment'] };
  const account = await repo.defaultDepositAccount(trx, scope, row.customer_id!);
  if (!account || account.currency !== row.receiving_currency) return;
  let price;
  try {
    price = priceTransfer(deps.fx, account.currency, BigInt(row.received_amount));
  } catch (e) {
    if (e instanceof ApiError) return; // the fee schedule leaves nothing to pay out: the funds stay in the internal account
    throw e;
  }
  const now = deps.clock.now().toISOString();
  const payout = payoutRow({
    scope,
    now,
    kind: 'UMA_DEPOSIT',
    from: { accountId: row.internal_account_id!, customerId: row.customer_id, platformCustomerId: row.platform_customer_id },
    to: account,
    price,
    description: `UMA payment ${row.id} forwarded to the default UMA deposit account`,
  });
  await repo.update(trx, row.id, { deposit_account_id: account.id, deposit_transaction_id: payout.id, updated_at: now });
  await deps.engine.create(trx, payout, account, 'incoming UMA payment forwarded to the default UMA deposit account');
}

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
import { transactionRepository, type TransactionRow } from '../transactions/repository.js';
import { counterpartyInformation, paymentRailOf } from '../transactions/rules.js';
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
  const payout: TransactionRow = {
    id: newId('Transaction'),
    platform_id: scope.platformId,
    environment: scope.environment,
    type: 'OUTGOING',
    kind: 'UMA_DEPOSIT',
    funding: 'INTERNAL',
    status: 'PENDING',
    quote_id: null,
    customer_id: row.customer_id,
    platform_customer_id: row.platform_customer_id,
    internal_account_id: row.internal_account_id,
    external_account_id: account.id,
    source: JSON.stringify({ sourceType: 'ACCOUNT', accountId: row.internal_account_id, customerId: row.customer_id, currency: account.currency }),
    destination: JSON.stringify({ destinationType: 'ACCOUNT', accountId: account.id, currency: account.currency, paymentRail: paymentRailOf(account) }),
    sending_currency: account.currency,
    sent_amount: price.totalSendingAmount,
    receiving_currency: account.currency,
    received_amount: price.totalReceivingAmount,
    converted_amount: price.convertedAmount,
    fees: price.feesIncluded,
    counterparty_fee: price.counterpartyFixedFee,
    exchange_rate: '1',
    rate_details: null,
    description: `UMA payment ${row.id} forwarded to the default UMA deposit account`,
    counterparty_information: JSON.stringify(counterpartyInformation(account)),
    reference: newFundingReference(),
    payment_instructions: '[]',
    failure_reason: null,
    refund: null,
    pending_transfer_ids: null,
    settled_at: null,
    created_at: now,
    updated_at: now,
  };
  await transactionRepository.insert(deps.db, payout);
  await repo.update(trx, row.id, { deposit_account_id: account.id, deposit_transaction_id: payout.id, updated_at: now });
  await deps.engine.initiate(trx, payout, account, 'incoming UMA payment forwarded to the default UMA deposit account');
}

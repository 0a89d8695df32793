/**
 * Money the bank reports coming in, applied to Corridor's objects (settlement.ts decides which):
 * a deposit to an internal account (an INCOMING transaction, completed at once, and its webhook),
 * a JIT payment for its quote (executed as `/sandbox/send` does in the sandbox, or failed with
 * FUNDING_AMOUNT_MISMATCH), and a notification of change to an external account.
 */
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import type { BankPayoutsTable } from '../../db/tables/bank-rails.js';
import type { PaymentEngine } from '../../modules/transactions/engine.js';
import type { Lifecycle } from '../../modules/transactions/lifecycle.js';
import { newPaymentRow } from '../../modules/transactions/row.js';
import { transactionRepository, type TransactionRow } from '../../modules/transactions/repository.js';
import type { ExternalAccountRow } from '../../modules/external-accounts/repository.js';
import type { SettlementDeps } from './settlement.js';

const scopeOf = (row: { platform_id: string; environment: string }): Scope => ({
  platformId: row.platform_id,
  environment: row.environment as Scope['environment'],
});

export function createMoneyIn(deps: {
  db: Database;
  clock: Clock;
  lifecycle: Lifecycle;
  engine: PaymentEngine;
  /** The quote service's check of a JIT payment's accounts before it moves (quotes/service.ts payableAccounts). */
  payableAccounts: (trx: Executor, scope: Scope, tx: TransactionRow) => Promise<ExternalAccountRow>;
  /** Where a notification of change is written down (the operator's log). */
  log: (message: string, facts: Record<string, unknown>) => void;
}): Pick<SettlementDeps, 'deposit' | 'fundJit' | 'correctAccount'> {
  const { db, lifecycle } = deps;
  return {
    async deposit(trx, account, amount, cause) {
      const scope = scopeOf(account);
      const customer = account.customer_id
        ? await trx.selectFrom('customers').select(['id', 'platform_customer_id']).where('id', '=', account.customer_id).executeTakeFirst()
        : undefined;
      const row = newPaymentRow({
        scope,
        now: deps.clock.now().toISOString(),
        type: 'INCOMING',
        kind: 'TRANSFER_IN',
        funding: 'REALTIME',
        customer: { id: customer?.id ?? null, platformCustomerId: customer?.platform_customer_id ?? null },
        internalAccountId: account.id,
        externalAccountId: '',
        source: { sourceType: 'REALTIME_FUNDING', currency: account.currency, customerId: customer?.id },
        destination: { destinationType: 'ACCOUNT', accountId: account.id, currency: account.currency, paymentRail: 'BANK_TRANSFER' },
        sendingCurrency: account.currency,
        receivingCurrency: account.currency,
        price: {
          totalSendingAmount: amount,
          totalReceivingAmount: amount,
          convertedAmount: amount,
          feesIncluded: 0n,
          counterpartyFixedFee: 0n,
          exchangeRate: '1',
          rateDetails: undefined,
        },
        description: 'Deposit by bank transfer',
        counterpartyInformation: {},
      });
      // PENDING → PROCESSING → COMPLETED at once: the money is at the bank already (deposit legs posted).
      await lifecycle.startCompleted(row, cause, cause, (r) => transactionRepository.insert(db, r));
    },

    async fundJit(trx, tx, amount, cause) {
      const scope = scopeOf(tx);
      const quote = tx.quote_id ? await trx.selectFrom('quotes').select('expires_at').where('id', '=', tx.quote_id).executeTakeFirst() : undefined;
      const late = tx.status !== 'PENDING' || (quote !== undefined && deps.clock.now().toISOString() >= quote.expires_at);
      if (late || amount !== BigInt(tx.sent_amount)) {
        // A payment for an expired or settled quote cannot execute it: like a wrong amount, the money
        // belongs to the payer and an operator sends it back.
        if (tx.status === 'PENDING') await lifecycle.rejectFunding(tx, `${cause}: ${amount} received where ${tx.sent_amount} was quoted`);
        return 'MISMATCH';
      }
      await deps.engine.initiate(trx, tx, await deps.payableAccounts(trx, scope, tx), cause);
      return 'EXECUTED';
    },

    async correctAccount(trx, payout: BankPayoutsTable, change) {
      const tx = await transactionRepository.find(trx, scopeOf(payout), payout.transaction_id);
      if (!tx?.external_account_id) return;
      const account = await trx.selectFrom('external_accounts').selectAll().where('id', '=', tx.external_account_id).executeTakeFirst();
      if (!account) return;
      const info = JSON.parse(account.account_info) as Record<string, unknown>;
      const corrected = { ...info };
      if (change.accountNumber) corrected.accountNumber = change.accountNumber;
      if (change.routingNumber) corrected.routingNumber = change.routingNumber;
      if (JSON.stringify(corrected) !== account.account_info)
        await trx
          .updateTable('external_accounts')
          .set({
            account_info: JSON.stringify(corrected),
            primary_identifier: change.accountNumber ?? account.primary_identifier,
            updated_at: deps.clock.now().toISOString(),
          })
          .where('id', '=', account.id)
          .execute();
      db.afterCommit(() =>
        deps.log('bank notification of change applied to an external account', {
          externalAccountId: account.id,
          platformId: account.platform_id,
          changeCode: change.code,
          transactionId: payout.transaction_id,
          changed: Object.keys(change).filter((k) => k !== 'code'),
        }),
      );
    },
  };
}

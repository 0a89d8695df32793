/**
 * Same-currency transfers without a quote (spec): transfer-out pays an external account from an
 * internal account; transfer-in pulls from a pullable external account into an internal account.
 * Both create a transaction and start it at once through the payment engine.
 */
import type { Clock } from '../../common/clock.js';
import { invalidField } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { balanceOf } from '../../ledger/accounts.js';
import { ledgerErrors } from '../../ledger/errors.js';
import { requireVerified } from '../customers/rules.js';
import type { ExternalAccountRow } from '../external-accounts/repository.js';
import { newFundingReference } from '../internal-accounts/instructions.js';
import { priceTransfer, type Fx } from '../quotes/pricing.js';
import type { PaymentEngine } from '../transactions/engine.js';
import { newPaymentRow, payoutRow } from '../transactions/row.js';
import type { TransactionRow } from '../transactions/repository.js';
import {
  checkCurrencyLimits,
  counterpartyInformation,
  paymentRailOf,
  usableExternalAccount,
  usableInternalAccount,
  type AccountDeps,
} from '../transactions/rules.js';
import { transactionView } from '../transactions/view.js';
import type { TransferIn, TransferOut } from './schemas.js';

export interface TransferServiceDeps extends AccountDeps {
  db: Database;
  clock: Clock;
  fx: Fx;
  engine: PaymentEngine;
}

export function createTransferService(deps: TransferServiceDeps) {
  const { db, clock, engine } = deps;

  async function start(scope: Scope, row: TransactionRow, external: ExternalAccountRow, cause: string) {
    return db.tx(async (trx) => {
      return transactionView(await engine.create(trx, row, external, cause));
    });
  }

  /** In PRODUCTION both ends' customers must be APPROVED (400 CUSTOMER_NOT_VERIFIED); platform accounts have none. */
  async function requireVerifiedOwners(scope: Scope, ...customerIds: Array<string | null>) {
    if (scope.environment !== 'PRODUCTION') return;
    for (const id of new Set(customerIds.filter((c): c is string => c !== null))) requireVerified(scope, await deps.customers.getLive(scope, id));
  }

  return {
    async transferOut(scope: Scope, input: TransferOut) {
      // Checked before anything is read, so a refused request says only what is wrong with it.
      if (input.sweepBalance === true && input.amount !== undefined) {
        throw invalidField('sweepBalance', 'cannot be given with amount; send one: amount, or sweepBalance: true to move the whole available balance');
      }
      if (input.sweepBalance !== true && input.amount === undefined) {
        throw invalidField('amount', 'is required; to move the whole available balance, send sweepBalance: true instead');
      }
      const ex = db.executor();
      const internal = await usableInternalAccount(deps, ex, scope, input.source.accountId);
      const external = await usableExternalAccount(deps, ex, scope, input.destination.accountId, 'destination.accountId');
      engine.checkCarried(scope, external, 'destination.accountId', 'PAYOUT');
      if (external.currency !== internal.currency) {
        throw invalidField(
          'destination.accountId',
          `is a ${external.currency} account but the source holds ${internal.currency}; transfers do not convert (create a quote instead)`,
        );
      }
      await requireVerifiedOwners(scope, internal.customer_id, external.customer_id);
      // With sweepBalance the whole available balance moves. It is read here; a payment that
      // lowers it meanwhile makes the reservation fail with INSUFFICIENT_FUNDS.
      const available = balanceOf({ ...internal, id: internal.id }).available;
      if (input.amount === undefined && available < 1n) {
        throw ledgerErrors.INSUFFICIENT_FUNDS({
          accountId: internal.id,
          currency: internal.currency,
          available: Number(available),
          requested: 'the whole available balance',
        });
      }
      const amount = input.amount === undefined ? available : BigInt(input.amount);
      await checkCurrencyLimits(deps.configs, scope, [{ currency: internal.currency, amount, field: 'amount' }]);
      const row = payoutRow({
        scope,
        now: clock.now().toISOString(),
        kind: 'TRANSFER_OUT',
        from: { accountId: internal.id, customerId: internal.customer_id, platformCustomerId: internal.platform_customer_id },
        to: external,
        price: priceTransfer(deps.fx, internal.currency, amount),
        description: input.description ?? null,
      });
      return start(scope, row, external, 'transfer-out requested');
    },

    async transferIn(scope: Scope, input: TransferIn) {
      const ex = db.executor();
      const external = await usableExternalAccount(deps, ex, scope, input.source.accountId, 'source.accountId', { pullable: true });
      engine.checkCarried(scope, external, 'source.accountId', 'PULL');
      const internal = await usableInternalAccount(deps, ex, scope, input.destination.accountId);
      if (external.currency !== internal.currency) {
        throw invalidField('source.accountId', `is a ${external.currency} account but the destination holds ${internal.currency}; transfers do not convert`);
      }
      // Pulling money is allowed only from the account holder's own bank account.
      if (external.customer_id !== internal.customer_id) {
        throw invalidField(
          'source.accountId',
          'belongs to another owner than the destination internal account; pull only from the owner’s own external account',
        );
      }
      await requireVerifiedOwners(scope, internal.customer_id);
      const amount = BigInt(input.amount);
      await checkCurrencyLimits(deps.configs, scope, [{ currency: internal.currency, amount, field: 'amount' }]);
      const row = newPaymentRow({
        scope,
        now: clock.now().toISOString(),
        type: 'INCOMING',
        kind: 'TRANSFER_IN',
        funding: 'PULL',
        customer: { id: internal.customer_id, platformCustomerId: internal.platform_customer_id },
        internalAccountId: internal.id,
        externalAccountId: external.id,
        source: { sourceType: 'ACCOUNT', accountId: external.id, customerId: external.customer_id, currency: external.currency },
        destination: { destinationType: 'ACCOUNT', accountId: internal.id, currency: internal.currency, paymentRail: paymentRailOf(external) },
        sendingCurrency: internal.currency,
        receivingCurrency: internal.currency,
        price: { ...priceTransfer(deps.fx, internal.currency, amount), exchangeRate: '1', rateDetails: undefined },
        description: input.description ?? null,
        counterpartyInformation: counterpartyInformation(external),
      });
      return start(scope, row, external, 'transfer-in requested');
    },
  };
}

export type TransferService = ReturnType<typeof createTransferService>;

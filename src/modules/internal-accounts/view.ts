import { absent } from '../../common/absent.js';
import { currencyView } from '../../common/currencies.js';
import type { Environment } from '../../common/scope.js';
import { fromDbBool } from '../../db/values.js';
import { balanceOf } from '../../ledger/accounts.js';
import { fundingInstructions, type CollectionAccounts } from './instructions.js';
import type { InternalAccountWithBalance } from './repository.js';

/**
 * Internal account → API object. `balance` is the available balance (see docs/accounts.md).
 * `collections`: PRODUCTION's collection accounts (instructions.ts).
 * The platform's own account has no customerId (the spec: "empty means the account belongs to the platform").
 */
export function internalAccountView(row: InternalAccountWithBalance, environment: Environment, collections?: CollectionAccounts) {
  const b = balanceOf(row);
  return absent({
    id: row.id,
    customerId: row.customer_id,
    balance: { amount: Number(b.available), currency: currencyView(row.currency) },
    fundingPaymentInstructions: fromDbBool(row.is_active) ? fundingInstructions(row, environment, collections) : [],
    createdAt: row.created_at,
    // A balance change is a change of the account.
    updatedAt: row.ledger_updated_at > row.updated_at ? row.ledger_updated_at : row.updated_at,
  });
}

export type InternalAccount = ReturnType<typeof internalAccountView>;

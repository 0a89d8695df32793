/**
 * The three ways a quote is funded (spec, Source object): an internal account (prefunded), a
 * pullable external account (ACH pull), or REALTIME_FUNDING (JIT: the customer pays to the
 * quote's paymentInstructions). The variant without sourceType is read from its fields.
 */
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { TransactionView } from '../transactions/schemas.js';
import { usableExternalAccount, usableInternalAccount, type AccountDeps } from '../transactions/rules.js';
import type { QuoteCreate } from './schemas.js';
import type { CollectionAccounts } from '../internal-accounts/instructions.js';

export interface ResolvedSource {
  funding: 'INTERNAL' | 'PULL' | 'REALTIME';
  currency: string;
  customerId: string | null;
  platformCustomerId: string | null;
  /** the internal or external account debited */
  accountId?: string;
  /** the Source object as responses show it */
  view: TransactionView['source'];
}

export async function resolveSource(
  deps: AccountDeps,
  ex: Executor,
  scope: Scope,
  input: QuoteCreate['source'],
  collections: CollectionAccounts = new Map(),
): Promise<ResolvedSource> {
  const type = input.sourceType ?? (input.accountId !== undefined ? 'ACCOUNT' : 'REALTIME_FUNDING');
  if (type === 'REALTIME_FUNDING') {
    if (input.accountId !== undefined) throw invalidField('source.accountId', 'is not used with REALTIME_FUNDING; give customerId and currency');
    if (input.customerId === undefined) throw invalidField('source.customerId', 'is required for REALTIME_FUNDING (or give accountId to pay from an account)');
    if (input.currency === undefined) throw invalidField('source.currency', 'is required for REALTIME_FUNDING');
    // PRODUCTION: paid to the operator's collection account at the bank that carries the currency.
    if (scope.environment !== 'SANDBOX' && !collections.has(input.currency)) {
      throw invalidField(
        'source.currency',
        `REALTIME_FUNDING in ${input.currency} needs a collection account, and no partner bank carries ${input.currency} (BANKS_FILE); fund an internal account instead`,
      );
    }
    const customer = await deps.customers.getLive(scope, input.customerId);
    return {
      funding: 'REALTIME',
      currency: input.currency,
      customerId: customer.id,
      platformCustomerId: customer.platform_customer_id,
      view: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: input.currency },
    };
  }
  if (input.accountId === undefined) throw invalidField('source.accountId', 'is required when sourceType is ACCOUNT');
  const internal = input.accountId.startsWith('InternalAccount:');
  const account = internal
    ? await usableInternalAccount(deps, ex, scope, input.accountId)
    : await usableExternalAccount(deps, ex, scope, input.accountId, 'source.accountId', { pullable: true });
  if (input.currency !== undefined && input.currency !== account.currency) {
    throw invalidField('source.currency', `must be ${account.currency}, the currency of the source account`);
  }
  if (input.customerId !== undefined && input.customerId !== account.customer_id) {
    throw invalidField('source.customerId', 'is not the owner of the source account');
  }
  return {
    funding: internal ? 'INTERNAL' : 'PULL',
    currency: account.currency,
    customerId: account.customer_id,
    platformCustomerId: account.platform_customer_id,
    accountId: account.id,
    view: { sourceType: 'ACCOUNT', accountId: account.id, customerId: account.customer_id ?? undefined, currency: account.currency },
  };
}

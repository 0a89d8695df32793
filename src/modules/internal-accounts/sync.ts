import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { fromDbBool } from '../../db/values.js';
import { lockAccount, openInternalLedgerAccount } from '../../ledger/accounts.js';
import { internalAccountErrors } from './errors.js';
import { newFundingReference } from './instructions.js';
import { internalAccountRepository as repo, PLATFORM_OWNER } from './repository.js';

/** Creates an internal account and its ledger account (same id) inside the caller's transaction. */
export async function openInternalAccount(
  db: Pick<Database, 'append'>,
  scope: Scope,
  owner: { customerId: string | null },
  currency: string,
  now: string,
): Promise<string> {
  const id = newId('InternalAccount');
  await openInternalLedgerAccount(db, scope, id, currency, now);
  await repo.insert(db, {
    id,
    platform_id: scope.platformId,
    environment: scope.environment,
    customer_id: owner.customerId,
    owner_key: owner.customerId ?? PLATFORM_OWNER,
    currency,
    funding_reference: newFundingReference(),
    is_active: 1,
    created_at: now,
    updated_at: now,
  });
  return id;
}

/** A new customer's internal accounts, one per enabled currency, inside the customer's creating transaction. */
export async function openCustomerAccounts(
  db: Pick<Database, 'append'>,
  scope: Scope,
  customerId: string,
  currencies: readonly string[],
  now: string,
): Promise<void> {
  for (const code of currencies) await openInternalAccount(db, scope, { customerId }, code, now);
}

/**
 * Makes a customer's internal accounts follow its enabled currencies, inside the customer's
 * transaction: a new currency gets an account (or its old one back), a removed currency's account
 * is deactivated (kept, since transfers name it) — refused while it holds any balance or pending
 * amount. The customer row is locked first so two concurrent PATCHes cannot both add an account.
 */
export async function syncCustomerAccounts(db: Database, scope: Scope, customerId: string, currencies: readonly string[], now: string): Promise<void> {
  await db.lockRow('customers', { id: customerId });
  const ex = db.executor();
  const existing = await repo.ofOwner(ex, scope, customerId);
  const wanted = new Set(currencies);
  for (const a of existing) {
    if (wanted.has(a.currency) || !fromDbBool(a.is_active)) continue;
    // Locked, so no transfer can land between this check and the deactivation (funding re-checks
    // is_active after its own update takes this lock).
    const b = await lockAccount(db, a.id);
    if (b && (b.posted !== 0n || b.debitsPending !== 0n || b.creditsPending !== 0n)) {
      throw internalAccountErrors.INTERNAL_ACCOUNT_NOT_EMPTY({
        field: 'currencies',
        currency: a.currency,
        accountId: a.id,
        balance: Number(b.available),
        pendingDebits: Number(b.debitsPending),
        pendingCredits: Number(b.creditsPending),
        reason: `move the ${a.currency} balance out before removing ${a.currency}`,
      });
    }
    await repo.setActive(ex, a.id, false, now);
  }
  for (const code of currencies) {
    const found = existing.find((a) => a.currency === code);
    if (!found) await openInternalAccount(db, scope, { customerId }, code, now);
    else if (!fromDbBool(found.is_active)) await repo.setActive(ex, found.id, true, now);
  }
}

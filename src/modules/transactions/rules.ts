/**
 * Checks and derivations shared by quotes and transfers: which accounts may take part, the
 * platform's per-currency settings, and what a transaction shows about its counterparty.
 */
import { invalidField } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import { fromDbBool } from '../../db/values.js';
import { currencySetting } from '../config/settings.js';
import type { OwnerColumns } from '../customers/repository.js';
import { requireLive, type CustomerService } from '../customers/service.js';
import type { ExternalAccountRow } from '../external-accounts/repository.js';
import type { ExternalAccountService } from '../external-accounts/service.js';
import { internalAccountErrors } from '../internal-accounts/errors.js';
import type { InternalAccountWithBalance } from '../internal-accounts/repository.js';
import type { InternalAccountService } from '../internal-accounts/service.js';
import type { ConfigCache } from '../platforms/config-cache.js';
import { paymentRuleErrors } from './errors.js';

/** A pullable account: money can be debited from it on our initiative (an ACH pull). */
export function isPullable(a: ExternalAccountRow): boolean {
  if (a.account_type !== 'US_ACCOUNT') return false;
  const rails = (JSON.parse(a.account_info) as { paymentRails?: string[] }).paymentRails ?? ['ACH'];
  return rails.includes('ACH');
}

const DEFAULT_RAIL: Record<string, string> = {
  US_ACCOUNT: 'ACH',
  CLABE: 'SPEI',
  PIX: 'PIX',
  IBAN: 'SEPA',
  PHP_ACCOUNT: 'BANK_TRANSFER',
  GBP_ACCOUNT: 'FASTER_PAYMENTS',
  UPI: 'UPI',
  NGN_ACCOUNT: 'BANK_TRANSFER',
  ZAR_ACCOUNT: 'BANK_TRANSFER',
  CAD_ACCOUNT: 'EFT',
  LAYER2_WALLET: 'LIGHTNING',
  SOLANA_WALLET: 'SOLANA',
  EVM_WALLET: 'EVM',
};

/** The usual payout rail of an account type (MOBILE_MONEY for the mobile-money types). */
export function defaultRailOf(accountType: string): string {
  return DEFAULT_RAIL[accountType] ?? 'MOBILE_MONEY';
}

/** The rail a payout to this account travels on (its first paymentRails entry, else the type's usual one). */
export function paymentRailOf(a: ExternalAccountRow): string {
  const info = JSON.parse(a.account_info) as { paymentRails?: string[] };
  return info.paymentRails?.[0] ?? DEFAULT_RAIL[a.account_type] ?? 'MOBILE_MONEY';
}

/** What we know of the person paid: the beneficiary of the destination account, as key-value pairs. */
export function counterpartyInformation(a: ExternalAccountRow): Record<string, string> {
  const b = (JSON.parse(a.account_info) as { beneficiary?: Record<string, unknown> }).beneficiary;
  if (!b) return {};
  const out: Record<string, string> = {};
  const keys: Array<[string, string]> = [
    ['fullName', 'FULL_NAME'],
    ['birthDate', 'BIRTH_DATE'],
    ['nationality', 'NATIONALITY'],
    ['countryOfResidence', 'COUNTRY_OF_RESIDENCE'],
  ];
  for (const [from, to] of keys) if (typeof b[from] === 'string') out[to] = b[from] as string;
  return out;
}

/** The platform's per-currency settings: enabled, and the amount within [minAmount, maxAmount]. */
export async function checkCurrencyLimits(configs: ConfigCache, scope: Scope, checks: Array<{ currency: string; amount?: bigint; field: string }>) {
  const config = await configs.get(scope);
  for (const c of checks) {
    const s = currencySetting(config, c.currency);
    if (!s.enabled) throw paymentRuleErrors.CURRENCY_NOT_ENABLED({ currency: c.currency, field: c.field });
    if (c.amount === undefined) continue;
    if ((s.minAmount !== null && c.amount < s.minAmount) || (s.maxAmount !== null && c.amount > s.maxAmount)) {
      throw paymentRuleErrors.AMOUNT_OUTSIDE_LIMITS({
        currency: c.currency,
        field: c.field,
        amount: Number(c.amount),
        minAmount: s.minAmount === null ? null : Number(s.minAmount),
        maxAmount: s.maxAmount === null ? null : Number(s.maxAmount),
      });
    }
  }
}

export interface AccountDeps {
  /** The platform's configuration (per-currency limits), reused for a moment. */
  configs: ConfigCache;
  customers: CustomerService;
  internalAccounts: InternalAccountService;
  externalAccounts: ExternalAccountService;
}

/**
 * The platformCustomerId of an account's owner, read with the account (OwnerColumns); 404 / 410
 * as for any customer given; null for a platform's account.
 */
function liveOwner(account: { customer_id: string | null } & OwnerColumns): string | null {
  if (account.customer_id === null) return null;
  // The left join leaves both owner columns null when no customer row was found.
  requireLive(account.customer_id, account.owner_is_deleted === null ? undefined : { is_deleted: account.owner_is_deleted });
  return account.owner_platform_customer_id;
}

/** An active internal account of the scope whose customer (if any) is not deleted; 404 / 400 / 410. */
export async function usableInternalAccount(
  deps: AccountDeps,
  ex: Executor,
  scope: Scope,
  id: string,
): Promise<InternalAccountWithBalance & { platform_customer_id: string | null }> {
  const account = await deps.internalAccounts.findWithOwner(scope, id);
  if (!fromDbBool(account.is_active)) throw internalAccountErrors.INTERNAL_ACCOUNT_INACTIVE({ accountId: id, currency: account.currency });
  return { ...account, platform_customer_id: liveOwner(account) };
}

/** An ACTIVE external account of the scope (pullable when asked) whose customer (if any) is not deleted; 404 / 400 naming the field / 410. */
export async function usableExternalAccount(deps: AccountDeps, ex: Executor, scope: Scope, id: string, field: string, opts: { pullable?: boolean } = {}) {
  const account = await deps.externalAccounts.findWithOwner(scope, id);
  if (account.status !== 'ACTIVE') throw invalidField(field, `is ${account.status}; only ACTIVE external accounts can be used`);
  if (opts.pullable && !isPullable(account)) throw invalidField(field, 'is not pullable: funds can be pulled only from a US_ACCOUNT with the ACH rail');
  return { ...account, platform_customer_id: liveOwner(account) };
}

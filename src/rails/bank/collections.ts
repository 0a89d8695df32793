/**
 * The collection accounts PRODUCTION shows in payment instructions: the operator's own account in
 * each currency at the bank that carries it (BANKS_FILE), in the shape of an accountOrWalletInfo.
 */
import type { CollectionAccounts } from '../../modules/internal-accounts/instructions.js';
import type { BankProfile } from './profile.js';

export function collectionAccountsOf(banks: readonly BankProfile[]): CollectionAccounts {
  const accounts = new Map<string, CollectionAccounts extends ReadonlyMap<string, infer V> ? V : never>();
  for (const bank of banks)
    for (const a of bank.accounts) {
      const common = { bankName: a.bankName, accountHolderName: a.holderName };
      if (a.iban) accounts.set(a.currency, { accountType: 'IBAN', iban: a.iban.replaceAll(' ', ''), swiftBic: a.bic, ...common });
      else if (a.routingNumber && a.accountNumber)
        accounts.set(a.currency, {
          accountType: 'US_ACCOUNT',
          routingNumber: a.routingNumber,
          accountNumber: a.accountNumber,
          accountCategory: 'CHECKING',
          ...common,
        });
    }
  return accounts;
}

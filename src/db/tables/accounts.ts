/** Row types: the ledger, internal and external accounts (conventions in db/schema.ts). */
/** A ledger account: one currency, running totals updated in the statement that moves money. */
export interface LedgerAccountsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** INTERNAL (a customer's or the platform's balance) or SYSTEM (the world outside, FX, fees) */
  kind: string;
  /** FUNDING, SANDBOX_FUNDING, PAYOUTS_IN_FLIGHT, FX_LIQUIDITY, FEES for SYSTEM accounts; null otherwise */
  system_code: string | null;
  currency: string;
  /** 1: available balance may never go below zero (customer and platform accounts) */
  non_negative: number | bigint;
  debits_pending: bigint;
  debits_posted: bigint;
  credits_pending: bigint;
  credits_posted: bigint;
  created_at: string;
  updated_at: string;
}

/** A system account's movement not yet folded into its totals (src/ledger/fold.ts). */
export interface LedgerDeltasTable {
  id: string;
  account_id: string;
  debits_pending: bigint;
  debits_posted: bigint;
  credits_pending: bigint;
  credits_posted: bigint;
}

/** A group of transfers committed together (linked), for one business object. */
export interface LedgerJournalsTable {
  id: string;
  platform_id: string;
  environment: string;
  business_id: string;
  description: string | null;
  created_at: string;
}

/** An immutable transfer of one amount from a debit account to a credit account of one currency. */
export interface LedgerTransfersTable {
  id: string;
  platform_id: string;
  environment: string;
  journal_id: string;
  /** POSTED, PENDING, POST_PENDING (posts pending_id) or VOID_PENDING (voids pending_id) */
  phase: string;
  pending_id: string | null;
  code: string;
  business_id: string;
  debit_account_id: string;
  credit_account_id: string;
  currency: string;
  amount: bigint;
  created_at: string;
}

export interface InternalAccountsTable {
  /** equals the id of its ledger account */
  id: string;
  platform_id: string;
  environment: string;
  customer_id: string | null;
  /** customer id, or PLATFORM: the unique key (owner, currency) works for both */
  owner_key: string;
  currency: string;
  /** the memo reference that routes a bank pay-in to this account */
  funding_reference: string;
  /** 0 once the customer's currencies no longer include this currency */
  is_active: number | bigint;
  created_at: string;
  updated_at: string;
}

export interface ExternalAccountsTable {
  id: string;
  platform_id: string;
  environment: string;
  customer_id: string | null;
  status: string;
  currency: string;
  account_type: string;
  /** the normalised accountInfo as JSON */
  account_info: string;
  /** the identifier the sandbox reads its suffix from (account number, IBAN, address...) */
  primary_identifier: string;
  crypto_network: string | null;
  platform_account_id: string | null;
  default_uma_deposit: number | bigint;
  verification_status: string;
  /** JSON {fullName} returned by the rail's name check, when it returned one */
  verified_data: string | null;
  created_at: string;
  updated_at: string;
}

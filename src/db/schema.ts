/**
 * Row types of every table. Conventions, the same on SQLite and PostgreSQL:
 * - ids are text `<Type>:<uuid v7>`; timestamps are ISO-8601 UTC text of fixed width (sortable);
 * - integers are 64-bit and read back as bigint; booleans are integers 0/1 (see db/values.ts);
 * - structured values (addresses, lists) are JSON text.
 */
export interface PlatformsTable {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface PlatformConfigsTable {
  platform_id: string;
  environment: string;
  uma_domain: string;
  created_at: string;
  updated_at: string;
  /** where webhooks go; null: none configured (events are stored, not sent) */
  webhook_endpoint: string | null;
  /** JSON {"USD": {"enabled": true, "minAmount": 100, "maxAmount": null}}; absent currencies use defaults */
  currency_settings: string | null;
  /** JSON ["FULL_NAME", ...]: payer data senders must give to pay this platform's customers; null: none */
  required_payer_data_fields?: string | null;
  /** JSON {required, requestedReceiverCustomerInfoFields, windowSeconds}; null: defaults (modules/config/incoming.ts) */
  incoming_payment_approval?: string | null;
}

export interface TokensTable {
  id: string;
  platform_id: string;
  environment: string;
  name: string;
  /** comma-separated VIEW,TRANSACT,MANAGE */
  permissions: string;
  client_id: string;
  /** hex SHA-256 of the client secret */
  secret_hash: string;
  created_at: string;
  updated_at: string;
  revoked_at: string | null;
}

export interface CustomersTable {
  id: string;
  platform_id: string;
  environment: string;
  platform_customer_id: string;
  customer_type: string;
  uma_address: string;
  region: string | null;
  /** enabled currencies as `,USD,EUR,` so a filter is one LIKE on both dialects */
  currencies: string;
  kyc_status: string;
  full_name: string | null;
  birth_date: string | null;
  nationality: string | null;
  address: string | null;
  business_info: string | null;
  is_deleted: number | bigint;
  deleted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BeneficialOwnersTable {
  id: string;
  platform_id: string;
  environment: string;
  /** the BUSINESS customer this person owns or controls */
  customer_id: string;
  /** roles as `,UBO,DIRECTOR,` so "has role X" is one LIKE on both dialects */
  roles: string;
  ownership_percentage: number | bigint;
  /** personalInfo as JSON text */
  personal_info: string;
  kyc_status: string;
  created_at: string;
  updated_at: string;
}

export interface DocumentsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** a Customer or BeneficialOwner id */
  document_holder: string;
  /** the customer the holder is or belongs to */
  customer_id: string;
  document_type: string;
  country: string | null;
  side: string | null;
  document_number: string | null;
  file_name: string;
  /** detected from the bytes: application/pdf, image/jpeg or image/png */
  content_type: string;
  size_bytes: number | bigint;
  /** hex SHA-256 of content */
  sha256: string;
  /** the file itself (blob on SQLite, bytea on PostgreSQL), so one backup holds everything */
  content: Buffer;
  created_at: string;
  updated_at: string;
}

export interface IdempotencyKeysTable {
  platform_id: string;
  environment: string;
  route: string;
  idempotency_key: string;
  request_hash: string;
  status_code: number | bigint;
  response_body: string;
  created_at: string;
  expires_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  /** the object the job works on; jobs of one subject run in order */
  subject: string | null;
  payload: string;
  run_at: string;
  attempts: number | bigint;
  locked_until: string | null;
  locked_by: string | null;
  last_error: string | null;
  created_at: string;
}

export interface WebhookKeysTable {
  platform_id: string;
  environment: string;
  public_key_pem: string;
  /** never leaves the service: not in responses, not in logs */
  private_key_pem: string;
  created_at: string;
}

export interface WebhookEventsTable {
  /** Webhook:<uuid v7>, the webhookId of the body */
  id: string;
  platform_id: string;
  environment: string;
  type: string;
  /** the object the event reports (a Transaction id); events of one subject are delivered in order */
  subject: string | null;
  /** the exact bytes sent on every attempt */
  body: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  platform_id: string;
  environment: string;
  event_id: string;
  event_type: string;
  subject: string | null;
  /** an explicit target (test events); null: the configured webhookEndpoint at each attempt */
  url: string | null;
  /** PENDING | DELIVERED | FAILED | NO_ENDPOINT */
  status: string;
  attempt_count: number | bigint;
  last_status_code: number | bigint | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  resend_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  delivery_id: string;
  attempt_number: number | bigint;
  platform_id: string;
  environment: string;
  attempted_at: string;
  url: string;
  status_code: number | bigint | null;
  latency_ms: number | bigint | null;
  error: string | null;
  /** the first few KiB of the receiver's answer */
  response_body: string | null;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
}

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

/** A person who signs in to the dashboard; belongs to one platform, works in either environment. */
export interface DashboardUsersTable {
  id: string;
  platform_id: string;
  /** lower case; unique across the service (it alone identifies the person at sign-in) */
  email: string;
  /** argon2id PHC string */
  password_hash: string;
  /** ADMIN | DEVELOPER | VIEWER */
  role: string;
  /** wrong passwords since the last successful sign-in */
  failed_attempts: number | bigint;
  /** no sign-in is tried before this time (backoff after repeated wrong passwords) */
  locked_until: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A signed-in dashboard session; the cookie carries a random token, only its hash is kept. */
export interface DashboardSessionsTable {
  id: string;
  platform_id: string;
  /** the environment the dashboard currently shows: SANDBOX | PRODUCTION */
  environment: string;
  user_id: string;
  /** hex SHA-256 of the session token */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** A payment: created by a quote (OUTGOING) or a transfer (OUTGOING transfer-out, INCOMING transfer-in). */
export interface TransactionsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** OUTGOING | INCOMING */
  type: string;
  /** QUOTE | TRANSFER_OUT | TRANSFER_IN | UMA_RECEIVE (an incoming UMA payment) | UMA_DEPOSIT (its payout to the default UMA deposit account) */
  kind: string;
  /** where the money comes from: INTERNAL (an internal account), PULL (a pullable external account), REALTIME (a JIT payment), UMA (a UMA payment received) */
  funding: string;
  status: string;
  quote_id: string | null;
  customer_id: string | null;
  platform_customer_id: string | null;
  /** the internal account debited (OUTGOING, INTERNAL funding) or credited (INCOMING) */
  internal_account_id: string | null;
  /** the external account paid (OUTGOING) or pulled from (INCOMING); '' when none takes part (a payment to or from a UMA address) */
  external_account_id: string;
  /** the Source and Destination objects as JSON */
  source: string;
  destination: string;
  sending_currency: string;
  sent_amount: bigint;
  receiving_currency: string;
  received_amount: bigint;
  /** sent_amount − fees: what is converted */
  converted_amount: bigint;
  fees: bigint;
  /** receiving minor units kept by the paying counterparty, already out of received_amount */
  counterparty_fee: bigint;
  /** exact decimal text, sending units per receiving unit */
  exchange_rate: string;
  rate_details: string | null;
  description: string | null;
  counterparty_information: string;
  /** unique per scope: the memo reference of a JIT payment and of reconciliation */
  reference: string;
  payment_instructions: string;
  failure_reason: string | null;
  refund: string | null;
  /** JSON ids of the ledger transfers reserved at execution, posted or voided once */
  pending_transfer_ids: string | null;
  settled_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A quote: the locked price of a transaction (the amounts live on the transaction row). */
export interface QuotesTable {
  id: string;
  platform_id: string;
  environment: string;
  transaction_id: string;
  customer_id: string | null;
  funding: string;
  locked_side: string;
  locked_amount: bigint;
  purpose_of_payment: string | null;
  sender_customer_info: string | null;
  lookup_id: string | null;
  expires_at: string;
  created_at: string;
}

/** One status change of a transaction, with its time and cause (rule 2). */
export interface TransactionHistoryTable {
  id: string;
  platform_id: string;
  environment: string;
  transaction_id: string;
  from_status: string | null;
  to_status: string;
  cause: string;
  created_at: string;
}

/** A receiver lookup (GET /receiver/...): what the receiver accepts, valid until expires_at. */
export interface ReceiverLookupsTable {
  id: string;
  platform_id: string;
  environment: string;
  /** UMA | EXTERNAL_ACCOUNT */
  kind: string;
  uma_address: string | null;
  external_account_id: string | null;
  /** the receiver when hosted by this Corridor (possibly another platform); never shown to the caller */
  receiver_platform_id: string | null;
  receiver_customer_id: string | null;
  sending_currency: string;
  /** JSON [{code, minAmount, maxAmount}] (receiving minor units; null: no limit) */
  supported_currencies: string;
  /** JSON ["FULL_NAME", ...] */
  required_payer_data_fields: string;
  expires_at: string;
  created_at: string;
}

/** What an INCOMING transaction of a UMA payment needs beyond its transactions row. */
export interface IncomingPaymentsTable {
  /** the receiver's INCOMING transaction */
  transaction_id: string;
  platform_id: string;
  environment: string;
  /** LOCAL (a UMA payment of a platform hosted here) | SANDBOX (POST /sandbox/uma/receive) */
  origin: string;
  receiver_uma_address: string;
  sender_uma_address: string | null;
  /** the sender's platform and OUTGOING transaction when the sender is hosted here */
  sender_platform_id: string | null;
  sender_transaction_id: string | null;
  approval_required: number | bigint;
  /** JSON ["FULL_NAME", ...]: requestedReceiverCustomerInfoFields of the approval webhook */
  requested_fields: string;
  approval_deadline: string | null;
  /** the webhook delivery of the approval request (PAYMENT_APPROVAL_WEBHOOK_ERROR when it never arrived) */
  approval_delivery_id: string | null;
  receiver_customer_info: string | null;
  rejection_reason: string | null;
  /** the customer's default UMA deposit account the funds were paid out to, and that payout's transaction */
  deposit_account_id: string | null;
  deposit_transaction_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Maintained counts of unfiltered lists, spread over a few slots (db/counters.ts). */
export interface ListCountsTable {
  platform_id: string;
  environment: string;
  list: string;
  slot: number;
  n: bigint;
}

export interface DB {
  platforms: PlatformsTable;
  platform_configs: PlatformConfigsTable;
  tokens: TokensTable;
  customers: CustomersTable;
  beneficial_owners: BeneficialOwnersTable;
  documents: DocumentsTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  system_settings: SystemSettingsTable;
  webhook_keys: WebhookKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_journals: LedgerJournalsTable;
  ledger_transfers: LedgerTransfersTable;
  internal_accounts: InternalAccountsTable;
  external_accounts: ExternalAccountsTable;
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  transactions: TransactionsTable;
  quotes: QuotesTable;
  transaction_history: TransactionHistoryTable;
  receiver_lookups: ReceiverLookupsTable;
  incoming_payments: IncomingPaymentsTable;
  list_counts: ListCountsTable;
}

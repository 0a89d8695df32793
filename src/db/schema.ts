/**
 * Row types of every table. Conventions, the same on SQLite and PostgreSQL:
 * - ids are text `<Type>:<uuid v7>`; timestamps are ISO-8601 UTC text of fixed width (sortable);
 * - integers are 64-bit and read back as bigint; booleans are integers 0/1 (see db/values.ts);
 * - structured values (addresses, lists) are JSON text.
 */
import type {
  PlatformsTable,
  PlatformConfigsTable,
  TokensTable,
  CustomersTable,
  IdempotencyKeysTable,
  JobsTable,
  SystemSettingsTable,
  ListCountsTable,
  SandboxClocksTable,
} from './tables/foundation.js';
import type { BeneficialOwnersTable, DocumentsTable } from './tables/onboarding.js';
import type { WebhookKeysTable, WebhookEventsTable, WebhookDeliveriesTable, WebhookAttemptsTable } from './tables/webhooks.js';
import type {
  LedgerAccountsTable,
  LedgerDeltasTable,
  LedgerJournalsTable,
  LedgerTransfersTable,
  InternalAccountsTable,
  ExternalAccountsTable,
} from './tables/accounts.js';
import type { DashboardUsersTable, DashboardSessionsTable } from './tables/dashboard.js';
import type { TransactionsTable, QuotesTable, TransactionHistoryTable, ReceiverLookupsTable, IncomingPaymentsTable } from './tables/payments.js';
import type { AuditLogTable } from './tables/operations.js';
import type { UmaInvitationsTable, CustomerImportsTable, CustomerImportRowsTable, KycLinksTable } from './tables/invitations.js';
import type { BankCredentialsTable } from './tables/bank.js';
import type {
  BankPayoutsTable,
  BankFilesTable,
  BankInboundFilesTable,
  BankStatementEntriesTable,
  BankBalancesTable,
  BankExceptionsTable,
} from './tables/bank-rails.js';

export type {
  PlatformsTable,
  PlatformConfigsTable,
  TokensTable,
  CustomersTable,
  IdempotencyKeysTable,
  JobsTable,
  SystemSettingsTable,
  ListCountsTable,
  SandboxClocksTable,
} from './tables/foundation.js';
export type { BeneficialOwnersTable, DocumentsTable } from './tables/onboarding.js';
export type { WebhookKeysTable, WebhookEventsTable, WebhookDeliveriesTable, WebhookAttemptsTable } from './tables/webhooks.js';
export type {
  LedgerAccountsTable,
  LedgerDeltasTable,
  LedgerJournalsTable,
  LedgerTransfersTable,
  InternalAccountsTable,
  ExternalAccountsTable,
} from './tables/accounts.js';
export type { DashboardUsersTable, DashboardSessionsTable } from './tables/dashboard.js';
export type { TransactionsTable, QuotesTable, TransactionHistoryTable, ReceiverLookupsTable, IncomingPaymentsTable } from './tables/payments.js';
export type { AuditLogTable } from './tables/operations.js';
export type { BankCredentialsTable } from './tables/bank.js';

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
  sandbox_clocks: SandboxClocksTable;
  webhook_keys: WebhookKeysTable;
  webhook_p256_keys: WebhookKeysTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_deltas: LedgerDeltasTable;
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
  audit_log: AuditLogTable;
  uma_invitations: UmaInvitationsTable;
  customer_imports: CustomerImportsTable;
  customer_import_rows: CustomerImportRowsTable;
  kyc_links: KycLinksTable;
  bank_credentials: BankCredentialsTable;
  bank_payouts: BankPayoutsTable;
  bank_files: BankFilesTable;
  bank_inbound_files: BankInboundFilesTable;
  bank_statement_entries: BankStatementEntriesTable;
  bank_balances: BankBalancesTable;
  bank_exceptions: BankExceptionsTable;
}

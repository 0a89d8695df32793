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

export interface SystemSettingsTable {
  key: string;
  value: string;
}

export interface DB {
  platforms: PlatformsTable;
  platform_configs: PlatformConfigsTable;
  tokens: TokensTable;
  customers: CustomersTable;
  idempotency_keys: IdempotencyKeysTable;
  jobs: JobsTable;
  system_settings: SystemSettingsTable;
}

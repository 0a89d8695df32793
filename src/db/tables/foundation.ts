/** Row types: platforms, tokens, customers, idempotency, jobs, settings, list counts (conventions in db/schema.ts). */
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
  /** CORRIDOR (the spec's names) or GRID (the vendor's names and webhook format); src/modules/config/grid-profile.ts */
  compatibility?: string;
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
  /** the token stops working at this time; null: never (migration 101) */
  expires_at?: string | null;
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
  /** when the job failed its JOB_MAX_ATTEMPTS-th time (migration 400); a dead job is not claimed until an operator retries it */
  dead_at: string | null;
}

/** A platform's sandbox clock (migration 300): sandbox time = frozen_at_ms ?? real time + offset_ms. */
export interface SandboxClocksTable {
  platform_id: string;
  offset_ms: number | bigint | string;
  frozen_at_ms: number | bigint | string | null;
  updated_at: string;
}

export interface SystemSettingsTable {
  key: string;
  value: string;
}

/** Maintained counts of unfiltered lists, spread over a few slots (db/counters.ts). */
export interface ListCountsTable {
  platform_id: string;
  environment: string;
  list: string;
  slot: number;
  n: bigint;
}

/** Row types: signing keys, the outbox, deliveries and attempts (conventions in db/schema.ts). */
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
  /** CORRIDOR | GRID: the webhook format of every attempt (src/events/format.ts); null: CORRIDOR */
  format?: string | null;
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

/**
 * Webhook event types and delivery statuses. Each issue that emits events adds its type here;
 * the delivery log filter and docs/webhooks.md list the same values.
 */
export const EVENT_TYPES = ['OUTGOING_PAYMENT', 'INCOMING_PAYMENT', 'CUSTOMER', 'INVITATION', 'BULK_UPLOAD', 'TEST'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * PENDING: attempts go on (or wait for an earlier event of the same transaction).
 * DELIVERED: a 2xx came back. FAILED: the 3-day schedule ran out (or a test webhook failed).
 * NO_ENDPOINT: no webhookEndpoint was configured, so nothing was sent; resend after configuring one.
 */
export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED', 'NO_ENDPOINT'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The job kind of one delivery (db/jobs.ts). */
export const DELIVER_JOB = 'webhook.deliver';

/** Limits of one attempt (rule 7). */
export const ATTEMPT_TIMEOUT_MS = 10_000;
export const RESPONSE_BODY_MAX_BYTES = 4_096;
/** Lease of a claimed delivery: longer than DNS (5 s) plus the request (10 s), so a live node keeps it. */
export const DELIVERY_LEASE_MS = 60_000;

/**
 * Job subjects are shared by every job kind, and db/jobs.ts runs a subject's jobs one at a time.
 * Webhook jobs use their own namespace so a payment timer on the same transaction (minutes
 * away) never holds up its webhooks, and the reverse.
 */
export function deliverySubject(subject: string | null): string | undefined {
  return subject === null ? undefined : `webhook:${subject}`;
}

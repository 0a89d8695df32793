import type { AttemptRow, DeliveryRow, EventRow } from '../../events/store.js';
import type { DeliveryStatus } from '../../events/types.js';

const intOrNull = (v: number | bigint | null) => (v === null ? null : Number(v));

export function attemptView(a: AttemptRow) {
  return {
    attemptNumber: Number(a.attempt_number),
    attemptedAt: a.attempted_at,
    url: a.url,
    statusCode: intOrNull(a.status_code),
    latencyMs: intOrNull(a.latency_ms),
    error: a.error,
    responseBody: a.response_body,
  };
}

/** Delivery row (+ its event and attempts) → the delivery log entry. */
export function deliveryView(d: DeliveryRow, event: EventRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    webhookId: d.event_id,
    type: d.event_type,
    transactionId: d.subject,
    status: d.status as DeliveryStatus,
    url: d.url,
    attemptCount: Number(d.attempt_count),
    nextAttemptAt: d.next_attempt_at,
    deliveredAt: d.delivered_at,
    resendOf: d.resend_of,
    createdAt: d.created_at,
    updatedAt: d.updated_at,
    event: JSON.parse(event.body) as Record<string, unknown>,
    attempts: attempts.map(attemptView),
  };
}

import { absent } from '../../common/absent.js';
import type { AttemptRow, DeliveryRow, EventRow } from '../../events/store.js';
import type { DeliveryStatus } from '../../events/types.js';

const intOrNull = (v: number | bigint | null) => (v === null ? null : Number(v));

/** Characters of a receiver's answer that Corridor shows back to the platform. */
export const ANSWER_EXCERPT_CHARS = 256;

/**
 * What a platform sees of a receiver's answer: a short excerpt, and only when the receiver
 * answered 2xx. A webhook URL can point anywhere the guard allows, so echoing the body of any
 * answer would turn the test endpoint into a way to read other services (an error page, a
 * status page); a receiver that accepted the event is one that speaks the webhook protocol.
 */
export function answerExcerpt(statusCode: number | bigint | null, body: string | null): string | null {
  const status = intOrNull(statusCode);
  if (body === null || status === null || status < 200 || status > 299) return null;
  return body.slice(0, ANSWER_EXCERPT_CHARS);
}

export function attemptView(a: AttemptRow) {
  return absent({
    attemptNumber: Number(a.attempt_number),
    attemptedAt: a.attempted_at,
    url: a.url,
    statusCode: intOrNull(a.status_code),
    latencyMs: intOrNull(a.latency_ms),
    error: a.error,
    responseBody: answerExcerpt(a.status_code, a.response_body),
  });
}

/** Delivery row (+ its event and attempts) → the delivery log entry; `event` is the body exactly as sent. */
export function deliveryView(d: DeliveryRow, event: EventRow, attempts: AttemptRow[]) {
  const entry = absent({
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
    attempts: attempts.map(attemptView),
  });
  return { ...entry, event: JSON.parse(event.body) as Record<string, unknown> };
}

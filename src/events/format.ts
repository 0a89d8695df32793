/**
 * The bytes and headers of one webhook attempt, in the format of the platform's profile
 * (PATCH /config `compatibility`, src/modules/config/grid-profile.ts):
 *
 *   CORRIDOR  the stored body as is, X-Corridor-Signature (Ed25519, decision D7)
 *   GRID      the vendor's envelope {id, type: "<OBJECT>.<EVENT>", timestamp, data}, data in the
 *             vendor's names, X-Grid-Signature {"v":"1","s":"<base64 ECDSA P-256 / SHA-256>"}
 *
 * The stored event body (webhook_events.body) stays the spec's: the delivery log shows it, and
 * a resend under another profile can still be made from it. A delivery keeps the format it was
 * made with (webhook_deliveries.format), so its retries send the same shape.
 */
import type { Scope } from '../common/scope.js';
import { gridShape, profileOf, type CompatibilityProfile } from '../modules/config/grid-profile.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import { GRID_SIGNATURE_HEADER } from './grid-signing.js';
import type { WebhookKeys } from './keys.js';
import { SIGNATURE_HEADER } from './signing.js';

export type WebhookFormat = CompatibilityProfile;

/** Signs the exact bytes sent: WebhookSigner (Ed25519) or GridSigner (P-256). */
export interface AttemptSigner {
  header(rawBody: string, nowSeconds: number): string;
}

/** The format a delivery row was made with (older rows: CORRIDOR). */
export function deliveryFormat(row: { format?: string | null }): WebhookFormat {
  return row.format === 'GRID' ? 'GRID' : 'CORRIDOR';
}

/** The status an event's object is in: a transaction's, a customer's KYC, an invitation's, a bulk job's. */
type EventObjects = {
  transaction?: { status?: unknown; refund?: { status?: unknown } | null };
  customer?: { kycStatus?: unknown };
  invitation?: { status?: unknown };
  job?: { status?: unknown };
};

/** The vendor's event name: OUTGOING_PAYMENT.COMPLETED, INCOMING_PAYMENT.PENDING, CUSTOMER.KYC_APPROVED, TEST… */
export function gridEventType(type: string, objects: EventObjects = {}): string {
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  if (type === 'CUSTOMER') {
    const kyc = text(objects.customer?.kycStatus);
    return kyc === undefined ? type : `${type}.KYC_${kyc}`;
  }
  if (type === 'INVITATION' || type === 'BULK_UPLOAD') {
    const status = text((type === 'INVITATION' ? objects.invitation : objects.job)?.status);
    return status === undefined ? type : `${type}.${status}`;
  }
  const transaction = objects.transaction;
  const status = text(transaction?.status);
  if (status === undefined) return type;
  if (type === 'INCOMING_PAYMENT') {
    // The vendor's incoming events are PENDING, COMPLETED and FAILED; a rejected payment did not arrive.
    return `${type}.${status === 'PENDING' || status === 'CREATED' ? 'PENDING' : status === 'COMPLETED' ? 'COMPLETED' : 'FAILED'}`;
  }
  if (type === 'OUTGOING_PAYMENT') {
    if (status === 'CREATED') return `${type}.PENDING`;
    if (status === 'REJECTED') return `${type}.FAILED`;
    if (status === 'REFUNDED') return `${type}.REFUND_${text(transaction?.refund?.status) ?? 'COMPLETED'}`;
  }
  return `${type}.${status}`;
}

/** The vendor's envelope around a stored (spec) event body, stamped with the attempt's time. */
export function gridEnvelope(storedBody: string, now: Date): Record<string, unknown> {
  const { type, webhookId, timestamp: _created, ...payload } = JSON.parse(storedBody) as Record<string, unknown> & { type: string; webhookId: string };
  let data: Record<string, unknown>;
  if (payload.transaction !== undefined) {
    const { transaction, requestedReceiverCustomerInfoFields, ...rest } = payload as {
      transaction: Record<string, unknown>;
      requestedReceiverCustomerInfoFields?: unknown;
    };
    data = gridShape({ ...transaction, ...rest }) as Record<string, unknown>;
    // The vendor's CounterpartyFieldDefinition: every field asked for is mandatory.
    if (Array.isArray(requestedReceiverCustomerInfoFields) && requestedReceiverCustomerInfoFields.length > 0) {
      data.requestedReceiverCustomerInfoFields = requestedReceiverCustomerInfoFields.map((name) => ({ name, mandatory: true }));
    }
  } else {
    // TEST and any event without a transaction: its members, as data.
    data = gridShape(Object.assign({}, ...Object.values(payload).filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)))) as Record<
      string,
      unknown
    >;
  }
  return {
    id: webhookId,
    type: gridEventType(type, payload as EventObjects),
    // When this attempt was sent: the vendor's signature covers the body only, so this is what a receiver checks for age.
    timestamp: now.toISOString(),
    data,
  };
}

/** One attempt's body and headers: pure, given the signer of the format. */
export function formatDelivery(format: WebhookFormat, storedBody: string, signer: AttemptSigner, now: Date): { body: string; headers: Record<string, string> } {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (format === 'CORRIDOR') return { body: storedBody, headers: { [SIGNATURE_HEADER]: signer.header(storedBody, nowSeconds) } };
  const body = JSON.stringify(gridEnvelope(storedBody, now));
  return { body, headers: { [GRID_SIGNATURE_HEADER]: signer.header(body, nowSeconds) } };
}

/**
 * The attempt's body and headers with this scope's key: in `format`, or (a test event, made and
 * attempted at once) in the platform's current profile.
 */
export async function preparedDelivery(
  deps: { keys: WebhookKeys; configs?: Pick<ConfigCache, 'get'> },
  scope: Scope,
  storedBody: string,
  format: WebhookFormat | undefined,
  now: Date,
) {
  const as = format ?? (deps.configs ? profileOf(await deps.configs.get(scope)) : 'CORRIDOR');
  const signer: AttemptSigner = as === 'GRID' ? await deps.keys.gridSigner(scope) : await deps.keys.signer(scope);
  return formatDelivery(as, storedBody, signer, now);
}

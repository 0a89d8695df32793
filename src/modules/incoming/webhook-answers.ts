/**
 * The vendor's synchronous answers to an approval request, for platforms on the GRID profile: the
 * receiver's reply to the INCOMING_PAYMENT.PENDING webhook decides the payment.
 *
 *   200  approves; `receiverCustomerInfo` in the reply body supplies the requested fields
 *   403  rejects (REJECTED; the body's `reason`, else its `message`, is kept)
 *   422  asks for payer fields (`requiredFields`): the payment fails, PAY_REQUEST_FAILED
 *   202  (or any other 2xx) accepted: approve or reject later by API, as under CORRIDOR
 *
 * 403 and 422 are answers, not failures: the delivery counts as delivered and is not retried.
 * An answer that cannot be applied (the window closed, the payment already answered by API, a 200
 * without the requested fields) changes nothing; the attempt's error says why, and the payment
 * waits for the API or its deadline. CORRIDOR deliveries and every other event are left alone.
 */
import { ApiError } from '../../common/errors.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { deliveryFormat } from '../../events/format.js';
import type { DeliveryRow } from '../../events/store.js';
import type { AttemptOutcome } from '../../events/worker.js';
import { fromDbBool } from '../../db/values.js';
import type { IncomingService } from './service.js';

const ANSWERS = new Set([200, 403, 422]);
const MAX_INFO_MEMBERS = 50;

/** The reply body as an object, or {} when it is not JSON. */
function replyBody(text: string | null): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? '') as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** receiverCustomerInfo as the approve route takes it: text, number or boolean values only. */
function customerInfo(v: unknown): Record<string, string | number | boolean> | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const entries = Object.entries(v)
    .filter(([k, x]) => k.length <= 64 && (typeof x === 'number' || typeof x === 'boolean' || (typeof x === 'string' && x.length <= 500)))
    .slice(0, MAX_INFO_MEMBERS);
  return Object.fromEntries(entries) as Record<string, string | number | boolean>;
}

const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);

export function createWebhookAnswers(deps: {
  db: Database;
  service: Pick<IncomingService, 'approve' | 'reject' | 'requireFields'>;
  /** Runs on the scope's clock (a sandbox platform's time), as the approval window is measured. */
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
}) {
  const { db, service } = deps;

  /** The transaction whose approval request this delivery carries (the first delivery or a resend), if it still waits. */
  async function awaitingPayment(scope: Scope, delivery: DeliveryRow): Promise<string | undefined> {
    if (delivery.subject === null) return undefined;
    const row = await db
      .executor()
      .selectFrom('incoming_payments as i')
      .innerJoin('webhook_deliveries as d', 'd.id', 'i.approval_delivery_id')
      .select(['i.transaction_id', 'i.approval_required', 'd.event_id'])
      .where('i.transaction_id', '=', delivery.subject)
      .where('i.platform_id', '=', scope.platformId)
      .where('i.environment', '=', scope.environment)
      .executeTakeFirst();
    if (!row || !fromDbBool(row.approval_required) || row.event_id !== delivery.event_id) return undefined;
    return row.transaction_id;
  }

  /** What the worker records for this attempt, after acting on the answer when it is one. */
  return async function answer(scope: Scope, delivery: DeliveryRow, outcome: AttemptOutcome): Promise<AttemptOutcome> {
    if (deliveryFormat(delivery) !== 'GRID' || delivery.event_type !== 'INCOMING_PAYMENT') return outcome;
    if (outcome.statusCode === null || !ANSWERS.has(outcome.statusCode)) return outcome;
    const transactionId = await awaitingPayment(scope, delivery);
    if (!transactionId) return outcome;
    const body = replyBody(outcome.responseBody);
    const act = async () => {
      if (outcome.statusCode === 200) return service.approve(scope, transactionId, { receiverCustomerInfo: customerInfo(body.receiverCustomerInfo) });
      if (outcome.statusCode === 403)
        return service.reject(scope, transactionId, {
          reason: text(body.reason, 500) ?? text(body.message, 500) ?? 'refused by the approval webhook answer (403)',
        });
      const fields = Array.isArray(body.requiredFields)
        ? body.requiredFields
            .filter((f): f is string => typeof f === 'string')
            .map((f) => f.slice(0, 64))
            .slice(0, MAX_INFO_MEMBERS)
        : [];
      return service.requireFields(scope, transactionId, fields);
    };
    // An answer is delivered, whatever it says; only a failure to apply it is noted.
    const answered = { ...outcome, ok: true };
    try {
      await (deps.within ? deps.within(scope, act) : act());
      return answered;
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return { ...answered, error: `answer not applied: ${e.code}: ${e.message}` };
    }
  };
}

export type WebhookAnswers = ReturnType<typeof createWebhookAnswers>;

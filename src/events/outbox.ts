/**
 * The outbox (ARCHITECTURE: "one database transaction holding the state change ... the outbox
 * event and any job"). emit() writes the event, its delivery and the delivery job in the
 * caller's transaction: a committed change always gets its webhook, a rolled-back one never does.
 * The network is touched only later, by the delivery worker.
 */
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { Scope } from '../common/scope.js';
import type { Executor } from '../db/database.js';
import type { JobQueue } from '../db/jobs.js';
import { webhookStore, type DeliveryRow, type EventRow } from './store.js';
import { DELIVER_JOB, deliverySubject, type DeliveryStatus, type EventType } from './types.js';

export interface EmitInput {
  type: EventType;
  /** The object the event reports, e.g. the Transaction id: its events are delivered in emit order. */
  subject?: string;
  /** The rest of the body, e.g. `{ transaction }` (amounts as numbers, as the API shows them). */
  payload: Record<string, unknown>;
}

export interface Emitted {
  webhookId: string;
  deliveryId: string;
  status: DeliveryStatus;
}

const RESERVED_KEYS = ['type', 'webhookId', 'timestamp'];

/** JSON with bigint allowed where it is exact (API amounts are below 2^53). */
export function serialiseBody(body: Record<string, unknown>): string {
  return JSON.stringify(body, (_key, value: unknown) => {
    if (typeof value !== 'bigint') return value;
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw new RangeError(`bigint ${value} does not fit a JSON number exactly`);
    return Number(value);
  });
}

export function createOutbox(deps: { clock: Clock; jobs: JobQueue }) {
  const { clock, jobs } = deps;

  /** The configured endpoint of the scope, read in the caller's transaction. */
  async function endpointOf(trx: Executor, scope: Scope): Promise<string | null> {
    const row = await trx
      .selectFrom('platform_configs')
      .select('webhook_endpoint')
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return row?.webhook_endpoint ?? null;
  }

  /** An event row, not yet stored; the body is serialised here, once. */
  function buildEvent(scope: Scope, input: EmitInput): EventRow {
    for (const key of RESERVED_KEYS) if (key in input.payload) throw new Error(`event payload must not set ${key}`);
    const now = clock.now().toISOString();
    const id = newId('Webhook');
    return {
      id,
      platform_id: scope.platformId,
      environment: scope.environment,
      type: input.type,
      subject: input.subject ?? null,
      body: serialiseBody({ type: input.type, webhookId: id, timestamp: now, ...input.payload }),
      created_at: now,
    };
  }

  /**
   * A delivery of an event. A PENDING delivery gets a job (subject: the event's subject, so one
   * transaction's events are attempted in order) unless the caller attempts it itself (enqueue
   * false); without a target it is NO_ENDPOINT and gets no job.
   */
  async function addDelivery(trx: Executor, event: Pick<EventRow, 'id' | 'platform_id' | 'environment' | 'type' | 'subject'>, opts: { url: string | null; hasTarget: boolean; resendOf?: string; enqueue?: boolean }): Promise<DeliveryRow> {
    const now = clock.now().toISOString();
    const row: DeliveryRow = {
      id: newId('Delivery'),
      platform_id: event.platform_id,
      environment: event.environment,
      event_id: event.id,
      event_type: event.type,
      subject: event.subject,
      url: opts.url,
      status: opts.hasTarget ? 'PENDING' : 'NO_ENDPOINT',
      attempt_count: 0,
      last_status_code: null,
      last_error: opts.hasTarget ? null : 'no webhookEndpoint configured',
      next_attempt_at: opts.hasTarget && opts.enqueue !== false ? now : null,
      delivered_at: null,
      resend_of: opts.resendOf ?? null,
      created_at: now,
      updated_at: now,
    };
    await webhookStore.insertDelivery(trx, row);
    if (row.status === 'PENDING' && opts.enqueue !== false) {
      await jobs.enqueue(trx, { kind: DELIVER_JOB, subject: deliverySubject(event.subject), payload: { deliveryId: row.id } });
    }
    return row;
  }

  return {
    endpointOf,
    buildEvent,
    addDelivery,

    /**
     * Records an event for webhook delivery inside the caller's transaction `trx`:
     *   await events.emit(trx, scope, { type: 'OUTGOING_PAYMENT', subject: tx.id, payload: { transaction } })
     * With no webhookEndpoint configured the event is still stored (status NO_ENDPOINT, visible
     * in the delivery log, resendable once an endpoint exists) and nothing is sent.
     */
    async emit(trx: Executor, scope: Scope, input: EmitInput): Promise<Emitted> {
      const event = buildEvent(scope, input);
      await webhookStore.insertEvent(trx, event);
      const endpoint = await endpointOf(trx, scope);
      const delivery = await addDelivery(trx, event, { url: null, hasTarget: endpoint !== null });
      return { webhookId: event.id, deliveryId: delivery.id, status: delivery.status as DeliveryStatus };
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

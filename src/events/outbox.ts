/**
 * The outbox (ARCHITECTURE: "one database transaction holding the state change ... the outbox
 * event and any job"). emit() writes the event, its delivery and the delivery job in the
 * caller's transaction: a committed change always gets its webhook, a rolled-back one never does.
 * The network is touched only later, by the delivery worker.
 */
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { Scope } from '../common/scope.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../db/jobs.js';
import { multiRowInsert } from '../db/statements.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import type { DeliveryRow, EventRow } from './store.js';
import { DELIVER_JOB, deliverySubject, type DeliveryStatus, type EventType } from './types.js';
import { profileOf } from '../modules/config/grid-profile.js';
import type { WebhookFormat } from './format.js';

const scopeOf = (row: { platform_id: string; environment: string }): Scope => ({
  platformId: row.platform_id,
  environment: row.environment as Scope['environment'],
});

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

const exactNumber = (_key: string, value: unknown) => {
  if (typeof value !== 'bigint') return value;
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
    throw new RangeError(`bigint ${value} does not fit a JSON number exactly`);
  return Number(value);
};

/**
 * JSON with bigint allowed where it is exact (API amounts are below 2^53). The views events carry
 * hold numbers already, so the replacer (which takes V8 off its fast path: a tenth of an event's
 * cost) runs only for a body JSON.stringify refused, i.e. one holding a bigint.
 */
export function serialiseBody(body: Record<string, unknown>): string {
  try {
    return JSON.stringify(body);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(body, exactNumber);
  }
}

const EVENT_COLUMNS = ['id', 'platform_id', 'environment', 'type', 'subject', 'body', 'created_at'] as const;
const DELIVERY_COLUMNS = [
  'id',
  'platform_id',
  'environment',
  'event_id',
  'event_type',
  'subject',
  'url',
  'status',
  'attempt_count',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'delivered_at',
  'resend_of',
  'created_at',
  'updated_at',
  'format',
] as const;
const insertEvents = multiRowInsert('webhook_events', EVENT_COLUMNS);
const insertDeliveries = multiRowInsert('webhook_deliveries', DELIVERY_COLUMNS);

export function createOutbox(deps: { db: Database; clock: Clock; jobs: JobQueue; configs: ConfigCache }) {
  const { db, clock, jobs } = deps;

  /** The configured endpoint of the scope (from the configuration cache: PATCH /config refreshes it). */
  async function endpointOf(scope: Scope): Promise<string | null> {
    return (await deps.configs.get(scope)).webhook_endpoint ?? null;
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
   * Deliveries of events, in one statement. A PENDING delivery gets a job (subject: the event's
   * subject, so one transaction's events are attempted in order) unless the caller attempts it
   * itself (enqueue false); without a target it is NO_ENDPOINT and gets no job.
   */
  async function addDeliveries(
    events: Array<Pick<EventRow, 'id' | 'platform_id' | 'environment' | 'type' | 'subject'>>,
    opts: { url: string | null; hasTarget: boolean; resendOf?: string; enqueue?: boolean; format?: WebhookFormat },
  ): Promise<DeliveryRow[]> {
    const now = clock.now().toISOString();
    // The platform's profile when the delivery is made fixes its format for every attempt (format.ts).
    const format = opts.format ?? (events.length ? profileOf(await deps.configs.get(scopeOf(events[0]))) : 'CORRIDOR');
    const rows: DeliveryRow[] = events.map((event) => ({
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
      format,
    }));
    await db.append(
      insertDeliveries(rows.length),
      rows.flatMap((r) => DELIVERY_COLUMNS.map((c) => r[c])),
    );
    if (opts.hasTarget && opts.enqueue !== false) {
      // The payload names the platform and environment, so a sandbox clock finds its retries (src/modules/sandbox/clock-service.ts).
      await jobs.enqueue(
        ...rows.map((r) => ({
          kind: DELIVER_JOB,
          subject: deliverySubject(r.subject),
          payload: { deliveryId: r.id, platformId: r.platform_id, environment: r.environment },
        })),
      );
    }
    return rows;
  }

  /**
   * Records events for webhook delivery inside the caller's transaction, in order, one statement
   * per table. With no webhookEndpoint configured the events are still stored (status
   * NO_ENDPOINT, visible in the delivery log, resendable once an endpoint exists) and nothing is sent.
   */
  async function emitAll(scope: Scope, inputs: EmitInput[]): Promise<Emitted[]> {
    const events = inputs.map((input) => buildEvent(scope, input));
    await db.append(
      insertEvents(events.length),
      events.flatMap((e) => EVENT_COLUMNS.map((c) => e[c])),
    );
    const config = await deps.configs.get(scope);
    const deliveries = await addDeliveries(events, { url: null, hasTarget: (config.webhook_endpoint ?? null) !== null, format: profileOf(config) });
    return events.map((e, i) => ({ webhookId: e.id, deliveryId: deliveries[i].id, status: deliveries[i].status as DeliveryStatus }));
  }

  return {
    endpointOf,
    buildEvent,
    /** One delivery of an event (a test event, a resend). */
    addDelivery: async (
      event: Pick<EventRow, 'id' | 'platform_id' | 'environment' | 'type' | 'subject'>,
      opts: { url: string | null; hasTarget: boolean; resendOf?: string; enqueue?: boolean },
    ) => (await addDeliveries([event], opts))[0],
    emitAll,
    /** One event, inside the caller's transaction: `await events.emit(scope, { type: 'OUTGOING_PAYMENT', subject: tx.id, payload: { transaction } })`. */
    emit: async (scope: Scope, input: EmitInput): Promise<Emitted> => (await emitAll(scope, [input]))[0],
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

import { absent } from '../../common/absent.js';
import { invalidField } from '../../common/errors.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import type { Outbox } from '../../events/outbox.js';
import { webhookStore, type DeliveryFilters, type DeliveryRow } from '../../events/store.js';
import type { DeliveryWorker } from '../../events/worker.js';
import { checkWebhookTarget } from '../config/service.js';
import { webhookErrors } from './errors.js';
import type { WebhookTest } from './schemas.js';
import { answerExcerpt, deliveryView } from './view.js';

export interface WebhookServiceDeps {
  db: Database;
  cursors: Cursors;
  outbox: Outbox;
  worker: DeliveryWorker;
}

export function createWebhookService(deps: WebhookServiceDeps) {
  const { db, outbox, worker } = deps;

  /** Log entries for delivery rows: their events and attempts in two queries, not one per row. */
  async function views(scope: Scope, rows: DeliveryRow[]) {
    const ex = db.executor();
    const [events, attempts] = await Promise.all([
      webhookStore.eventsOf(ex, scope, [...new Set(rows.map((r) => r.event_id))]),
      webhookStore.attemptsOf(
        ex,
        scope,
        rows.map((r) => r.id),
      ),
    ]);
    const eventById = new Map(events.map((e) => [e.id, e]));
    return rows.map((r) => {
      const event = eventById.get(r.event_id);
      if (!event) throw new Error(`delivery ${r.id} has no event`);
      return deliveryView(
        r,
        event,
        attempts.filter((a) => a.delivery_id === r.id),
      );
    });
  }

  async function find(scope: Scope, id: string): Promise<DeliveryRow> {
    const row = await webhookStore.delivery(db.executor(), scope, id);
    if (!row) throw webhookErrors.DELIVERY_NOT_FOUND({ deliveryId: id });
    return row;
  }

  return {
    /**
     * POST /webhooks/test: one signed TEST event, attempted now, answered with what happened.
     * Never inside a transaction (it waits on the network); its log entry is written after
     * the attempt, in one transaction, so a crash leaves no half-made delivery behind.
     */
    async sendTest(scope: Scope, input: WebhookTest) {
      const url = input.url ?? (await outbox.endpointOf(scope));
      if (url === null) throw invalidField('url', 'is required when no webhookEndpoint is configured (PATCH /config)');
      const check = await checkWebhookTarget(worker, url, scope, 'url');
      const event = outbox.buildEvent(scope, {
        type: 'TEST',
        payload: { test: { message: 'Test webhook from Corridor: verify the signature and answer 2xx', environment: scope.environment } },
      });
      const outcome = await worker.attempt(scope, url, event.body, check);
      const delivery = await db.tx(async (trx) => {
        await webhookStore.insertEvent(trx, event);
        const row = await outbox.addDelivery(event, { url, hasTarget: true, enqueue: false });
        // A test is one attempt, not a retry schedule: a failure is final (resend to try again).
        await worker.recordAttempt(trx, row, outcome, outcome.ok ? {} : { status: 'FAILED', next_attempt_at: null });
        return row;
      });
      return absent({
        deliveryId: delivery.id,
        webhookId: event.id,
        url,
        delivered: outcome.ok,
        statusCode: outcome.statusCode,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        responseBody: answerExcerpt(outcome.statusCode, outcome.responseBody),
      });
    },

    async get(scope: Scope, id: string) {
      return (await views(scope, [await find(scope, id)]))[0];
    },

    async list(scope: Scope, filters: DeliveryFilters, page: PageRequest) {
      const ex = db.executor();
      const result = await paginate({
        cursors: deps.cursors,
        request: page,
        scope: `webhook-deliveries|${scope.platformId}|${scope.environment}|${JSON.stringify(filters)}`,
        fetch: (after, n) => {
          let q = webhookStore.filtered(ex, scope, filters).selectAll();
          if (after) q = q.where('id', '<', after);
          return q.orderBy('id', 'desc').limit(n).execute();
        },
        count: async () =>
          toNumber(
            (
              await webhookStore
                .filtered(ex, scope, filters)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n as bigint,
          ),
        view: (row) => row,
      });
      return { ...result, data: await views(scope, result.data) };
    },

    /**
     * A new delivery of the same event (same webhookId, same bytes) with a fresh retry
     * schedule, to the same target as the original. The original entry stays as it was.
     */
    async resend(scope: Scope, id: string) {
      const row = await db.tx(async (trx) => {
        const original = await webhookStore.delivery(trx, scope, id);
        if (!original) throw webhookErrors.DELIVERY_NOT_FOUND({ deliveryId: id });
        if (original.status === 'PENDING') throw webhookErrors.DELIVERY_PENDING({ deliveryId: id });
        if (original.url === null && (await outbox.endpointOf(scope)) === null) throw webhookErrors.WEBHOOK_ENDPOINT_NOT_CONFIGURED();
        const event = await webhookStore.event(trx, original.event_id);
        if (!event) throw new Error(`delivery ${id} has no event`);
        return outbox.addDelivery(event, { url: original.url, hasTarget: true, resendOf: original.id });
      });
      return (await views(scope, [row]))[0];
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

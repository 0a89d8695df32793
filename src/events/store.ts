/** Queries of the webhook tables (outbox events, deliveries, attempts); no rules. */
import type { Scope } from '../common/scope.js';
import type { Executor } from '../db/database.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEventsTable } from '../db/schema.js';

export type EventRow = WebhookEventsTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

export interface DeliveryFilters {
  type?: string;
  transactionId?: string;
  status?: string;
}

export const webhookStore = {
  insertEvent(ex: Executor, row: EventRow) {
    return ex.insertInto('webhook_events').values(row).execute();
  },

  insertDelivery(ex: Executor, row: DeliveryRow) {
    return ex.insertInto('webhook_deliveries').values(row).execute();
  },

  event(ex: Executor, id: string) {
    return ex.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** By id alone (the worker serves every platform): the delivery, its event's body, the configured endpoint. */
  async deliveryForAttempt(ex: Executor, id: string): Promise<{ delivery: DeliveryRow; body: string; endpoint: string | null } | undefined> {
    const row = await ex
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoin('platform_configs as c', (join) => join.onRef('c.platform_id', '=', 'd.platform_id').onRef('c.environment', '=', 'd.environment'))
      .selectAll('d')
      .select(['e.body as event_body', 'c.webhook_endpoint as endpoint'])
      .where('d.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    const { event_body, endpoint, ...delivery } = row;
    return { delivery, body: event_body, endpoint: endpoint ?? null };
  },

  /** deliveryForAttempt for several deliveries in one query, by delivery id. */
  async deliveriesForAttempt(ex: Executor, ids: readonly string[]): Promise<Map<string, { delivery: DeliveryRow; body: string; endpoint: string | null }>> {
    const found = new Map<string, { delivery: DeliveryRow; body: string; endpoint: string | null }>();
    if (ids.length === 0) return found;
    const rows = await ex
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .leftJoin('platform_configs as c', (join) => join.onRef('c.platform_id', '=', 'd.platform_id').onRef('c.environment', '=', 'd.environment'))
      .selectAll('d')
      .select(['e.body as event_body', 'c.webhook_endpoint as endpoint'])
      .where('d.id', 'in', [...ids])
      .execute();
    for (const row of rows) {
      const { event_body, endpoint, ...delivery } = row;
      found.set(delivery.id, { delivery, body: event_body, endpoint: endpoint ?? null });
    }
    return found;
  },

  delivery(ex: Executor, scope: Scope, id: string) {
    return ex
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('id', '=', id)
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
  },

  updateDelivery(ex: Executor, id: string, changes: Partial<DeliveryRow>) {
    return ex.updateTable('webhook_deliveries').set(changes).where('id', '=', id).execute();
  },

  insertAttempt(ex: Executor, row: AttemptRow) {
    return ex.insertInto('webhook_attempts').values(row).execute();
  },

  attemptsOf(ex: Executor, scope: Scope, deliveryIds: string[]) {
    if (deliveryIds.length === 0) return Promise.resolve([] as AttemptRow[]);
    return ex
      .selectFrom('webhook_attempts')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('delivery_id')
      .orderBy('attempt_number')
      .execute();
  },

  eventsOf(ex: Executor, scope: Scope, eventIds: string[]) {
    if (eventIds.length === 0) return Promise.resolve([] as EventRow[]);
    return ex
      .selectFrom('webhook_events')
      .selectAll()
      .where('platform_id', '=', scope.platformId)
      .where('environment', '=', scope.environment)
      .where('id', 'in', eventIds)
      .execute();
  },

  filtered(ex: Executor, scope: Scope, f: DeliveryFilters) {
    let q = ex.selectFrom('webhook_deliveries').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment);
    if (f.type) q = q.where('event_type', '=', f.type);
    if (f.transactionId) q = q.where('subject', '=', f.transactionId);
    if (f.status) q = q.where('status', '=', f.status);
    return q;
  },
};

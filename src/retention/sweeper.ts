import { sql } from 'kysely';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import '../modules/uma/tables.js';

const DAY_MS = 86_400_000;

export interface RetentionSettings {
  /** Finished webhook deliveries, their attempts and the events no delivery needs any more; 0 keeps them. */
  webhookDays: number;
  /** Receiver lookups, counted from their expiry; 0 keeps them. */
  lookupDays: number;
  /** Rows removed by one statement (each in its own short transaction). */
  batchSize: number;
}

/** Rows removed by one pass, per table. */
export interface SweepResult {
  webhookAttempts: number;
  webhookDeliveries: number;
  webhookEvents: number;
  receiverLookups: number;
}

/**
 * Removes what only grows: webhook attempts, deliveries and events, and receiver lookups, once they
 * are older than their window. Each statement removes at most `batchSize` rows in its own short
 * transaction, so a payment never waits long behind it. Nothing still needed goes: a PENDING
 * delivery keeps its attempts, itself and its event (a retry needs the event's bytes), and an event
 * stays while any delivery of it remains. Every delete repeats its conditions, so a row that changed
 * between the pick and the delete stays.
 */
export function createRetentionSweeper(deps: { db: Database; clock: Clock; settings: RetentionSettings }) {
  const { db, clock, settings } = deps;
  const limit = settings.batchSize;
  const cutoff = (days: number) => new Date(clock.now().getTime() - days * DAY_MS).toISOString();

  /** Attempts of finished deliveries last changed before the cutoff. */
  async function attempts(before: string): Promise<number> {
    return db.tx(async (trx) => {
      const rows = await trx
        .selectFrom('webhook_attempts as a')
        .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
        .select(['a.delivery_id', 'a.attempt_number'])
        .where('d.updated_at', '<', before)
        .where('d.status', '!=', 'PENDING')
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      const result = await trx
        .deleteFrom('webhook_attempts')
        .where((eb) =>
          eb(
            eb.refTuple('delivery_id', 'attempt_number'),
            'in',
            rows.map((r) => eb.tuple(r.delivery_id, r.attempt_number)),
          ),
        )
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('webhook_deliveries as d')
              .select(sql`1`.as('x'))
              .whereRef('d.id', '=', 'webhook_attempts.delivery_id')
              .where('d.status', '!=', 'PENDING')
              .where('d.updated_at', '<', before),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Finished deliveries last changed before the cutoff, once their attempts are gone. */
  async function deliveries(before: string): Promise<number> {
    return db.tx(async (trx) => {
      const rows = await trx
        .selectFrom('webhook_deliveries as d')
        .select('d.id')
        .where('d.updated_at', '<', before)
        .where('d.status', '!=', 'PENDING')
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_attempts as a')
                .select(sql`1`.as('x'))
                .whereRef('a.delivery_id', '=', 'd.id'),
            ),
          ),
        )
        .orderBy('d.updated_at')
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      const result = await trx
        .deleteFrom('webhook_deliveries')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where('status', '!=', 'PENDING')
        .where('updated_at', '<', before)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_attempts as a')
                .select(sql`1`.as('x'))
                .whereRef('a.delivery_id', '=', 'webhook_deliveries.id'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Events older than the cutoff that no delivery refers to any more. */
  async function events(before: string): Promise<number> {
    return db.tx(async (trx) => {
      const rows = await trx
        .selectFrom('webhook_events as e')
        .select('e.id')
        .where('e.created_at', '<', before)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as d')
                .select(sql`1`.as('x'))
                .whereRef('d.event_id', '=', 'e.id'),
            ),
          ),
        )
        .orderBy('e.created_at')
        .limit(limit)
        .execute();
      if (rows.length === 0) return 0;
      const result = await trx
        .deleteFrom('webhook_events')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('webhook_deliveries as d')
                .select(sql`1`.as('x'))
                .whereRef('d.event_id', '=', 'webhook_events.id'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** Receiver lookups that expired before the cutoff (a quote keeps the lookup's id as text). */
  async function lookups(before: string): Promise<number> {
    return db.tx(async (trx) => {
      const rows = await trx.selectFrom('receiver_lookups').select('id').where('expires_at', '<', before).orderBy('expires_at').limit(limit).execute();
      if (rows.length === 0) return 0;
      // A remote lookup's verified terms (src/modules/uma) go with it.
      await trx
        .deleteFrom('uma_remote_lookups')
        .where(
          'lookup_id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      const result = await trx
        .deleteFrom('receiver_lookups')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .where('expires_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  return {
    /**
     * One batch of each kind, children before parents. True while any batch came back full (more
     * may remain), so a worker loop calls it again at once; false when the tables are swept.
     */
    async sweepOnce(): Promise<{ more: boolean; removed: SweepResult }> {
      const removed: SweepResult = { webhookAttempts: 0, webhookDeliveries: 0, webhookEvents: 0, receiverLookups: 0 };
      if (settings.webhookDays > 0) {
        const before = cutoff(settings.webhookDays);
        removed.webhookAttempts = await attempts(before);
        removed.webhookDeliveries = await deliveries(before);
        removed.webhookEvents = await events(before);
      }
      if (settings.lookupDays > 0) removed.receiverLookups = await lookups(cutoff(settings.lookupDays));
      const more = Object.values(removed).some((n) => n >= limit);
      return { more, removed };
    },

    /** Sweeps until nothing old remains (the CLI and tests); returns the totals. */
    async sweepAll(): Promise<SweepResult> {
      const total: SweepResult = { webhookAttempts: 0, webhookDeliveries: 0, webhookEvents: 0, receiverLookups: 0 };
      for (;;) {
        const { more, removed } = await this.sweepOnce();
        for (const k of Object.keys(total) as (keyof SweepResult)[]) total[k] += removed[k];
        if (!more) return total;
      }
    },
  };
}

export type RetentionSweeper = ReturnType<typeof createRetentionSweeper>;

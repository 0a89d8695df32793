import type { FastifyBaseLogger } from 'fastify';
import type { Container } from '../container.js';
import { startWorker, type Worker } from './loop.js';

/**
 * Background work of this node. Each entry is a loop over one kind of due work; with several
 * nodes every node runs them and the database hands each unit to one of them.
 */
export function startWorkers(container: Container, log: FastifyBaseLogger) {
  const workers: Worker[] = [
    startWorker({
      name: 'idempotency-sweeper',
      idleMs: 60 * 60 * 1000,
      onError: (err) => log.error({ err }, 'idempotency sweeper failed'),
      processNext: async () => {
        // Keys are kept 24 h (D5); remove expired ones in small batches.
        const now = container.clock.now().toISOString();
        const expired = await container.db
          .executor()
          .selectFrom('idempotency_keys')
          .select(['platform_id', 'environment', 'route', 'idempotency_key'])
          .where('expires_at', '<', now)
          .limit(500)
          .execute();
        if (expired.length === 0) return false;
        await container.db.tx(async (trx) => {
          for (const k of expired) {
            await trx.deleteFrom('idempotency_keys').where('platform_id', '=', k.platform_id).where('environment', '=', k.environment).where('route', '=', k.route).where('idempotency_key', '=', k.idempotency_key).execute();
          }
        });
        return expired.length === 500;
      },
    }),
  ];
  // Payments: timed sandbox outcomes and quote expiries (durable jobs, src/modules/transactions/engine.ts).
  {
    const loop = startWorker({
      name: 'payments',
      idleMs: 1000,
      onError: (err) => log.error({ err }, 'payment job failed'),
      processNext: () => container.payments.engine.processNext(),
    });
    const unsubscribe = container.onJobEnqueued(() => loop.wake());
    workers.push({ wake: () => loop.wake(), stop: async () => { unsubscribe(); await loop.stop(); } });
  }
  // Incoming payments: approval deadlines (durable jobs, src/modules/incoming).
  {
    const loop = startWorker({
      name: 'incoming',
      idleMs: 1000,
      onError: (err) => log.error({ err }, 'incoming payment job failed'),
      processNext: () => container.incoming.processNext(),
    });
    const unsubscribe = container.onJobEnqueued(() => loop.wake());
    workers.push({ wake: () => loop.wake(), stop: async () => { unsubscribe(); await loop.stop(); } });
  }
  // Webhook delivery: several loops, since one attempt may wait 10 s on a slow receiver; the
  // database hands each due delivery to one loop (of one node). Woken right after an enqueue.
  for (let i = 0; i < container.config.webhookConcurrency; i++) {
    const loop = startWorker({
      name: `webhook-delivery-${i}`,
      idleMs: 1000,
      onError: (err) => log.error({ err }, 'webhook delivery failed'),
      processNext: () => container.webhooks.worker.processNext(),
    });
    const unsubscribe = container.onJobEnqueued(() => loop.wake());
    workers.push({ wake: () => loop.wake(), stop: async () => { unsubscribe(); await loop.stop(); } });
  }
  return {
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

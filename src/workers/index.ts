import type { FastifyBaseLogger } from 'fastify';
import type { Container } from '../container.js';
import { createCircuitBreaker } from '../events/circuit.js';
import { startDispatcher } from '../events/dispatcher.js';
import { DELIVER_JOB } from '../events/types.js';
import { INCOMING_JOB_KINDS } from '../modules/incoming/service.js';
import { PAYMENT_JOB_KINDS } from '../modules/transactions/engine.js';
import { BANK_JOB_KINDS } from '../rails/bank/index.js';
import { UMA_JOB_KINDS } from '../modules/uma/settling.js';
import { startWorker, type Worker } from './loop.js';
import { createRetentionSweeper } from '../retention/sweeper.js';
import { FOLD_BATCH, foldLedgerDeltas } from '../ledger/fold.js';
import { foldCounts } from '../db/counters.js';
import { CUSTOMER_IMPORT_JOB, customerImportsOf } from '../modules/customer-imports/service.js';

/** How often the fold runs when it has less than a batch to do. */
const FOLD_INTERVAL_MS = 500;

/**
 * Background work of this node. Each entry is a loop over one kind of due work; with several
 * nodes every node runs them and the database hands each unit to one of them.
 */
export function startWorkers(container: Container, log: FastifyBaseLogger) {
  const workers: Worker[] = [];

  /** A loop over durable jobs of these kinds, woken as soon as one of them is due. */
  function jobLoop(name: string, kinds: readonly string[], processNext: () => Promise<boolean>) {
    const loop = startWorker({ name, idleMs: 1000, processNext, onError: (err) => log.error({ err, worker: name }, 'job failed') });
    const unsubscribe = container.onJobEnqueued(kinds, () => loop.wake());
    workers.push({
      wake: () => loop.wake(),
      stop: async () => {
        unsubscribe();
        await loop.stop();
      },
    });
  }

  workers.push(
    startWorker({
      name: 'idempotency-sweeper',
      idleMs: 60 * 60 * 1000,
      onError: (err) => log.error({ err }, 'idempotency sweeper failed'),
      processNext: () => sweepIdempotencyKeys(container),
    }),
  );
  // Retention (src/retention): old webhook events, deliveries, attempts and receiver lookups go in
  // small batches; between batches the event loop turns, so requests are served in between.
  const retention = createRetentionSweeper({ db: container.db, clock: container.clock, settings: container.config.retention });
  workers.push(
    startWorker({
      name: 'retention-sweeper',
      idleMs: container.config.retention.intervalMs,
      onError: (err) => log.error({ err }, 'retention sweeper failed'),
      processNext: async () => {
        const { more, removed } = await retention.sweepOnce();
        if (Object.values(removed).some((n) => n > 0)) log.info({ removed }, 'retention: removed old rows');
        await new Promise((resolve) => setImmediate(resolve));
        return more;
      },
    }),
  );
  // The fold (docs/ledger.md): system-account movements and list-count changes, kept aside as rows
  // so that payments never wait on one another, are added into their totals in batches.
  workers.push(
    startWorker({
      name: 'fold',
      idleMs: FOLD_INTERVAL_MS,
      onError: (err) => log.error({ err }, 'fold failed'),
      processNext: async () => {
        const folded = (await foldLedgerDeltas(container)) + (await foldCounts(container.db));
        return folded >= FOLD_BATCH;
      },
    }),
  );
  // Payments: timed sandbox outcomes and quote expiries (src/modules/transactions/engine.ts).
  jobLoop('payments', PAYMENT_JOB_KINDS, () => container.payments.engine.processNext());
  // Partner banks (PRODUCTION): one cycle job per bank, files out at each cut-off, reports in.
  if (container.bankRails.banks.length > 0) {
    jobLoop('bank', BANK_JOB_KINDS, () => container.bankRails.worker.processNext());
    void container.bankRails.worker.ensureScheduled().catch((err: unknown) => log.error({ err }, 'bank worker: could not schedule the banks'));
  }
  // Incoming payments: approval deadlines (src/modules/incoming).
  jobLoop('incoming', INCOMING_JOB_KINDS, () => container.incoming.processNext());
  // Payments to other UMA providers: settlements and post-transaction callbacks, after commit.
  jobLoop('uma', UMA_JOB_KINDS, () => container.umaWire.settling.processNext());
  // Bulk customer imports (src/modules/customer-imports): a chunk of rows per job.
  const imports = customerImportsOf(container);
  jobLoop('customer-imports', [CUSTOMER_IMPORT_JOB], () => imports.processNext());
  // Webhook delivery (src/events/dispatcher.ts): batched claims, up to webhookConcurrency attempts
  // at once, webhookEndpointConcurrency per platform and environment, a circuit per endpoint; the
  // database hands each due delivery to one node.
  const { config } = container;
  const dispatcher = startDispatcher({
    worker: container.webhooks.worker,
    jobs: container.jobs,
    concurrency: config.webhookConcurrency,
    endpointConcurrency: config.webhookEndpointConcurrency,
    circuit: createCircuitBreaker({ failures: config.webhookCircuit.failures, openMs: config.webhookCircuit.openMs }),
    onError: (err) => log.error({ err, worker: 'webhook-delivery' }, 'webhook delivery failed'),
  });
  const unsubscribeDeliveries = container.onJobEnqueued([DELIVER_JOB], () => dispatcher.wake());
  workers.push({
    wake: () => dispatcher.wake(),
    stop: async () => {
      unsubscribeDeliveries();
      await dispatcher.stop();
    },
  });
  return {
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
    },
  };
}

/** Idempotency keys are kept 24 h (D5): removes expired ones in batches; true while more remain. */
async function sweepIdempotencyKeys(container: Container): Promise<boolean> {
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
      await trx
        .deleteFrom('idempotency_keys')
        .where('platform_id', '=', k.platform_id)
        .where('environment', '=', k.environment)
        .where('route', '=', k.route)
        .where('idempotency_key', '=', k.idempotency_key)
        .execute();
    }
  });
  return expired.length === 500;
}

/**
 * Webhooks, assembled: signing keys, the outbox other modules emit into, and the delivery worker.
 * Pure pieces (signing, url-guard, http-delivery, backoff) sit beside these files.
 */
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import type { JobQueue } from '../db/jobs.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import type { Sealer } from '../secrets/envelope.js';
import { createConnectionPool } from './connections.js';
import { createWebhookKeys } from './keys.js';
import { createOutbox } from './outbox.js';
import { createDeliveryWorker, type DeliveryWorkerDeps } from './worker.js';

export type { EmitInput, Emitted, Outbox } from './outbox.js';
export { EVENT_TYPES, type EventType } from './types.js';

export function createWebhookDelivery(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  configs: ConfigCache;
  allowPrivate: boolean;
  resolve?: (host: string) => Promise<string[]>;
  random?: () => number;
  /** Seals the signing keys at rest. */
  secrets: Sealer;
  /** When a failed attempt's retry is due (a sandbox platform's clock): see worker.ts. */
  retryAt?: DeliveryWorkerDeps['retryAt'];
  /** Acts on receivers' answers (the GRID profile's approval answers): see worker.ts. */
  answers?: DeliveryWorkerDeps['answers'];
  /** Connections kept open per endpoint (WEBHOOK_ENDPOINT_CONCURRENCY). */
  endpointConcurrency?: number;
}) {
  const keys = createWebhookKeys({ db: deps.db, clock: deps.clock, secrets: deps.secrets });
  const outbox = createOutbox({ db: deps.db, clock: deps.clock, jobs: deps.jobs, configs: deps.configs });
  const connections = createConnectionPool({ maxSocketsPerAgent: deps.endpointConcurrency });
  const worker = createDeliveryWorker({ ...deps, keys, connections });
  return { keys, outbox, worker };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;

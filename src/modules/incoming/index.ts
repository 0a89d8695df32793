/**
 * Incoming payments assembled over the payment pieces: arrivals (what happens when money comes
 * in, through the transactions lifecycle and engine) and the service behind approve, reject, the
 * approval deadlines and the sandbox's simulated arrivals, and the sender's side of UMA quotes.
 */
import type { Clock } from '../../common/clock.js';
import type { Scope } from '../../common/scope.js';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Outbox } from '../../events/index.js';
import type { Ledger } from '../../ledger/index.js';
import type { Fx } from '../quotes/pricing.js';
import type { PaymentEngine } from '../transactions/engine.js';
import type { Lifecycle } from '../transactions/lifecycle.js';
import { createArrivals } from './arrival.js';
import { createIncomingService } from './service.js';
import { createUmaPayments } from './uma.js';
import { createWebhookAnswers } from './webhook-answers.js';
import type { ReceiverService } from '../receiver/service.js';
import type { ConfigCache } from '../platforms/config-cache.js';
import type { RemotePayments } from '../uma/index.js';

export function createIncoming(deps: {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  ledger: Ledger;
  events: Outbox;
  fx: Fx;
  lifecycle: Lifecycle;
  engine: PaymentEngine;
  receiver: ReceiverService;
  configs: ConfigCache;
  within?: <T>(scope: Scope, fn: () => Promise<T>) => Promise<T>;
  /** a getter: payments to other UMA providers (src/modules/uma: paying.ts, settling.ts) */
  remote: () => RemotePayments;
}) {
  const arrivals = createArrivals(deps);
  const service = createIncomingService({ db: deps.db, clock: deps.clock, jobs: deps.jobs, configs: deps.configs, arrivals, within: deps.within });
  const uma = createUmaPayments({ receiver: deps.receiver, arrivals, lifecycle: deps.lifecycle, remote: deps.remote });
  // The GRID profile's answers to approval webhooks, called by the delivery worker.
  const webhookAnswers = createWebhookAnswers({ db: deps.db, service, within: deps.within });
  return { arrivals, service, uma, webhookAnswers, processNext: service.processNext };
}

export type Incoming = ReturnType<typeof createIncoming>;

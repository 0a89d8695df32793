/**
 * Payments, assembled over the container's pieces: the lifecycle, the engine (with the rails of
 * each environment) and the services behind the quote, transfer, transaction and sandbox routes.
 */
import type { Clock } from '../../common/clock.js';
import type { Cursors } from '../../common/pagination.js';
import type { Database } from '../../db/database.js';
import type { JobQueue } from '../../db/jobs.js';
import type { Outbox } from '../../events/index.js';
import type { Ledger } from '../../ledger/index.js';
import type { Rails } from '../../rails/index.js';
import type { CollectionAccounts } from '../internal-accounts/instructions.js';
import type { Fx } from '../quotes/pricing.js';
import type { UmaPayments } from '../incoming/uma.js';
import { createQuoteService } from '../quotes/service.js';
import { createSandboxSend } from '../sandbox/send.js';
import { createTransferService } from '../transfers/service.js';
import { createPaymentEngine } from './engine.js';

type PaymentEngineDeps = Parameters<typeof createPaymentEngine>[0];
import { createLifecycle } from './lifecycle.js';
import type { AccountDeps } from './rules.js';
import { createTransactionService } from './service.js';

export function createPayments(
  deps: AccountDeps & {
    db: Database;
    clock: Clock;
    cursors: Cursors;
    jobs: JobQueue;
    ledger: Ledger;
    events: Outbox;
    rails: Rails;
    fx: Fx;
    uma: () => UmaPayments;
    within?: PaymentEngineDeps['within'];
    collections?: CollectionAccounts;
  },
) {
  const { db, clock, cursors } = deps;
  const lifecycle = createLifecycle({ db, clock, ledger: deps.ledger, events: deps.events });
  const engine = createPaymentEngine({ db, clock, jobs: deps.jobs, rails: deps.rails, lifecycle, within: deps.within });
  const accounts: AccountDeps = {
    configs: deps.configs,
    customers: deps.customers,
    internalAccounts: deps.internalAccounts,
    externalAccounts: deps.externalAccounts,
  };
  const quotes = createQuoteService({ db, clock, cursors, fx: deps.fx, engine, uma: deps.uma, collections: deps.collections, ...accounts });
  return {
    lifecycle,
    engine,
    services: {
      quotes,
      transactions: createTransactionService({ db, cursors }),
      transfers: createTransferService({ db, clock, fx: deps.fx, engine, ...accounts }),
      sandboxSend: createSandboxSend({ db, clock, quotes, engine, lifecycle }),
    },
  };
}

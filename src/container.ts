import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';
import { systemClock, type Clock } from './common/clock.js';
import { Cursors } from './common/pagination.js';
import { openDatabase, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { createAuthenticator } from './http/auth.js';
import { createIdempotency } from './http/idempotency.js';
import { createJobQueue } from './db/jobs.js';
import { DELIVER_JOB } from './events/types.js';
import { createWebhookDelivery } from './events/index.js';
import { createConfigService } from './modules/config/service.js';
import { createConfigCache } from './modules/platforms/config-cache.js';
import { createWebhookService } from './modules/webhooks/service.js';
import { createLedger } from './ledger/ledger.js';
import { createInternalAccountService } from './modules/internal-accounts/service.js';
import { createExternalAccountService } from './modules/external-accounts/service.js';
import { createOwnerService } from './modules/beneficial-owners/service.js';
import { createCustomerService } from './modules/customers/service.js';
import { createDocumentService } from './modules/documents/service.js';
import { createPlatformService } from './modules/platforms/service.js';
import { createTokenService } from './modules/tokens/service.js';
import { createDashboardService } from './dashboard/service.js';
import { createPayments } from './modules/transactions/index.js';
import { createFx } from './modules/quotes/pricing.js';
import { createRails } from './rails/index.js';
import { loadBankProfiles } from './rails/bank/config.js';
import { createBankRails } from './rails/bank/index.js';
import { collectionAccountsOf } from './rails/bank/collections.js';
import { createReceiverService } from './modules/receiver/service.js';
import { createResolver } from './modules/receiver/resolver.js';
import type { DomainProofNetwork } from './modules/config/uma-domain.js';
import { setRateUrlPolicy } from './fx/url-rates.js';
import { loadSecrets, type Secrets } from './secrets/kek.js';
import { createIncoming } from './modules/incoming/index.js';
import { createUmaWire } from './modules/uma/index.js';
import { createSandboxHelpers } from './modules/sandbox/helpers.js';
import { createSandboxClocks } from './modules/sandbox/clock.js';
import { createSandboxClockService } from './modules/sandbox/clock-service.js';
import { PAYMENT_JOB_KINDS } from './modules/transactions/engine.js';
import { INCOMING_JOB_KINDS } from './modules/incoming/service.js';

export interface Overrides {
  clock?: Clock;
  /** An open database (tests); otherwise opened from the config. */
  db?: Database;
  /** DNS answers for webhook URL checks (SSRF tests); the system resolver otherwise. */
  webhookResolve?: (host: string) => Promise<string[]>;
  /** How UMA domains are proven (HTTPS fetch, DNS TXT); the network otherwise. */
  domainProof?: DomainProofNetwork;
  /** Secrets at rest (tests); otherwise sealed with the configured key-encryption key. */
  secrets?: Secrets;
}

/** The database URL the config points at: PostgreSQL when DATABASE_URL is set, else SQLite in DATA_DIR. */
export function databaseUrl(config: Config): string {
  return config.databaseUrl ?? path.join(config.dataDir, 'corridor.db');
}

/** A secret that must be the same on every node and survive restarts, kept in the database. */
async function sharedSecret(db: Database, key: string): Promise<string> {
  return db.tx(async (trx) => {
    const found = await trx.selectFrom('system_settings').select('value').where('key', '=', key).executeTakeFirst();
    if (found) return found.value;
    const value = randomBytes(32).toString('base64url');
    await trx.insertInto('system_settings').values({ key, value }).execute();
    return value;
  });
}

/** Builds every service over one database. No module reaches for globals: tests swap what they need. */
export async function createContainer(config: Config, overrides: Overrides = {}) {
  const db =
    overrides.db ??
    (await openDatabase({
      url: databaseUrl(config),
      sqliteSynchronous: config.sqliteSynchronous,
      // The pool's size and the bound on every wait (docs/reliability.md, "Bounds").
      ...config.pg,
    }));
  await migrate(db);
  // Real time; and each platform's sandbox clock (src/modules/sandbox/clock.ts): `clock` answers a
  // sandbox platform's time inside its requests and jobs, real time elsewhere. Idempotency, rates,
  // tokens and sessions keep real time.
  const realClock = overrides.clock ?? systemClock;
  const sandboxClocks = createSandboxClocks({ db, base: realClock, cacheMs: 1000, timedKinds: [...PAYMENT_JOB_KINDS, ...INCOMING_JOB_KINDS] });
  const clock = sandboxClocks.clock;
  const cursors = new Cursors(await sharedSecret(db, 'cursor_secret'));
  const authenticator = createAuthenticator({ db, ttlMs: config.authCacheTtlMs });
  const idempotency = createIdempotency({ db, clock: realClock });
  // Durable jobs (db/jobs.ts). enqueue runs inside the caller's transaction, before its commit,
  // so the loops that claim that kind (workers/index.ts) are woken a moment later, and once more
  // in case the commit was slow. Only jobs due now wake anyone: a job due later (a quote's expiry)
  // is found by the loops' idle poll, so it costs no burst of empty claims.
  const jobWaiters = new Map<() => void, readonly string[]>();
  const pendingKinds = new Set<string>();
  const wakeKinds = (kinds: Iterable<string>) => {
    const due = new Set(kinds);
    for (const [wake, theirs] of jobWaiters) if (theirs.some((k) => due.has(k))) wake();
  };
  const wakeJobWaiters = (job: { kind: string; runAt: Date }) => {
    if (job.runAt.getTime() > realClock.now().getTime() + 50) return;
    if (pendingKinds.size === 0) {
      setTimeout(() => {
        const kinds = [...pendingKinds];
        pendingKinds.clear();
        wakeKinds(kinds);
        setTimeout(() => wakeKinds(kinds), 100).unref();
      }, 5).unref();
    }
    pendingKinds.add(job.kind);
  };
  const jobs = createJobQueue({
    db,
    clock: realClock,
    nodeId: `node-${randomBytes(6).toString('hex')}`,
    onEnqueue: wakeJobWaiters,
    runAtOf: sandboxClocks.runAtOf,
    maxAttempts: config.jobMaxAttempts,
    // Webhook deliveries end FAILED on their own 3-day schedule (src/events/backoff.ts).
    ownSchedule: [DELIVER_JOB],
  });
  const secrets = overrides.secrets ?? loadSecrets(config);
  // Platform configurations as payments read them, reused for a moment (PATCH /config refreshes).
  const configs = createConfigCache({ db, ttlMs: config.configCacheTtlMs });
  const webhooks = createWebhookDelivery({
    db,
    clock: realClock,
    jobs,
    configs,
    allowPrivate: config.webhookAllowPrivateAddresses,
    resolve: overrides.webhookResolve,
    secrets,
    retryAt: sandboxClocks.retryAt,
    // Made below; called only once attempts run.
    answers: (scope, delivery, outcome) => incoming.webhookAnswers(scope, delivery, outcome),
    endpointConcurrency: config.webhookEndpointConcurrency,
  });
  const ledger = createLedger({ db, clock });

  // The partner banks PRODUCTION pays through (BANKS_FILE; src/rails/bank), checked at start;
  // their accounts are the collection accounts of payment instructions.
  const banks = config.banksFile ? loadBankProfiles(config.banksFile) : [];
  const collections = collectionAccountsOf(banks);
  const customers = createCustomerService({ db, clock, cursors, kycAttestation: config.kycAttestation, events: webhooks.outbox });
  const beneficialOwners = createOwnerService({ db, clock, cursors, customers });
  const services = {
    platforms: createPlatformService({ db, clock: realClock, umaBaseDomain: config.umaBaseDomain }),
    tokens: createTokenService({ db, clock: realClock, cursors, onRevoke: (clientId) => authenticator.forget(clientId) }),
    config: createConfigService({
      db,
      clock,
      configs,
      keys: webhooks.keys,
      worker: webhooks.worker,
      umaBaseDomain: config.umaBaseDomain,
      domainProof: overrides.domainProof,
    }),
    webhooks: createWebhookService({ db, cursors, outbox: webhooks.outbox, worker: webhooks.worker }),
    customers,
    beneficialOwners,
    documents: createDocumentService({ db, clock, cursors, customers, beneficialOwners, secrets }),
    internalAccounts: createInternalAccountService({ db, clock, cursors, ledger, collections }),
    externalAccounts: createExternalAccountService({ db, clock, cursors, customers }),
  };

  // Quotes, transfers and transactions: FX pricing, the payment engine and the rails (src/rails).
  setRateUrlPolicy({ authorization: config.ratesAuthorization, maxChangePercent: config.ratesMaxChangePercent });
  const fx = createFx(config, realClock, (err) => process.emitWarning(`rates: ${err.message}`));
  const payments = createPayments({
    db,
    clock,
    cursors,
    jobs,
    ledger,
    fx,
    events: webhooks.outbox,
    rails: createRails({ sandboxTimeScale: config.sandboxTimeScale, db, banks, manualRail: config.productionManualRail, now: () => realClock.now() }),
    customers,
    internalAccounts: services.internalAccounts,
    externalAccounts: services.externalAccounts,
    configs,
    uma: () => incoming.uma,
    within: sandboxClocks.within,
    collections,
  });
  // UMA on the wire (src/modules/uma): each platform's domain as a UMA participant.
  const umaWire = createUmaWire({
    db,
    clock: realClock,
    fx,
    secrets,
    domainAddresses: config.umaDomainAddresses,
    allowPrivate: config.webhookAllowPrivateAddresses,
    policy: { productionAllowlist: config.umaCounterpartyAllowlist },
    arrivals: () => incoming.arrivals,
    jobs,
    lifecycle: () => payments.lifecycle,
    within: sandboxClocks.within,
    resolve: overrides.webhookResolve,
  });
  // Receiver lookups and UMA addresses (src/modules/receiver): hosted addresses resolve locally.
  const receiver = createReceiverService({
    db,
    clock,
    fx,
    resolver: createResolver(umaWire.remoteResolver),
    externalAccounts: services.externalAccounts,
    customers: services.customers,
  });
  // Incoming payments (src/modules/incoming): arrivals, approvals and their deadlines, over the payment lifecycle.
  const incoming = createIncoming({
    db,
    clock,
    jobs,
    ledger,
    events: webhooks.outbox,
    fx,
    lifecycle: payments.lifecycle,
    engine: payments.engine,
    receiver,
    configs,
    within: sandboxClocks.within,
    remote: () => umaWire.remotePayments,
  });

  // PRODUCTION money through the partner banks (src/rails/bank): files out, reports in.
  const bankRails = createBankRails({
    db,
    clock: realClock,
    jobs,
    ledger,
    lifecycle: payments.lifecycle,
    engine: payments.engine,
    payableAccounts: payments.services.quotes.payableAccounts,
    banks,
    secrets,
    log: (message, facts) => process.emitWarning(`${message}: ${JSON.stringify(facts)}`),
  });

  return {
    config,
    db,
    clock,
    cursors,
    authenticator,
    idempotency,
    /** Seals secrets at rest (webhook private keys, document bytes) with the key-encryption key. */
    secrets,
    /** Dashboard users and sessions (src/dashboard). */
    dashboard: createDashboardService({ db, clock: realClock, sessionTtlMs: config.dashboardSessionTtlMs, hashConcurrency: config.dashboardHashConcurrency }),
    ledger,
    services: { ...services, ...payments.services, receiver, incoming: incoming.service },
    /** The sandbox's test helpers (src/modules/sandbox). */
    sandbox: {
      helpers: createSandboxHelpers({ db, engine: payments.engine, incoming: incoming.service }),
      /** Each platform's sandbox clock: the request hook, and GET/POST /sandbox/clock. */
      clocks: sandboxClocks,
      clock: createSandboxClockService({
        db,
        base: realClock,
        clocks: sandboxClocks,
        jobs,
        handlers: Object.fromEntries([
          ...PAYMENT_JOB_KINDS.map((k) => [k, payments.engine.runJob] as const),
          ...INCOMING_JOB_KINDS.map((k) => [k, incoming.service.runJob] as const),
        ]),
        followers: [DELIVER_JOB],
        wake: wakeKinds,
      }),
    },
    /** Platform configurations as requests read them, reused for CONFIG_CACHE_TTL_MS (the GRID profile's answers). */
    configs,
    /** Incoming payments: processNext() runs due approval deadlines (worker). */
    incoming,
    /** UMA on the wire: keys, the well-known endpoints, counterparties. */
    umaWire,
    /** The payment engine (worker: processNext; operator: operate) and the transaction lifecycle. */
    payments,
    /** PRODUCTION bank rails: the worker (processNext), the outbound files, the inbound reports. */
    bankRails,
    fx,
    jobs,
    /** The outbox: `events.emit(scope, { type, subject, payload })` inside the change's transaction. */
    events: webhooks.outbox,
    webhooks,
    /** Registers a worker's wake(), called shortly after a job of these kinds becomes due; returns the unregister. */
    onJobEnqueued(kinds: readonly string[], wake: () => void): () => void {
      jobWaiters.set(wake, kinds);
      return () => jobWaiters.delete(wake);
    },
    async close() {
      fx.stop();
      webhooks.worker.connections.close();
      await db.close();
    },
  };
}

export type Container = Awaited<ReturnType<typeof createContainer>>;

/**
 * The delivery worker: processNext() claims one due delivery job, checks the URL (SSRF rules),
 * POSTs the stored body signed afresh, records the attempt, then completes the job or puts it
 * back on the retry schedule. Jobs are durable and leased (db/jobs.ts), so a restart loses no
 * delivery and, with several nodes on PostgreSQL, each attempt runs on one node.
 *
 * The same steps serve the dispatcher (dispatcher.ts), which claims jobs in batches: prepare()
 * reads the deliveries of claimed jobs in one query, run() makes one attempt (or none when the
 * endpoint's circuit is open), recordAll() writes several outcomes in one transaction.
 */
import type { Clock } from '../common/clock.js';
import type { Environment, Scope } from '../common/scope.js';
import type { Database, Executor } from '../db/database.js';
import type { Job, JobQueue } from '../db/jobs.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import { nextAttemptDelayMs } from './backoff.js';
import { countsAgainstEndpoint, type CircuitBreaker } from './circuit.js';
import { createConnectionPool, type ConnectionPool } from './connections.js';
import { deliver } from './http-delivery.js';
import type { WebhookKeys } from './keys.js';
import { deliveryFormat, preparedDelivery, type WebhookFormat } from './format.js';
import { webhookStore, type DeliveryRow } from './store.js';
import { ATTEMPT_TIMEOUT_MS, DELIVER_JOB, DELIVERY_LEASE_MS, RESPONSE_BODY_MAX_BYTES } from './types.js';
import { checkWebhookUrl, type UrlCheck } from './url-guard.js';

export interface DeliveryWorkerDeps {
  db: Database;
  clock: Clock;
  jobs: JobQueue;
  keys: WebhookKeys;
  /** WEBHOOK_ALLOW_PRIVATE_ADDRESSES: the operator lets webhooks reach private networks. */
  allowPrivate: boolean;
  /** DNS for the URL check (tests inject answers); the system resolver otherwise. */
  resolve?: (host: string) => Promise<string[]>;
  /** Jitter source of the retry schedule. */
  random?: () => number;
  /**
   * When a retry `delayMs` from now is due, read in the transaction that records the attempt:
   * `runAt` the job's real run_at, `dueAt` the delivery log's nextAttemptAt. A sandbox platform's
   * clock (src/modules/sandbox/clock.ts); real time without it.
   */
  retryAt?: (scope: Scope, delayMs: number) => Promise<{ runAt: Date; dueAt: Date }>;
  /** The platform's profile, for a test event's format (format.ts). */
  configs?: Pick<ConfigCache, 'get'>;
  /** Acts on a receiver's answer to an attempt (the GRID approval answers); returns the outcome to record. */
  answers?: (scope: Scope, delivery: DeliveryRow, outcome: AttemptOutcome) => Promise<AttemptOutcome>;
  /** Keep-alive connections per endpoint (connections.ts); a pool of its own otherwise. */
  connections?: ConnectionPool;
}

/** A claimed job, its delivery read: what to do with it. */
export type PreparedJob =
  | { job: Job; action: 'complete' } // gone or no longer PENDING: nothing to send
  | { job: Job; action: 'no-endpoint'; delivery: DeliveryRow }
  | { job: Job; action: 'attempt'; delivery: DeliveryRow; body: string; scope: Scope; url: string };

/** A prepared job and, for an attempt, what it did. */
export interface Finished {
  prepared: PreparedJob;
  outcome?: AttemptOutcome;
}

/** The error an attempt shows when it was not made because its endpoint's circuit is open. */
export const CIRCUIT_OPEN_ERROR = 'circuit open';

/** What one attempt did, as the delivery log shows it. */
export interface AttemptOutcome {
  url: string;
  attemptedAt: string;
  ok: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  responseBody: string | null;
}

// PostgreSQL text cannot hold NUL, and a receiver may answer anything.
const storable = (text: string | null) => (text === null ? null : text.replace(/\u0000/g, ''));

export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const { db, clock, jobs } = deps;
  const connections = deps.connections ?? createConnectionPool();

  /** The SSRF check with this node's rules: environment, operator switch, resolver. */
  function checkUrl(url: string, environment: Environment): Promise<UrlCheck> {
    return checkWebhookUrl(url, { environment, allowPrivate: deps.allowPrivate, resolve: deps.resolve });
  }

  /** One signed POST of `body` to `url`, connected to the address the check approved. Never throws. */
  async function attempt(scope: Scope, url: string, body: string, checked?: UrlCheck, format?: WebhookFormat): Promise<AttemptOutcome> {
    const attemptedAt = clock.now().toISOString();
    const check = checked ?? (await checkUrl(url, scope.environment));
    if (!check.ok) return { url, attemptedAt, ok: false, statusCode: null, latencyMs: null, error: `refused: ${check.reason}`, responseBody: null };
    // Signed at the moment of sending, so the receiver's 5-minute window measures this attempt; in the profile's format (format.ts).
    const sent = await preparedDelivery(deps, scope, body, format, clock.now());
    const r = await deliver({
      url,
      body: sent.body,
      headers: sent.headers,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      maxResponseBytes: RESPONSE_BODY_MAX_BYTES,
      pinnedAddresses: check.addresses,
      agent: connections.agentFor(url, check.addresses),
    });
    return {
      url,
      attemptedAt,
      ok: r.ok,
      statusCode: r.statusCode ?? null,
      latencyMs: r.latencyMs,
      error: r.error ?? null,
      responseBody: r.responseBody ?? null,
    };
  }

  /**
   * Writes the attempt into the log and the delivery's latest result (plus `then`: its new
   * status or next attempt time) in one update; returns the attempt number. The row lock of
   * that update keeps concurrent attempt numbers distinct.
   */
  async function recordAttempt(trx: Executor, delivery: DeliveryRow, outcome: AttemptOutcome, then: Partial<DeliveryRow> = {}): Promise<number> {
    const now = clock.now().toISOString();
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({
        attempt_count: eb('attempt_count', '+', 1),
        last_status_code: outcome.statusCode,
        last_error: storable(outcome.error),
        updated_at: now,
        ...(outcome.ok ? { status: 'DELIVERED', delivered_at: now, next_attempt_at: null } : {}),
        ...then,
      }))
      .where('id', '=', delivery.id)
      .returning('attempt_count')
      .executeTakeFirstOrThrow();
    const n = Number(updated.attempt_count);
    await webhookStore.insertAttempt(trx, {
      delivery_id: delivery.id,
      attempt_number: n,
      platform_id: delivery.platform_id,
      environment: delivery.environment,
      attempted_at: outcome.attemptedAt,
      url: outcome.url,
      status_code: outcome.statusCode,
      latency_ms: outcome.latencyMs,
      error: storable(outcome.error),
      response_body: storable(outcome.responseBody),
    });
    return n;
  }

  /**
   * After a failed attempt: back on the schedule, or FAILED once it ran out (3 days). A sandbox
   * platform's retry is due when its clock reaches the attempt plus the delay (retryAt).
   */
  async function afterFailure(scope: Scope, job: Job): Promise<{ changes: Partial<DeliveryRow>; finish: () => Promise<void> }> {
    const delay = nextAttemptDelayMs(job.attempts, deps.random);
    if (delay === null) return { changes: { status: 'FAILED', next_attempt_at: null }, finish: () => jobs.complete(job) };
    const realRunAt = new Date(clock.now().getTime() + delay);
    const { runAt, dueAt } = deps.retryAt ? await deps.retryAt(scope, delay) : { runAt: realRunAt, dueAt: realRunAt };
    return { changes: { next_attempt_at: dueAt.toISOString() }, finish: () => jobs.retry(job, runAt, 'webhook attempt failed') };
  }

  function prepareOne(job: Job, found: { delivery: DeliveryRow; body: string; endpoint: string | null } | undefined): PreparedJob {
    if (!found || found.delivery.status !== 'PENDING') return { job, action: 'complete' };
    const { delivery, body } = found;
    const scope: Scope = { platformId: delivery.platform_id, environment: delivery.environment as Environment };
    // The endpoint is read at each attempt: fixing a wrong URL rescues the deliveries still pending.
    const url = delivery.url ?? found.endpoint;
    if (url === null) return { job, action: 'no-endpoint', delivery };
    return { job, action: 'attempt', delivery, body, scope, url };
  }

  /** The deliveries of claimed jobs, read in one query. */
  async function prepare(claimed: readonly Job[]): Promise<PreparedJob[]> {
    if (claimed.length === 0) return [];
    const ids = claimed.map((job) => (job.payload as { deliveryId: string }).deliveryId);
    const found = await webhookStore.deliveriesForAttempt(db.executor(), ids);
    return claimed.map((job, i) => prepareOne(job, found.get(ids[i])));
  }

  /**
   * The attempt of a prepared job. With a circuit breaker: none while the endpoint's circuit is
   * open (the outcome says so, and the job follows its retry schedule as after any failure).
   */
  async function run(p: PreparedJob, circuit?: CircuitBreaker): Promise<Finished> {
    if (p.action !== 'attempt') return { prepared: p };
    const decision = circuit?.decide(p.url) ?? 'attempt';
    if (decision === 'open') {
      const outcome: AttemptOutcome = {
        url: p.url,
        attemptedAt: clock.now().toISOString(),
        ok: false,
        statusCode: null,
        latencyMs: null,
        error: CIRCUIT_OPEN_ERROR,
        responseBody: null,
      };
      return { prepared: p, outcome };
    }
    const tried = await attempt(p.scope, p.url, p.body, undefined, deliveryFormat(p.delivery));
    if (circuit) {
      if (tried.error?.startsWith('refused:')) circuit.release(p.url);
      else circuit.record(p.url, !countsAgainstEndpoint(tried));
    }
    // The platform's answer to a GRID-format approval request approves or rejects the payment (src/modules/incoming/webhook-answers.ts).
    const outcome = deps.answers ? await deps.answers(p.scope, p.delivery, tried) : tried;
    return { prepared: p, outcome };
  }

  /** One finished job's writes, in the caller's transaction. */
  async function recordOne(trx: Executor, f: Finished): Promise<void> {
    const p = f.prepared;
    if (p.action === 'complete') return jobs.complete(p.job);
    if (p.action === 'no-endpoint') {
      await webhookStore.updateDelivery(trx, p.delivery.id, {
        status: 'NO_ENDPOINT',
        last_error: 'no webhookEndpoint configured',
        next_attempt_at: null,
        updated_at: clock.now().toISOString(),
      });
      return jobs.complete(p.job);
    }
    const outcome = f.outcome!;
    const next = outcome.ok ? { changes: {}, finish: () => jobs.complete(p.job) } : await afterFailure(p.scope, p.job);
    await recordAttempt(trx, p.delivery, outcome, next.changes);
    await next.finish();
  }

  /**
   * Delivered attempts, the common case, a few statements for all of them: the deliveries marked
   * DELIVERED (one update per status code, returning each one's attempt number), their attempts
   * in one insert, their jobs removed in one delete. The same rows recordOne writes.
   */
  async function recordDelivered(trx: Executor, delivered: readonly Finished[]): Promise<void> {
    for (let at = 0; at < delivered.length; at += 200) {
      const chunk = delivered.slice(at, at + 200) as Array<Finished & { prepared: Extract<PreparedJob, { action: 'attempt' }>; outcome: AttemptOutcome }>;
      const now = clock.now().toISOString();
      const numbers = new Map<string, number>();
      const byStatus = new Map<number | null, string[]>();
      for (const f of chunk) {
        const ids = byStatus.get(f.outcome.statusCode) ?? [];
        ids.push(f.prepared.delivery.id);
        byStatus.set(f.outcome.statusCode, ids);
      }
      for (const [statusCode, ids] of byStatus) {
        const rows = await trx
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            attempt_count: eb('attempt_count', '+', 1),
            last_status_code: statusCode,
            last_error: null,
            updated_at: now,
            status: 'DELIVERED',
            delivered_at: now,
            next_attempt_at: null,
          }))
          .where('id', 'in', ids)
          .returning(['id', 'attempt_count'])
          .execute();
        for (const r of rows) numbers.set(r.id, Number(r.attempt_count));
      }
      await trx
        .insertInto('webhook_attempts')
        .values(
          chunk.map((f) => ({
            delivery_id: f.prepared.delivery.id,
            attempt_number: numbers.get(f.prepared.delivery.id)!,
            platform_id: f.prepared.delivery.platform_id,
            environment: f.prepared.delivery.environment,
            attempted_at: f.outcome.attemptedAt,
            url: f.outcome.url,
            status_code: f.outcome.statusCode,
            latency_ms: f.outcome.latencyMs,
            error: null,
            response_body: storable(f.outcome.responseBody),
          })),
        )
        .execute();
      await trx
        .deleteFrom('jobs')
        .where(
          'id',
          'in',
          chunk.map((f) => f.prepared.job.id),
        )
        .execute();
    }
  }

  /**
   * Records finished jobs in one transaction. Should that transaction fail, each is recorded in a
   * transaction of its own, so one bad record cannot hold the others; one that still fails keeps
   * its lease and is attempted again when the lease ends (at least once, as after a crash).
   */
  async function recordAll(finished: readonly Finished[], onError?: (err: unknown) => void): Promise<void> {
    if (finished.length === 0) return;
    const delivered = finished.filter((f) => f.prepared.action === 'attempt' && f.outcome?.ok);
    const others = finished.filter((f) => !delivered.includes(f));
    try {
      await db.tx(async (trx) => {
        await recordDelivered(trx, delivered);
        for (const f of others) await recordOne(trx, f);
      });
      return;
    } catch (err) {
      if (finished.length === 1) {
        onError?.(err);
        return;
      }
    }
    for (const f of finished) {
      try {
        await db.tx((trx) => recordOne(trx, f));
      } catch (err) {
        onError?.(err);
      }
    }
  }

  async function processNext(): Promise<boolean> {
    const job = await jobs.claimNext([DELIVER_JOB], DELIVERY_LEASE_MS);
    if (!job) return false;
    const [prepared] = await prepare([job]);
    const finished = await run(prepared);
    await db.tx((trx) => recordOne(trx, finished));
    return true;
  }

  return { checkUrl, attempt, recordAttempt, processNext, prepare, run, recordAll, connections };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

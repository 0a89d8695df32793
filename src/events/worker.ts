/**
 * The delivery worker: processNext() claims one due delivery job, checks the URL (SSRF rules),
 * POSTs the stored body signed afresh, records the attempt, then completes the job or puts it
 * back on the retry schedule. Jobs are durable and leased (db/jobs.ts), so a restart loses no
 * delivery and, with several nodes on PostgreSQL, each attempt runs on one node.
 */
import type { Clock } from '../common/clock.js';
import type { Environment, Scope } from '../common/scope.js';
import type { Database, Executor } from '../db/database.js';
import type { Job, JobQueue } from '../db/jobs.js';
import type { ConfigCache } from '../modules/platforms/config-cache.js';
import { nextAttemptDelayMs } from './backoff.js';
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
  retryAt?: (trx: Executor, scope: Scope, delayMs: number) => Promise<{ runAt: Date; dueAt: Date }>;
  /** The platform's profile, for a test event's format (format.ts). */
  configs?: Pick<ConfigCache, 'get'>;
  /** Acts on a receiver's answer to an attempt (the GRID approval answers); returns the outcome to record. */
  answers?: (scope: Scope, delivery: DeliveryRow, outcome: AttemptOutcome) => Promise<AttemptOutcome>;
}

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
  async function afterFailure(trx: Executor, scope: Scope, job: Job): Promise<{ changes: Partial<DeliveryRow>; finish: () => Promise<void> }> {
    const delay = nextAttemptDelayMs(job.attempts, deps.random);
    if (delay === null) return { changes: { status: 'FAILED', next_attempt_at: null }, finish: () => jobs.complete(job) };
    const realRunAt = new Date(clock.now().getTime() + delay);
    const { runAt, dueAt } = deps.retryAt ? await deps.retryAt(trx, scope, delay) : { runAt: realRunAt, dueAt: realRunAt };
    return { changes: { next_attempt_at: dueAt.toISOString() }, finish: () => jobs.retry(job, runAt, 'webhook attempt failed') };
  }

  async function processNext(): Promise<boolean> {
    const job = await jobs.claimNext([DELIVER_JOB], DELIVERY_LEASE_MS);
    if (!job) return false;
    const found = await webhookStore.deliveryForAttempt(db.executor(), (job.payload as { deliveryId: string }).deliveryId);
    if (!found || found.delivery.status !== 'PENDING') {
      await jobs.complete(job);
      return true;
    }
    const { delivery, body } = found;
    const scope: Scope = { platformId: delivery.platform_id, environment: delivery.environment as Environment };
    // The endpoint is read at each attempt: fixing a wrong URL rescues the deliveries still pending.
    const url = delivery.url ?? found.endpoint;
    if (url === null) {
      await db.tx(async (trx) => {
        await webhookStore.updateDelivery(trx, delivery.id, {
          status: 'NO_ENDPOINT',
          last_error: 'no webhookEndpoint configured',
          next_attempt_at: null,
          updated_at: clock.now().toISOString(),
        });
        await jobs.complete(job);
      });
      return true;
    }
    const tried = await attempt(scope, url, body, undefined, deliveryFormat(delivery));
    // The platform's answer to a GRID-format approval request approves or rejects the payment (src/modules/incoming/webhook-answers.ts).
    const outcome = deps.answers ? await deps.answers(scope, delivery, tried) : tried;
    await db.tx(async (trx) => {
      const next = outcome.ok ? { changes: {}, finish: () => jobs.complete(job) } : await afterFailure(trx, scope, job);
      await recordAttempt(trx, delivery, outcome, next.changes);
      await next.finish();
    });
    return true;
  }

  return { checkUrl, attempt, recordAttempt, processNext };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;

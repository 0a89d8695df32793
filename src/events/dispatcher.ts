/**
 * The delivery dispatcher of a node: claims due delivery jobs in batches and runs their attempts
 * with bounded concurrency, fairly across platforms.
 *
 * - One claim leases up to as many jobs as there are free slots (`concurrency` in all), in one
 *   transaction (db/jobs.ts claimBatch: FOR UPDATE SKIP LOCKED on PostgreSQL, so each job goes to
 *   one node). Concurrency follows the load: with little due, few attempts run; under a burst, up
 *   to the cap.
 * - A lane is a platform and environment (one configured endpoint). A lane runs at most
 *   `endpointConcurrency` attempts at once; a lane that has that many is left out of the next
 *   claims, so one platform's backlog or slow endpoint holds only its own slots and the other
 *   platforms' deliveries are claimed and attempted meanwhile. Claimed jobs wait in their lane's
 *   queue; lanes take turns (round robin), PRODUCTION lanes before SANDBOX ones, and claims take
 *   PRODUCTION jobs first, so sandbox traffic cannot starve production.
 * - A circuit breaker per endpoint (circuit.ts): while it is open, attempts are recorded as failed
 *   ("circuit open") without a request and follow their retry schedule.
 * - Finished attempts are recorded several per transaction (worker.recordAll): a slot is free
 *   again once its attempt is recorded, so nothing is leased beyond the cap.
 *
 * Keep-alive connections per endpoint live in the worker's connection pool (connections.ts).
 */
import type { JobQueue } from '../db/jobs.js';
import { laneOfPayload } from '../db/jobs.js';
import { createCircuitBreaker, type CircuitBreaker } from './circuit.js';
import { DELIVER_JOB, DELIVERY_LEASE_MS } from './types.js';
import type { DeliveryWorker, Finished, PreparedJob } from './worker.js';

export interface DispatcherOptions {
  worker: Pick<DeliveryWorker, 'prepare' | 'run' | 'recordAll'>;
  jobs: Pick<JobQueue, 'claimBatch' | 'release'>;
  /** Attempts running at once on this node (WEBHOOK_CONCURRENCY). */
  concurrency: number;
  /** Attempts running at once for one platform and environment (WEBHOOK_ENDPOINT_CONCURRENCY). */
  endpointConcurrency: number;
  /** Most jobs one claim leases. */
  batchSize?: number;
  circuit?: CircuitBreaker;
  /** Least time between two claims that follow a claim that found less than it could take. */
  claimIntervalMs?: number;
  /** How long to sleep when nothing is due and nothing wakes the dispatcher. */
  idleMs?: number;
  onError?: (err: unknown) => void;
}

interface Lane {
  queue: PreparedJob[];
  /** Attempts running (not yet finished). */
  running: number;
  /** Claimed and not yet recorded: queued, running or being recorded. */
  held: number;
}

const laneOfPrepared = (p: PreparedJob) => (p.action === 'complete' ? laneOfPayload(p.job.payload) : `${p.delivery.platform_id}|${p.delivery.environment}`);

export function startDispatcher(opts: DispatcherOptions) {
  const cap = Math.max(1, opts.concurrency);
  const laneCap = Math.max(1, Math.min(opts.endpointConcurrency, cap));
  const batchSize = Math.max(1, opts.batchSize ?? 256);
  const idleMs = opts.idleMs ?? 1000;
  const circuit = opts.circuit ?? createCircuitBreaker();
  const onError = opts.onError ?? (() => undefined);
  const lanes = new Map<string, Lane>();
  let held = 0;
  let lastClaimAt = 0;
  const claimIntervalMs = opts.claimIntervalMs ?? 10;
  let runningTotal = 0;
  // Claimed and not yet recorded, at most: attempts running, the next ones waiting, and those being recorded.
  const maxHeld = Math.max(cap * 2, batchSize * 2);
  let turn = 0;
  let stopped = false;
  const toRecord: Array<{ lane: string; finished: Finished }> = [];
  let recording: Promise<void> | undefined;
  const running = new Set<Promise<void>>();

  let wakeUp: (() => void) | undefined;
  let pendingWake = false;
  const wake = () => {
    pendingWake = true;
    wakeUp?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (pendingWake || stopped) return resolve();
      const timer = setTimeout(resolve, ms);
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wakeUp = undefined;
      pendingWake = false;
    });

  /**
   * A lane with its attempts running and a batch waiting is not claimed from: its backlog stays
   * in the database, where the other lanes' jobs can pass it.
   */
  const busy = (l: Lane) => l.queue.length + l.running >= laneCap + batchSize;

  const lane = (key: string): Lane => {
    let l = lanes.get(key);
    if (!l) lanes.set(key, (l = { queue: [], running: 0, held: 0 }));
    return l;
  };

  /** Starts queued attempts, lanes taking turns, PRODUCTION lanes first, within each lane's cap. */
  function pump() {
    if (stopped) return;
    const keys = [...lanes.keys()].filter((k) => lanes.get(k)!.queue.length > 0);
    if (keys.length === 0) return;
    const rotate = (list: string[]) => {
      const at = list.length === 0 ? 0 : turn % list.length;
      return [...list.slice(at), ...list.slice(0, at)];
    };
    const order = [...rotate(keys.filter((k) => k.endsWith('|PRODUCTION'))), ...rotate(keys.filter((k) => !k.endsWith('|PRODUCTION')))];
    turn++;
    for (let progress = true; progress;) {
      progress = false;
      for (const key of order) {
        const l = lanes.get(key)!;
        if (runningTotal >= cap) return;
        if (l.queue.length === 0 || l.running >= laneCap) continue;
        const prepared = l.queue.shift()!;
        l.running++;
        runningTotal++;
        progress = true;
        const task = opts.worker.run(prepared, circuit).then(
          (finished) => {
            const wasBusy = busy(l);
            l.running--;
            runningTotal--;
            if (wasBusy && !busy(l)) wake();
            toRecord.push({ lane: key, finished });
            flush();
            pump(); // the slot is free: the lane's next attempt need not wait for this one's record
          },
          (err) => {
            // run() does not throw for an attempt; anything else keeps its lease and comes back after it.
            const wasBusy = busy(l);
            l.running--;
            runningTotal--;
            if (wasBusy && !busy(l)) wake();
            onError(err);
            release(key);
          },
        );
        running.add(task);
        void task.finally(() => running.delete(task));
      }
    }
  }

  function release(key: string, n = 1) {
    const l = lanes.get(key);
    if (l) {
      l.held -= n;
      if (l.held <= 0 && l.queue.length === 0 && l.running === 0) lanes.delete(key);
    }
    // Claims wait for room only when they were stopped by the cap.
    if (held >= maxHeld && held - n < maxHeld) wake();
    held -= n;
  }

  /** Records what finished, several per transaction, one transaction at a time. */
  function flush() {
    if (recording || toRecord.length === 0) return;
    recording = (async () => {
      while (toRecord.length > 0) {
        const batch = toRecord.splice(0, toRecord.length);
        await opts.worker.recordAll(
          batch.map((b) => b.finished),
          onError,
        );
        for (const b of batch) release(b.lane);
      }
    })().finally(() => {
      recording = undefined;
      pump();
    });
  }

  const loop = (async () => {
    while (!stopped) {
      let more = false;
      try {
        const free = maxHeld - held;
        if (free > 0) {
          const skipLanes = [...lanes.entries()].filter(([, l]) => busy(l)).map(([k]) => k);
          const limit = Math.min(free, batchSize);
          const claimed = await opts.jobs.claimBatch([DELIVER_JOB], DELIVERY_LEASE_MS, limit, { skipLanes });
          lastClaimAt = Date.now();
          if (claimed.length > 0) {
            const prepared = await opts.worker.prepare(claimed);
            for (const p of prepared) {
              const l = lane(laneOfPrepared(p));
              l.queue.push(p);
              l.held++;
              held++;
            }
            pump();
          }
          more = claimed.length === limit && held < maxHeld;
        }
      } catch (err) {
        onError(err);
        await sleep(Math.max(idleMs, 1000));
        continue;
      }
      if (!more) {
        await sleep(idleMs);
        // Wakes come with every enqueued job: a claim that found less than it could take is
        // repeated at most every claimIntervalMs, so jobs enqueued meanwhile are claimed together.
        const wait = lastClaimAt + claimIntervalMs - Date.now();
        if (wait > 0 && !stopped) await new Promise((r) => setTimeout(r, wait));
      }
    }
  })();

  return {
    /** Something became due (a job was enqueued): claim now. */
    wake,
    /** Attempts running and queued on this node. */
    load: () => ({ held, lanes: lanes.size }),
    circuit,
    async stop() {
      stopped = true;
      wake();
      await loop;
      // Queued jobs go back unattempted (another node, or this one restarted, takes them at once);
      // attempts under way finish and are recorded.
      const queued = [...lanes.values()].flatMap((l) => l.queue.splice(0, l.queue.length));
      if (queued.length > 0) {
        try {
          await opts.jobs.release(queued.map((p) => p.job));
        } catch (err) {
          onError(err); // they come back when their lease ends
        }
      }
      while (running.size > 0 || recording) {
        await Promise.all([...running]);
        await recording;
      }
    },
  };
}

export type Dispatcher = ReturnType<typeof startDispatcher>;

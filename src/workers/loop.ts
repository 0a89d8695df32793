/**
 * One generic worker loop: process while there is work, sleep when idle (woken early by wake()),
 * stop cleanly. Errors are logged and the loop goes on after a pause: a bad job must not stop
 * every other job.
 */
/** The longest pause after a failed unit of work. */
const ERROR_PAUSE_MAX_MS = 5000;

export interface WorkerOptions {
  name: string;
  /** Does one unit of work; returns whether there was any. */
  processNext: () => Promise<boolean>;
  idleMs?: number;
  onError?: (err: unknown) => void;
}

export interface Worker {
  wake(): void;
  stop(): Promise<void>;
}

export function startWorker(opts: WorkerOptions): Worker {
  const idleMs = opts.idleMs ?? 250;
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wakeUp = resolve;
      timer = setTimeout(resolve, ms);
    }).finally(() => {
      clearTimeout(timer);
      wakeUp = undefined;
    });

  const done = (async () => {
    while (!stopped) {
      try {
        if (!(await opts.processNext())) await sleep(idleMs);
      } catch (err) {
        opts.onError?.(err);
        // A pause, not the idle time: a loop that looks rarely (retention: every 10 minutes)
        // tries a failed pass again in seconds, once the database is back.
        await sleep(Math.min(Math.max(idleMs, 1000), ERROR_PAUSE_MAX_MS));
      }
    }
  })();

  return {
    wake() {
      wakeUp?.();
    },
    async stop() {
      stopped = true;
      wakeUp?.();
      await done;
    },
  };
}

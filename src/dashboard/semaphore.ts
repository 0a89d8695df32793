/**
 * A counting semaphore with a bounded queue. Password hashing (argon2, ~100 ms and 19 MiB each)
 * runs on libuv's thread pool, the same four threads that flush the SQLite write-ahead log; without
 * a bound, a burst of sign-ins would hold every thread and stall every write. `run` admits at most
 * `max` tasks at once, queues up to `maxWaiting` more in arrival order, and refuses the rest at
 * once (SemaphoreFull) so a flood costs no memory and no hashing.
 */
export class SemaphoreFull extends Error {
  constructor() {
    super('too many tasks waiting');
  }
}

export interface Semaphore {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks admitted but waiting for a slot. */
  readonly waiting: number;
}

export function createSemaphore(max: number, maxWaiting: number): Semaphore {
  if (!Number.isInteger(max) || max < 1) throw new Error('a semaphore needs at least one slot');
  let active = 0;
  const queue: Array<() => void> = [];

  function release() {
    const next = queue.shift();
    if (next)
      next(); // the slot passes straight to the next task: `active` stays the same
    else active -= 1;
  }

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < max) {
        active += 1;
      } else {
        if (queue.length >= maxWaiting) throw new SemaphoreFull();
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

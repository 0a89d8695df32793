import { describe, expect, it } from 'vitest';
import { createSemaphore, SemaphoreFull } from './semaphore.js';

/** A task that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, task: () => opened };
}

describe('semaphore', () => {
  it('runs at most `max` tasks at once, queues `maxWaiting` more in order and refuses the rest', async () => {
    const sem = createSemaphore(2, 2);
    const gates = Array.from({ length: 4 }, gate);
    const order: number[] = [];
    const runs = gates.map((g, i) =>
      sem.run(async () => {
        order.push(i);
        await g.task();
      }),
    );
    await Promise.resolve();
    expect(sem.active).toBe(2);
    expect(sem.waiting).toBe(2);
    expect(order).toEqual([0, 1]);
    await expect(sem.run(async () => 'never')).rejects.toBeInstanceOf(SemaphoreFull);

    gates[1].open();
    await runs[1];
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([0, 1, 2]);
    expect(sem.active).toBe(2);
    expect(sem.waiting).toBe(1);
    for (const g of gates) g.open();
    await Promise.all(runs);
    expect(sem.active).toBe(0);
    expect(sem.waiting).toBe(0);
  });

  it('frees the slot when a task fails', async () => {
    const sem = createSemaphore(1, 0);
    await expect(
      sem.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await sem.run(async () => 'next')).toBe('next');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWorker } from './loop.js';

describe('startWorker', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('tries a failed unit again within seconds, however long the loop idles', async () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const errors: unknown[] = [];
    const worker = startWorker({
      name: 'rare',
      idleMs: 600_000,
      onError: (e) => errors.push(e),
      processNext: async () => {
        calls.push(Date.now());
        if (calls.length === 1) throw new Error('database unavailable');
        return false;
      },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(2);
    // Then it idles for its own interval.
    await vi.advanceTimersByTimeAsync(599_000);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toHaveLength(3);
    const stopped = worker.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });

  it('pauses a loop that idles briefly for at least a second after a failure', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const worker = startWorker({
      name: 'busy',
      idleMs: 10,
      processNext: async () => {
        calls++;
        throw new Error('still failing');
      },
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toBe(2);
    const stopped = worker.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });
});

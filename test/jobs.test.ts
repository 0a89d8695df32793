import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { testContext } from './helpers/context.js';

describe('durable jobs', async () => {
  const clock = manualClock(new Date('2026-09-01T00:00:00.000Z'));
  const ctx = await testContext({ clock });
  const { jobs, db } = ctx.container;
  const enqueue = (kind: string, subject?: string, runAt?: Date) => db.tx((trx) => jobs.enqueue(trx, { kind, subject, runAt, payload: { kind } }));

  it('runs the jobs of one subject one at a time, in order, and leaves others free', async () => {
    await enqueue('t.order', 'order:1');
    await enqueue('t.order', 'order:1');
    await enqueue('t.order', 'order:2');
    const first = await jobs.claimNext(['t.order'], 60_000);
    const second = await jobs.claimNext(['t.order'], 60_000);
    expect(first?.subject).toBe('order:1');
    expect(second?.subject).toBe('order:2');
    expect(await jobs.claimNext(['t.order'], 60_000)).toBeUndefined(); // order:1's next waits for its first
    await jobs.complete(first!);
    const third = await jobs.claimNext(['t.order'], 60_000);
    expect(third?.subject).toBe('order:1');
    await jobs.complete(second!);
    await jobs.complete(third!);
  });

  it('hands a job whose lease ran out to the next claimer, and waits for run_at', async () => {
    await enqueue('t.lease');
    const claimed = await jobs.claimNext(['t.lease'], 1_000);
    expect(claimed?.attempts).toBe(1);
    expect(await jobs.claimNext(['t.lease'], 1_000)).toBeUndefined();
    clock.advance(1_001);
    const again = await jobs.claimNext(['t.lease'], 1_000);
    expect(again?.id).toBe(claimed?.id);
    expect(again?.attempts).toBe(2);
    await jobs.retry(again!, new Date(clock.now().getTime() + 60_000), 'boom');
    expect(await jobs.claimNext(['t.lease'], 1_000)).toBeUndefined();
    clock.advance(60_000);
    const third = await jobs.claimNext(['t.lease'], 1_000);
    expect(third?.attempts).toBe(3);
    await jobs.complete(third!);
  });

  it('wakes only the loops of a kind that is due now', async () => {
    const woken: string[] = [];
    const offA = ctx.container.onJobEnqueued(['t.a'], () => woken.push('a'));
    const offB = ctx.container.onJobEnqueued(['t.b'], () => woken.push('b'));
    await enqueue('t.a');
    await new Promise((r) => setTimeout(r, 30));
    expect(woken).toEqual(['a']);
    woken.length = 0;
    await enqueue('t.b', undefined, new Date(clock.now().getTime() + 3_600_000)); // due in an hour: the idle poll finds it
    await new Promise((r) => setTimeout(r, 30));
    expect(woken).toEqual([]);
    offA();
    offB();
  });
});

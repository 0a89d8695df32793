import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { testContext } from './helpers/context.js';

describe('durable jobs', async () => {
  const clock = manualClock(new Date('2026-09-01T00:00:00.000Z'));
  const ctx = await testContext({ clock });
  const { jobs, db } = ctx.container;
  const enqueue = async (kind: string, subject?: string, runAt?: Date) => (await db.tx(() => jobs.enqueue({ kind, subject, runAt, payload: { kind } })))[0];

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

  it('keeps the jobs waiting behind a retried one out of the due set until it runs again', async () => {
    const runAtOf = async (id: string) => (await db.executor().selectFrom('jobs').select('run_at').where('id', '=', id).executeTakeFirstOrThrow()).run_at;
    await enqueue('t.wait', 'wait:1');
    const second = await enqueue('t.wait', 'wait:1');
    const head = await jobs.claimNext(['t.wait'], 60_000);
    const later = new Date(clock.now().getTime() + 3_600_000);
    await jobs.retry(head!, later, 'receiver down');
    // The waiting job is not due before its predecessor, and neither is one enqueued meanwhile.
    expect(await runAtOf(second)).toBe(later.toISOString());
    const third = await enqueue('t.wait', 'wait:1');
    expect(await runAtOf(third)).toBe(later.toISOString());
    expect(await jobs.nextDue(['t.wait'])).toEqual(later);
    // A later run time of its own is kept; other subjects are untouched.
    const own = await enqueue('t.wait', 'wait:1', new Date(later.getTime() + 60_000));
    expect(await runAtOf(own)).toBe(new Date(later.getTime() + 60_000).toISOString());
    const free = await enqueue('t.wait', 'wait:2');
    expect(await runAtOf(free)).toBe(clock.now().toISOString());
    // When its time comes the chain runs in order as before.
    const other = await jobs.claimNext(['t.wait'], 60_000);
    expect(other?.id).toBe(free);
    await jobs.complete(other!);
    clock.set(later);
    const order: string[] = [];
    for (let job = await jobs.claimNext(['t.wait'], 60_000); job; job = await jobs.claimNext(['t.wait'], 60_000)) {
      order.push(job.id);
      await jobs.complete(job);
      if (order.length === 3) clock.advance(60_000);
    }
    expect(order).toEqual([head!.id, second, third, own]);
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

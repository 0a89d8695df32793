import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { createContainer } from '../src/container.js';
import { loadConfig } from '../src/config.js';
import { DELIVER_JOB } from '../src/events/types.js';
import { TEST_KEK, testContext } from './helpers/context.js';
import { cli, serverEnvironment } from './helpers/server.js';

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

describe('dead-lettered jobs', async () => {
  const clock = manualClock(new Date('2026-09-01T00:00:00.000Z'));
  const ctx = await testContext({ clock, env: { JOB_MAX_ATTEMPTS: '3' } });
  const { jobs, db } = ctx.container;
  const enqueue = async (kind: string, subject?: string) => (await db.tx(() => jobs.enqueue({ kind, subject, payload: { kind } })))[0];
  /** Claims the job and fails it, as a worker whose handler throws would. */
  const fail = async (kind: string) => {
    const job = await jobs.claimNext([kind], 60_000);
    if (!job) throw new Error(`no ${kind} job is due`);
    await jobs.retry(job, clock.now(), `attempt ${job.attempts} failed`);
    return job;
  };

  it('after JOB_MAX_ATTEMPTS failures a job is dead: not claimed, not due, listed and counted; its subject moves on', async () => {
    const poisoned = await enqueue('t.dead', 'dead:1');
    const next = await enqueue('t.dead', 'dead:1');
    for (let i = 1; i <= 3; i++) expect((await fail('t.dead')).id).toBe(poisoned);
    const dead = await jobs.dead();
    expect(dead.map((j) => [j.id, j.attempts, j.lastError])).toEqual([[poisoned, 3, 'attempt 3 failed']]);
    expect(dead[0].deadAt).toBe(clock.now().toISOString());
    expect(await jobs.deadCount()).toBe(1);
    // The job behind it is no longer held back; once it is done nothing of the kind is due.
    const after = await jobs.claimNext(['t.dead'], 60_000);
    expect(after?.id).toBe(next);
    await jobs.complete(after!);
    expect(await jobs.claimNext(['t.dead'], 60_000)).toBeUndefined();
    expect(await jobs.nextDue(['t.dead'])).toBeUndefined();
    const metrics = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^corridor_jobs_dead 1$/m);

    // The operator retries it: a fresh set of attempts, due now, first of its subject again.
    expect(await jobs.retryDead(poisoned)).toBe(true);
    expect(await jobs.retryDead(poisoned)).toBe(false);
    const later = await enqueue('t.dead', 'dead:1');
    const again = await jobs.claimNext(['t.dead'], 60_000);
    expect([again?.id, again?.attempts]).toEqual([poisoned, 1]);
    expect(await jobs.claimNext(['t.dead'], 60_000)).toBeUndefined();
    await jobs.complete(again!);
    const last = await jobs.claimNext(['t.dead'], 60_000);
    expect(last?.id).toBe(later);
    await jobs.complete(last!);
    expect(await jobs.deadCount()).toBe(0);
  });

  it('never dead-letters a webhook delivery: it ends on its own 3-day schedule', async () => {
    const id = await enqueue(DELIVER_JOB, 'endpoint:dead-letter-test');
    for (let i = 1; i <= 4; i++) {
      const job = await jobs.claimNext([DELIVER_JOB], 60_000);
      expect(job?.id).toBe(id);
      await jobs.retry(job!, clock.now(), 'webhook attempt failed');
    }
    expect(await jobs.dead()).toEqual([]);
    await jobs.complete((await jobs.claimNext([DELIVER_JOB], 60_000))!);
  });
});

describe('npx corridor jobs dead / jobs retry', () => {
  it('lists the dead jobs and gives one a fresh set of attempts', async () => {
    const { env, cleanup } = await serverEnvironment();
    const all = { ...env, CORRIDOR_KEK: TEST_KEK, JOB_MAX_ATTEMPTS: '1' };
    try {
      const container = await createContainer(loadConfig(all));
      const { jobs, db } = container;
      const [id] = await db.tx(() => jobs.enqueue({ kind: 't.cli', payload: {} }));
      const job = (await jobs.claimNext(['t.cli'], 60_000))!;
      await jobs.retry(job, new Date(), 'Error: the rail is down\n    at handler');
      await container.close();

      const human = cli(['jobs', 'dead'], all);
      expect(human.stderr).toBe('');
      expect(human.stdout).toMatch(new RegExp(`^${id} t\\.cli - attempts 1, dead since \\S+: Error: the rail is down$`, 'm'));
      const listed = cli(['jobs', 'dead', '--json'], all);
      expect(listed.stderr).toBe('');
      expect(listed.status).toBe(0);
      expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id, kind: 't.cli', attempts: 1, lastError: 'Error: the rail is down\n    at handler' });
      const retried = cli(['jobs', 'retry', id, '--json'], all);
      expect(retried.stderr).toBe('');
      expect(JSON.parse(retried.stdout)).toEqual({ id, retried: true });
      const again = cli(['jobs', 'retry', id], all);
      expect(again.status).not.toBe(0);
      expect(again.stderr).toMatch(/no dead job/);

      const after = await createContainer(loadConfig(all));
      expect(await after.jobs.dead()).toEqual([]);
      expect((await after.jobs.claimNext(['t.cli'], 60_000))?.attempts).toBe(1);
      await after.close();
    } finally {
      await cleanup();
    }
  }, 120_000);
});

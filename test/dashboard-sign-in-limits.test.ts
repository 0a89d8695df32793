/**
 * Dashboard sign-in under attack: limits per client address and per account, attempts counted
 * before the password is hashed (so concurrent guesses cannot all pass), and a bounded number
 * of password hashes at once.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { createDashboardService, FREE_ATTEMPTS, type PasswordHashing } from '../src/dashboard/service.js';
import { hashPassword, verifyPassword } from '../src/dashboard/passwords.js';
import { expectError, testContext, type TestContext } from './helpers/context.js';

const PASSWORD = 'correct horse battery staple';

async function signIn(ctx: TestContext, email: string, password: string, remoteAddress = '127.0.0.1') {
  const res = await ctx.app.inject({ method: 'POST', url: '/dashboard/api/session', remoteAddress, payload: { email, password } });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

describe('sign-in limit per client address', async () => {
  const ctx = await testContext({ env: { DASHBOARD_SIGN_IN_LIMIT_PER_ADDRESS: '5', DASHBOARD_SIGN_IN_LIMIT_PER_ACCOUNT: '0' } });
  await ctx.container.dashboard.createUser({ platformId: ctx.platform.platformId, email: 'owner@example.com', role: 'ADMIN', password: PASSWORD });

  it('a new email per try does not dodge it: the 6th attempt from one address is 429 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expectError(await signIn(ctx, `guess-${i}@example.com`, 'wrong password', '198.51.100.7'), 401, 'INVALID_CREDENTIALS');
    const limited = await signIn(ctx, 'guess-6@example.com', 'wrong password', '198.51.100.7');
    const body = expectError(limited, 429, 'TOO_MANY_SIGN_INS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(body.details.retryAfterSeconds).toBe(Number(limited.headers['retry-after']));
    // Even the right password waits from that address; another address signs in.
    expectError(await signIn(ctx, 'owner@example.com', PASSWORD, '198.51.100.7'), 429, 'TOO_MANY_SIGN_INS');
    expect((await signIn(ctx, 'owner@example.com', PASSWORD, '198.51.100.8')).status).toBe(201);
  });
});

describe('sign-in limit per account', async () => {
  const ctx = await testContext({ env: { DASHBOARD_SIGN_IN_LIMIT_PER_ADDRESS: '0', DASHBOARD_SIGN_IN_LIMIT_PER_ACCOUNT: '3' } });
  await ctx.container.dashboard.createUser({ platformId: ctx.platform.platformId, email: 'owner@example.com', role: 'ADMIN', password: PASSWORD });
  await ctx.container.dashboard.createUser({ platformId: ctx.platform.platformId, email: 'other@example.com', role: 'ADMIN', password: PASSWORD });

  it('counts attempts on one account from any address; other accounts are not affected', async () => {
    for (let i = 0; i < 3; i++) expect((await signIn(ctx, 'Owner@Example.com', PASSWORD, `203.0.113.${i + 1}`)).status).toBe(201);
    const limited = await signIn(ctx, 'owner@example.com', PASSWORD, '203.0.113.50');
    expectError(limited, 429, 'TOO_MANY_SIGN_INS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn(ctx, 'other@example.com', PASSWORD, '203.0.113.50')).status).toBe(201);
  });
});

describe('attempts are counted before the password is hashed', async () => {
  const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
  const ctx = await testContext({ clock, env: { DASHBOARD_SIGN_IN_LIMIT_PER_ADDRESS: '0', DASHBOARD_SIGN_IN_LIMIT_PER_ACCOUNT: '0' } });
  await ctx.container.dashboard.createUser({ platformId: ctx.platform.platformId, email: 'target@example.com', role: 'ADMIN', password: PASSWORD });

  it(`${FREE_ATTEMPTS * 4} guesses at once on one account: only ${FREE_ATTEMPTS} are checked, the rest wait`, async () => {
    const answers = await Promise.all(Array.from({ length: FREE_ATTEMPTS * 4 }, (_, i) => signIn(ctx, 'target@example.com', `guess ${i}`)));
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(FREE_ATTEMPTS);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(FREE_ATTEMPTS * 3);
    expectError(await signIn(ctx, 'target@example.com', PASSWORD), 429, 'TOO_MANY_ATTEMPTS');
    clock.advance(31_000);
    expect((await signIn(ctx, 'target@example.com', PASSWORD)).status).toBe(201);
  });

  it('the same for an email that has no user (the answers look alike)', async () => {
    const answers = await Promise.all(Array.from({ length: FREE_ATTEMPTS * 4 }, (_, i) => signIn(ctx, 'ghost@example.com', `guess ${i}`)));
    const codes = answers.map((a) => a.body.code);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(FREE_ATTEMPTS);
    expect(codes.filter((c) => c === 'TOO_MANY_ATTEMPTS')).toHaveLength(FREE_ATTEMPTS * 3);
  });
});

describe('password hashes at once are bounded', async () => {
  const ctx = await testContext();

  it('one hash runs, 8 wait, the rest are answered 503 SIGN_IN_BUSY at once; the waiting ones are then checked', async () => {
    // Hashing that finishes when the test says so, to see who is waiting on it.
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const passwords: PasswordHashing = {
      hash: hashPassword,
      async verify(stored, password) {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return verifyPassword(stored, password);
      },
    };
    const clock = manualClock(new Date('2026-03-01T10:00:00.000Z'));
    const dashboard = createDashboardService({ db: ctx.container.db, clock, sessionTtlMs: 3_600_000, hashConcurrency: 1, passwords });
    const attempts = Array.from({ length: 12 }, (_, i) =>
      dashboard.signIn(`someone-${i}@example.com`, 'wrong password').then(
        () => 'signed in',
        (e: { code: string }) => e.code,
      ),
    );
    // Three are refused without waiting for any hash.
    const settled: string[] = [];
    attempts.forEach((p) => void p.then((code) => settled.push(code)));
    while (settled.length < 3) await new Promise((r) => setImmediate(r));
    expect(settled).toEqual(['SIGN_IN_BUSY', 'SIGN_IN_BUSY', 'SIGN_IN_BUSY']);
    expect(releases).toHaveLength(1);
    while (settled.length < 12) {
      releases.shift()?.();
      await new Promise((r) => setImmediate(r));
    }
    expect(peak).toBe(1);
    expect((await Promise.all(attempts)).filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(9);
  });

  it('answers SIGN_IN_BUSY over HTTP as 503 with Retry-After', async () => {
    const { dashboardErrors } = await import('../src/dashboard/errors.js');
    const original = ctx.container.dashboard.signIn;
    ctx.container.dashboard.signIn = async () => {
      throw dashboardErrors.SIGN_IN_BUSY({ retryAfterSeconds: 1 });
    };
    try {
      const res = await signIn(ctx, 'a@example.com', 'whatever password');
      expectError(res, 503, 'SIGN_IN_BUSY');
      expect(res.headers['retry-after']).toBe('1');
    } finally {
      ctx.container.dashboard.signIn = original;
    }
  });
});

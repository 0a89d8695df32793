/**
 * The setting of the sandbox clock tests: real time is a manual clock that moves only when a test
 * moves it, SANDBOX_TIME_SCALE is 1 (the spec's delays are whole), the ledger verifies after each
 * test, and each platform gets its own clock and a webhook receiver as its endpoint.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { manualClock } from '../../src/common/clock.js';
import { call, testContext, type TestContext, type TestPlatform } from './context.js';
import { expectLedgerBalanced } from './ledger.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export function clockedSuite(platformName: string) {
  const clock = manualClock(new Date('2026-03-01T12:00:00.000Z'));
  const receivers: WebhookReceiver[] = [];
  const suite = {
    clock,
    /** Set before the file's own beforeAll hooks run. */
    ctx: undefined as unknown as TestContext,
    /** A platform of its own (so its clock is its own) with a receiver as its webhook endpoint. */
    async platform(): Promise<TestPlatform & { receiver: WebhookReceiver }> {
      const p = await suite.ctx.newPlatform(platformName);
      const config = (await call(suite.ctx, 'GET', '/config', { auth: p.auth })).body;
      const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
      receivers.push(receiver);
      expect((await call(suite.ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: receiver.url } })).status).toBe(200);
      return { ...p, receiver };
    },
  };
  beforeAll(async () => {
    suite.ctx = await testContext({ clock, env: { SANDBOX_TIME_SCALE: '1' } });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
  });
  afterEach(() => expectLedgerBalanced(suite.ctx));
  return suite;
}

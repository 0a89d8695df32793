/**
 * Helpers for payment tests: accounts ready to pay, quotes, draining the payment and webhook
 * workers under a manual clock, and the webhook sequence a receiver saw for one transaction.
 */
import { expect } from 'vitest';
import { accountBody, createAccount } from './external-accounts.js';
import { call, type TestContext } from './context.js';
import { customerWithAccounts, fund } from './ledger.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** Registers an external account of this type whose identifier ends in `suffix`; returns its body. */
export async function externalAccount(
  ctx: TestContext,
  accountType: string,
  suffix = '000',
  opts: { customerId?: string; auth?: string; variant?: string } = {},
) {
  const body = accountBody(accountType, suffix, opts.variant, opts.customerId ? { customerId: opts.customerId } : {});
  const res = await createAccount(ctx, body, { auth: opts.auth });
  if (res.status !== 201) throw new Error(`external account: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A customer with internal accounts in these currencies, the first one funded with `amount`. */
export async function fundedCustomer(ctx: TestContext, currencies: string[], amount: number, auth?: string) {
  const c = await customerWithAccounts(ctx, currencies, { auth });
  if (amount > 0) {
    const r = await fund(ctx, c.accounts[currencies[0]].id, amount, auth);
    if (r.status !== 200) throw new Error(`fund: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return c;
}

export async function balance(ctx: TestContext, accountId: string, auth?: string): Promise<number> {
  const r = await call(ctx, 'GET', `/internal-accounts/${accountId}`, { auth });
  return r.body.balance.amount;
}

/** A prefunded quote from an internal account to an external account. */
export function quoteFromAccount(
  ctx: TestContext,
  sourceAccountId: string,
  destinationAccountId: string,
  amount: number,
  extra: Record<string, unknown> = {},
  auth?: string,
) {
  return call(ctx, 'POST', '/quotes', {
    auth,
    body: {
      source: { sourceType: 'ACCOUNT', accountId: sourceAccountId },
      destination: { destinationType: 'ACCOUNT', accountId: destinationAccountId },
      lockedCurrencySide: 'SENDING',
      lockedCurrencyAmount: amount,
      ...extra,
    },
  });
}

/** Runs due payment jobs (timed outcomes, expiries) until none is due; returns how many ran. */
export async function drainPayments(ctx: TestContext): Promise<number> {
  let n = 0;
  while (await ctx.container.payments.engine.processNext()) n++;
  return n;
}

export async function drainWebhooks(ctx: TestContext): Promise<void> {
  while (await ctx.container.webhooks.worker.processNext());
}

/** A receiver configured as the platform's webhook endpoint, checking signatures at the test clock. */
export async function webhookReceiver(ctx: TestContext, now: () => number = Date.now): Promise<WebhookReceiver> {
  const publicKeyPem = (await call(ctx, 'GET', '/config')).body.webhookPublicKey;
  const receiver = await startWebhookReceiver({ publicKeyPem, now });
  const r = await call(ctx, 'PATCH', '/config', { body: { webhookEndpoint: receiver.url } });
  expect(r.status).toBe(200);
  return receiver;
}

/** The statuses of one transaction's webhooks, in delivery order (after delivering every due one). */
export async function webhookStatuses(ctx: TestContext, receiver: WebhookReceiver, transactionId: string, type = 'OUTGOING_PAYMENT'): Promise<string[]> {
  await drainWebhooks(ctx);
  const events = receiver.accepted().filter((e) => e.transaction?.id === transactionId);
  for (const e of events) expect(e.type).toBe(type);
  expect(receiver.requests.every((r) => r.verified)).toBe(true);
  return events.map((e) => e.transaction.status);
}

export async function getTransaction(ctx: TestContext, id: string, auth?: string) {
  const r = await call(ctx, 'GET', `/transactions/${id}`, { auth });
  expect(r.status).toBe(200);
  return r.body;
}

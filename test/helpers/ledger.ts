import { expect } from 'vitest';
import { verifyLedger } from '../../src/ledger/verify.js';
import type { TestContext } from './context.js';
import { call } from './context.js';

/**
 * Every money-moving test ends with this: the ledger recomputed from its transfers matches the
 * stored balances, every journal and (scope, currency) sums to zero, and no customer or platform
 * balance is below zero (verifyLedger reports all of these).
 */
export async function expectLedgerBalanced(ctx: TestContext): Promise<void> {
  const problems = await verifyLedger(ctx.container.db);
  expect(problems).toEqual([]);
}

/** Creates a customer with these currencies and returns it with its internal accounts by currency. */
export async function customerWithAccounts(ctx: TestContext, currencies: string[], opts: { auth?: string; platformCustomerId?: string } = {}) {
  const created = await call(ctx, 'POST', '/customers', {
    auth: opts.auth,
    body: {
      platformCustomerId: opts.platformCustomerId ?? `c-${Math.random().toString(36).slice(2)}`,
      customerType: 'INDIVIDUAL',
      fullName: 'Ada Lovelace',
      currencies,
    },
  });
  if (created.status !== 201) throw new Error(`customer not created: ${created.status} ${JSON.stringify(created.body)}`);
  const list = await call(ctx, 'GET', '/customers/internal-accounts', { auth: opts.auth, query: { customerId: created.body.id, limit: 100 } });
  const accounts: Record<string, any> = {};
  for (const a of list.body.data) accounts[a.balance.currency.code] = a;
  return { customer: created.body, accounts };
}

/** Funds an internal account through the sandbox route; returns the response. */
export function fund(ctx: TestContext, accountId: string, amount: number, auth?: string) {
  return call(ctx, 'POST', `/sandbox/internal-accounts/${accountId}/fund`, { auth, body: { amount } });
}

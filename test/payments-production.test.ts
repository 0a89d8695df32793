/**
 * PRODUCTION: the manual rail (payments wait in PROCESSING until an operator settles or fails
 * them, as `npx corridor payout settle|fail` does) and the operator's rate feed (RATES_FILE with
 * RATES_MAX_AGE_MS: 503 when missing or stale).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { call, expectError, TEST_KEK, testContext, type TestContext } from './helpers/context.js';
import { cli, serverEnvironment } from './helpers/server.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';

const ratesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-rates-')), 'rates.json');
const writeRates = (asOf: Date) =>
  fs.writeFileSync(ratesFile, JSON.stringify({ asOf: asOf.toISOString(), base: 'USD', rates: { EUR: '0.9', BTC: '0.00001' } }));

let ctx: TestContext;
let prod: string;
beforeAll(async () => {
  writeRates(new Date());
  ctx = await testContext({ env: { RATES_FILE: ratesFile, RATES_MAX_AGE_MS: '60000' } });
  prod = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
});

afterEach(() => expectLedgerBalanced(ctx));

/**
 * The webhooks of one transaction as the outbox stored them, oldest first (PRODUCTION endpoints
 * must be https, so no test receiver is configured here: the events wait as NO_ENDPOINT).
 */
async function outboxEvents(transactionId: string): Promise<Array<[string, string]>> {
  const rows = await ctx.container.db
    .executor()
    .selectFrom('webhook_events')
    .select(['type', 'body'])
    .where('subject', '=', transactionId)
    .orderBy('id')
    .execute();
  return rows.map((r) => [r.type, (JSON.parse(r.body) as { transaction: { status: string } }).transaction.status]);
}

/** The platform attests a PRODUCTION customer's KYC (KYC_ATTESTATION=PLATFORM, the default). */
async function approve(customerId: string, auth = prod, c = ctx) {
  const r = await call(c, 'PATCH', `/customers/${customerId}`, { auth, body: { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' } });
  if (r.status !== 200) throw new Error(`approve: ${r.status} ${JSON.stringify(r.body)}`);
}

const operate = (id: string, kind: 'COMPLETE' | 'FAIL') =>
  ctx.container.payments.engine.operate(id, kind === 'COMPLETE' ? { kind } : { kind, reason: 'OFFRAMP_FAILED', refund: 'COMPLETED' }, 'test operator');

describe('the manual rail', () => {
  it('pulls and payouts wait in PROCESSING until the operator settles or fails them', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0, prod);
    await approve(customer.id);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id, auth: prod });
    const pulled = await call(ctx, 'POST', '/transfer-in', {
      auth: prod,
      body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 10_000 },
    });
    expect(pulled.body.status).toBe('PROCESSING');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(0);
    expect((await operate(pulled.body.id, 'COMPLETE')).status).toBe('COMPLETED');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(10_000);

    const paid = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 4_000 },
    });
    expect(paid.body.status).toBe('PROCESSING');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(6_000);
    const failed = await operate(paid.body.id, 'FAIL');
    expect(failed).toMatchObject({ status: 'FAILED', failure_reason: 'OFFRAMP_FAILED' });
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(10_000);
    await expect(operate(paid.body.id, 'COMPLETE')).rejects.toMatchObject({ code: 'TRANSACTION_NOT_PROCESSING' });
    await expect(operate('Transaction:019a6f1e-8f3c-7cc1-9d6e-000000000000', 'COMPLETE')).rejects.toMatchObject({ code: 'TRANSACTION_NOT_FOUND' });
    const tx = (await call(ctx, 'GET', `/transactions/${paid.body.id}`, { auth: prod })).body;
    expect(tx.refund).toMatchObject({ status: 'COMPLETED', reason: 'TRANSACTION_FAILED' });
    expect(await outboxEvents(pulled.body.id)).toEqual([
      ['INCOMING_PAYMENT', 'PROCESSING'],
      ['INCOMING_PAYMENT', 'COMPLETED'],
    ]);
    expect(await outboxEvents(paid.body.id)).toEqual([
      ['OUTGOING_PAYMENT', 'PROCESSING'],
      ['OUTGOING_PAYMENT', 'FAILED'],
    ]);
  });

  it('an executed quote waits in PROCESSING, its funds reserved, until the operator settles it', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0, prod);
    await approve(customer.id);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id, auth: prod });
    await call(ctx, 'POST', '/transfer-in', {
      auth: prod,
      body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 20_000 },
    }).then((r) => operate(r.body.id, 'COMPLETE'));
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id, auth: prod });
    const q = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 10_000, {}, prod)).body;
    const executed = await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: prod });
    expect(executed.body.status).toBe('PROCESSING');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(10_000);
    expect((await operate(q.transactionId, 'COMPLETE')).status).toBe('COMPLETED');
    expect((await call(ctx, 'GET', `/quotes/${q.id}`, { auth: prod })).body.status).toBe('COMPLETED');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(10_000);
    expect(await outboxEvents(q.transactionId)).toEqual([
      ['OUTGOING_PAYMENT', 'PROCESSING'],
      ['OUTGOING_PAYMENT', 'COMPLETED'],
    ]);
  });

  it('quotes are priced from the rates file; a stale file answers 503 RATES_STALE; JIT funding is refused', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0, prod);
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id, auth: prod });
    const q = await quoteFromAccount(ctx, accounts.USD.id, iban.id, 10_000, {}, prod);
    expect(q.status).toBe(201);
    expect(q.body.totalReceivingAmount).toBe(8973); // (10000 − 30) × 0.9
    expectError(
      await quoteFromAccount(
        ctx,
        accounts.USD.id,
        iban.id,
        10_000,
        { lockedCurrencySide: 'SENDING', destination: { accountId: iban.id }, source: { customerId: customer.id, currency: 'USD' } },
        prod,
      ),
      400,
      'INVALID_INPUT',
    );
    writeRates(new Date(Date.now() - 120_000));
    const stale = expectError(await quoteFromAccount(ctx, accounts.USD.id, iban.id, 10_000, {}, prod), 503, 'RATES_STALE');
    expect(stale.details).toMatchObject({ base: 'USD', quote: 'EUR' });
    // The sandbox keeps its own fixed table.
    const sandbox = await fundedCustomer(ctx, ['USD'], 0);
    const sandboxIban = await externalAccount(ctx, 'IBAN', '000', { customerId: sandbox.customer.id });
    expect((await quoteFromAccount(ctx, sandbox.accounts.USD.id, sandboxIban.id, 10_000)).body.totalReceivingAmount).toBe(9172);
  });
});

describe('PRODUCTION money moves only for verified customers', () => {
  it('transfer-in, transfer-out and quote execution answer 400 CUSTOMER_NOT_VERIFIED until the customer is APPROVED; the attestation is audited', async () => {
    writeRates(new Date());
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0, prod);
    expect(customer.kycStatus).toBe('UNVERIFIED');
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id, auth: prod });
    const pull = () =>
      call(ctx, 'POST', '/transfer-in', { auth: prod, body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 20_000 } });
    const refused = expectError(await pull(), 400, 'CUSTOMER_NOT_VERIFIED');
    expect(refused.details).toEqual({ customerId: customer.id, field: 'kycStatus', kycStatus: 'UNVERIFIED', required: 'APPROVED' });
    expect(refused.message).toContain(customer.id);

    // PENDING is not enough either.
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { auth: prod, body: { customerType: 'INDIVIDUAL', kycStatus: 'PENDING' } });
    expectError(await pull(), 400, 'CUSTOMER_NOT_VERIFIED');
    await approve(customer.id);
    const pulled = await pull();
    expect(pulled.body.status).toBe('PROCESSING');
    await operate(pulled.body.id, 'COMPLETE');
    const entries = (await ctx.container.db.executor().selectFrom('audit_log').selectAll().where('target', '=', customer.id).orderBy('id').execute()).map(
      (e) => [e.actor_type, e.action, e.platform_id, e.environment, JSON.parse(e.details!)],
    );
    expect(entries).toEqual([
      ['TOKEN', 'customer kyc', ctx.platform.platformId, 'PRODUCTION', { from: 'UNVERIFIED', to: 'PENDING' }],
      ['TOKEN', 'customer kyc', ctx.platform.platformId, 'PRODUCTION', { from: 'PENDING', to: 'APPROVED' }],
    ]);

    // A quote created while APPROVED does not execute once the customer is REJECTED, nor does a transfer-out.
    const iban = await externalAccount(ctx, 'IBAN', '000', { customerId: customer.id, auth: prod });
    const q = (await quoteFromAccount(ctx, accounts.USD.id, iban.id, 10_000, {}, prod)).body;
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { auth: prod, body: { customerType: 'INDIVIDUAL', kycStatus: 'REJECTED' } });
    expect(expectError(await call(ctx, 'POST', `/quotes/${q.id}/execute`, { auth: prod }), 400, 'CUSTOMER_NOT_VERIFIED').details).toMatchObject({
      customerId: customer.id,
      kycStatus: 'REJECTED',
    });
    expectError(
      await call(ctx, 'POST', '/transfer-out', {
        auth: prod,
        body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 1_000 },
      }),
      400,
      'CUSTOMER_NOT_VERIFIED',
    );
    expectError(await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000, { immediatelyExecute: true }, prod), 400, 'CUSTOMER_NOT_VERIFIED');
    expect(await balance(ctx, accounts.USD.id, prod)).toBe(20_000);
  });

  it('the sandbox is unchanged: its customers pay without an attestation', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 5_000);
    await call(ctx, 'PATCH', `/customers/${customer.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'REJECTED' } });
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const paid = await call(ctx, 'POST', '/transfer-out', {
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: bank.id }, amount: 1_000 },
    });
    expect(paid.status).toBe(201);
  });

  it('KYC_ATTESTATION=OPERATOR: a PRODUCTION token may not set kycStatus (403); the operator does', async () => {
    const op = await testContext({ env: { RATES_FILE: ratesFile, RATES_MAX_AGE_MS: '60000', KYC_ATTESTATION: 'OPERATOR' } });
    const token = await op.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    const { customer, accounts } = await fundedCustomer(op, ['USD'], 0, token);
    const patch = await call(op, 'PATCH', `/customers/${customer.id}`, { auth: token, body: { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' } });
    expect(expectError(patch, 403, 'KYC_ATTESTED_BY_OPERATOR').details).toEqual({ customerId: customer.id, field: 'kycStatus' });
    // Other fields stay the platform's; the sandbox keeps its PATCH.
    expect((await call(op, 'PATCH', `/customers/${customer.id}`, { auth: token, body: { customerType: 'INDIVIDUAL', fullName: 'Ada King' } })).status).toBe(
      200,
    );
    const sandbox = await fundedCustomer(op, ['USD'], 0);
    expect((await call(op, 'PATCH', `/customers/${sandbox.customer.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'REJECTED' } })).status).toBe(200);

    const bank = await externalAccount(op, 'US_ACCOUNT', '000', { customerId: customer.id, auth: token });
    const pull = () =>
      call(op, 'POST', '/transfer-in', { auth: token, body: { source: { accountId: bank.id }, destination: { accountId: accounts.USD.id }, amount: 700 } });
    expectError(await pull(), 400, 'CUSTOMER_NOT_VERIFIED');
    expect(await op.container.services.customers.attestKyc(customer.id, 'APPROVED')).toMatchObject({ kycStatus: 'APPROVED', previousKycStatus: 'UNVERIFIED' });
    expect((await pull()).body.status).toBe('PROCESSING');
  });
});

describe('npx corridor customer kyc', () => {
  it("sets a customer's kycStatus in any scope, refusing unknown customers; the command is audited", async () => {
    const { env, cleanup } = await serverEnvironment();
    const all = { ...env, CORRIDOR_KEK: TEST_KEK, KYC_ATTESTATION: 'OPERATOR' };
    try {
      const container = await createContainer(loadConfig(all));
      const platform = await container.services.platforms.create('Attested');
      const scope = { platformId: platform.id, environment: 'PRODUCTION' as const };
      const customer = await container.services.customers.create(scope, { platformCustomerId: 'kyc-1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' });
      await container.close();

      const done = cli(['customer', 'kyc', '--customer', customer.id, '--status', 'APPROVED', '--json'], all);
      expect(done.stderr).toBe('');
      expect(JSON.parse(done.stdout)).toEqual({ customerId: customer.id, kycStatus: 'APPROVED', previousKycStatus: 'UNVERIFIED' });
      const unknown = cli(['customer', 'kyc', '--customer', 'Customer:019a6f1e-8f3c-7cc1-9d6e-000000000000', '--status', 'REJECTED'], all);
      expect(unknown.status).not.toBe(0);
      expect(unknown.stderr).toMatch(/No customer/);

      const after = await createContainer(loadConfig(all));
      expect((await after.services.customers.get(scope, customer.id)).kycStatus).toBe('APPROVED');
      const entries = await after.db.executor().selectFrom('audit_log').select(['actor_type', 'action', 'outcome']).orderBy('id').execute();
      expect(entries.map((e) => [e.actor_type, e.action, e.outcome])).toEqual([
        ['OPERATOR', 'customer kyc', 'SUCCEEDED'],
        ['OPERATOR', 'customer kyc', 'FAILED'],
      ]);
      await after.close();
    } finally {
      await cleanup();
    }
  }, 120_000);
});

describe('without a production rate source', () => {
  it('production quotes answer 503 RATE_UNAVAILABLE', async () => {
    const bare = await testContext();
    const token = await bare.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    const { customer, accounts } = await fundedCustomer(bare, ['USD'], 0, token);
    const iban = await externalAccount(bare, 'IBAN', '000', { customerId: customer.id, auth: token });
    expectError(await quoteFromAccount(bare, accounts.USD.id, iban.id, 10_000, {}, token), 503, 'RATE_UNAVAILABLE');
  });
});

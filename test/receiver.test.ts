/**
 * Receiver lookups: UMA addresses of any platform hosted here resolve (without exposing the
 * other platform's ids), remote and unknown addresses fail clearly, external accounts of the
 * caller's platform only; the receiving platform's configuration decides the payer data asked.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
import { createResolver, type Resolver } from '../src/modules/receiver/resolver.js';

let ctx: TestContext;
let b: TestPlatform;
let bDomain: string;

async function customerOf(auth: string, local: string, domain: string, currencies: string[]) {
  const r = await call(ctx, 'POST', '/customers', {
    auth,
    body: {
      platformCustomerId: `r-${Math.random().toString(36).slice(2)}`,
      customerType: 'INDIVIDUAL',
      fullName: 'Bea Receiver',
      currencies,
      umaAddress: `$${local}@${domain}`,
    },
  });
  expect(r.status).toBe(201);
  return r.body;
}

beforeAll(async () => {
  ctx = await testContext();
  b = await ctx.newPlatform('Beta');
  bDomain = (await call(ctx, 'GET', '/config', { auth: b.auth })).body.umaDomain;
});

describe('receiver configuration (GET/PATCH /config)', () => {
  it('defaults, partial updates and validation', async () => {
    const fresh = (await call(ctx, 'GET', '/config', { auth: b.auth })).body;
    expect(fresh.requiredPayerDataFields).toEqual([]);
    expect(fresh.incomingPaymentApproval).toEqual({ required: false, requestedReceiverCustomerInfoFields: [], windowSeconds: 600 });
    const r = await call(ctx, 'PATCH', '/config', {
      auth: b.auth,
      body: { requiredPayerDataFields: ['FULL_NAME', 'BIRTH_DATE'], incomingPaymentApproval: { windowSeconds: 120 } },
    });
    expect(r.status).toBe(200);
    expect(r.body.requiredPayerDataFields).toEqual(['FULL_NAME', 'BIRTH_DATE']);
    expect(r.body.incomingPaymentApproval).toEqual({ required: false, requestedReceiverCustomerInfoFields: [], windowSeconds: 120 });
    const r2 = await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { incomingPaymentApproval: { required: true } } });
    expect(r2.body.incomingPaymentApproval).toEqual({ required: true, requestedReceiverCustomerInfoFields: [], windowSeconds: 120 });
    const bad = expectError(await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { requiredPayerDataFields: ['SHOE_SIZE'] } }), 400, 'INVALID_INPUT');
    expect(bad.details.fields[0].field).toMatch(/^requiredPayerDataFields/);
    expectError(await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { incomingPaymentApproval: { windowSeconds: 5 } } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { incomingPaymentApproval: { sometimes: true } } }), 400, 'INVALID_INPUT');
    // Nothing changed by the refused requests; restore for the lookups below.
    const after = await call(ctx, 'PATCH', '/config', {
      auth: b.auth,
      body: { requiredPayerDataFields: ['FULL_NAME', 'NATIONALITY'], incomingPaymentApproval: { required: false, windowSeconds: 600 } },
    });
    expect(after.body.incomingPaymentApproval.windowSeconds).toBe(600);
  });
});

describe('GET /receiver/uma/{receiverUmaAddress}', () => {
  it("resolves another platform's customer: currencies, indicative rates, limits, payer data; no internal ids", async () => {
    await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { currencies: [{ currencyCode: 'EUR', minAmount: 100, maxAmount: 500_000 }] } });
    const bob = await customerOf(b.auth, 'bob.lookup', bDomain, ['EUR', 'USD']);
    const r = await call(ctx, 'GET', `/receiver/uma/${bob.umaAddress}`, { query: { sendingCurrency: 'USD' } });
    expect(r.status).toBe(200);
    expect(r.body.id).toMatch(/^Lookup:/);
    expect(r.body.receiverUmaAddress).toBe(bob.umaAddress);
    expect(r.body.requiredPayerDataFields).toEqual(['FULL_NAME', 'NATIONALITY']);
    expect(r.body.sendingCurrency.code).toBe('USD');
    const byCode = Object.fromEntries(r.body.supportedCurrencies.map((c: any) => [c.currency.code, c]));
    expect(Object.keys(byCode).sort()).toEqual(['EUR', 'USD']);
    expect(byCode.EUR).toMatchObject({ minAmount: 100, maxAmount: 500_000 });
    expect(byCode.EUR.estimatedExchangeRate).toBeGreaterThan(0.5);
    expect(byCode.EUR.estimatedExchangeRate).toBeLessThan(2);
    expect(byCode.USD).toEqual({ currency: expect.objectContaining({ code: 'USD' }), estimatedExchangeRate: 1 });
    expect(Date.parse(r.body.expiresAt) - Date.parse(r.body.createdAt)).toBe(5 * 60_000);
    const text = JSON.stringify(r.body);
    expect(text).not.toContain(b.platformId);
    expect(text).not.toContain(bob.id);
    // URL-encoded and upper-case spellings name the same receiver.
    const encoded = await call(ctx, 'GET', `/receiver/uma/${encodeURIComponent(bob.umaAddress.toUpperCase())}`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.receiverUmaAddress).toBe(bob.umaAddress);
    // A VIEW token may look up.
    expect((await call(ctx, 'GET', `/receiver/uma/${bob.umaAddress}`, { auth: await ctx.platform.token(['VIEW']) })).status).toBe(200);
  });

  it('unknown, deleted, malformed, remote, other-environment and sandbox-002 addresses', async () => {
    const nf = expectError(await call(ctx, 'GET', `/receiver/uma/$nobody@${bDomain}`), 404, 'UMA_ADDRESS_NOT_FOUND');
    expect(nf.details.umaAddress).toBe(`$nobody@${bDomain}`);
    const gone = await customerOf(b.auth, 'gone', bDomain, ['USD']);
    await call(ctx, 'DELETE', `/customers/${gone.id}`, { auth: b.auth });
    expectError(await call(ctx, 'GET', `/receiver/uma/${gone.umaAddress}`), 404, 'UMA_ADDRESS_NOT_FOUND');
    for (const bad of ['alice@example.com', '$@example.com', '$alice', '$al ice@example.com']) {
      const e = expectError(await call(ctx, 'GET', `/receiver/uma/${encodeURIComponent(bad)}`), 400, 'INVALID_INPUT');
      expect(e.details.fields[0]).toMatchObject({ field: 'receiverUmaAddress', in: 'path' });
    }
    const remote = expectError(await call(ctx, 'GET', '/receiver/uma/$alice@wallet.example.com'), 400, 'LOOKUP_REQUEST_FAILED');
    expect(remote.details).toMatchObject({ umaAddress: '$alice@wallet.example.com', domain: 'wallet.example.com' });
    // A sandbox address is not reachable from production (and is not a remote provider either).
    const bob = await customerOf(b.auth, 'bob.env', bDomain, ['USD']);
    const prod = await ctx.platform.token(['VIEW'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', `/receiver/uma/${bob.umaAddress}`, { auth: prod }), 404, 'UMA_ADDRESS_NOT_FOUND');
    const flaky = await customerOf(b.auth, 'flaky002', bDomain, ['USD']);
    expect(expectError(await call(ctx, 'GET', `/receiver/uma/${flaky.umaAddress}`), 400, 'LOOKUP_REQUEST_FAILED').details.reason).toMatch(/002/);
    expectError(await call(ctx, 'GET', `/receiver/uma/${bob.umaAddress}`, { query: { sendingCurrency: 'XXX' } }), 400, 'INVALID_INPUT');
    expectError(await call(ctx, 'GET', `/receiver/uma/${bob.umaAddress}`, { auth: null }), 401, 'UNAUTHORIZED');
  });
});

describe('GET /receiver/external-account/{accountId}', () => {
  it("an account of the caller's platform; another platform's is 404", async () => {
    await call(ctx, 'PATCH', '/config', { body: { requiredPayerDataFields: ['FULL_NAME'] } });
    const mine = await externalAccount(ctx, 'IBAN', '000');
    const r = await call(ctx, 'GET', `/receiver/external-account/${mine.id}`, { query: { sendingCurrency: 'GBP' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ accountId: mine.id, requiredPayerDataFields: ['FULL_NAME'], sendingCurrency: { code: 'GBP' } });
    expect(r.body.supportedCurrencies).toHaveLength(1);
    expect(r.body.supportedCurrencies[0].currency.code).toBe('EUR');
    expectError(await call(ctx, 'GET', `/receiver/external-account/${mine.id}`, { auth: b.auth }), 404, 'EXTERNAL_ACCOUNT_NOT_FOUND');
    expectError(await call(ctx, 'GET', '/receiver/external-account/ExternalAccount:nope'), 400, 'INVALID_INPUT');
    await call(ctx, 'DELETE', `/platform/external-accounts/${mine.id}`);
    expectError(await call(ctx, 'GET', `/receiver/external-account/${mine.id}`), 400, 'INVALID_INPUT');
  });

  it('a quote to the account naming its lookup must carry the payer data and pay the same account', async () => {
    await call(ctx, 'PATCH', '/config', { body: { requiredPayerDataFields: ['FULL_NAME', 'BIRTH_DATE'] } });
    const { accounts } = await fundedCustomer(ctx, ['USD'], 10_000);
    const iban = await externalAccount(ctx, 'IBAN', '000');
    const other = await externalAccount(ctx, 'IBAN', '000');
    const lookup = (await call(ctx, 'GET', `/receiver/external-account/${iban.id}`)).body;
    expect(lookup.requiredPayerDataFields).toEqual(['FULL_NAME', 'BIRTH_DATE']);
    const info = { FULL_NAME: 'Ada Lovelace', BIRTH_DATE: '1815-12-10' };
    const missing = expectError(
      await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000, { lookupId: lookup.id, senderCustomerInfo: { FULL_NAME: 'Ada' } }),
      400,
      'MISSING_MANDATORY_USER_INFO',
    );
    expect(missing.details).toEqual({ field: 'senderCustomerInfo', missingFields: ['BIRTH_DATE'] });
    const elsewhere = expectError(
      await quoteFromAccount(ctx, accounts.USD.id, other.id, 1_000, { lookupId: lookup.id, senderCustomerInfo: info }),
      400,
      'INVALID_INPUT',
    );
    expect(elsewhere.details.fields[0].field).toBe('lookupId');
    const ok = await quoteFromAccount(ctx, accounts.USD.id, iban.id, 1_000, { lookupId: lookup.id, senderCustomerInfo: info });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ lookupId: lookup.id, senderCustomerInfo: info });
    await call(ctx, 'PATCH', '/config', { body: { requiredPayerDataFields: [] } });
  });
});

describe('the Resolver interface (src/modules/receiver/resolver.ts)', () => {
  it('hands exactly the domains this Corridor does not host to the remote resolver', async () => {
    const asked: string[] = [];
    const remote: Resolver = {
      async resolve(_ex, _environment, address) {
        asked.push(address);
        return { address, currencies: [{ code: 'EUR', minAmount: null, maxAmount: null }], requiredPayerDataFields: ['FULL_NAME'] };
      },
    };
    const resolver = createResolver(remote);
    const ex = ctx.container.db.executor();
    const far = await resolver.resolve(ex, 'SANDBOX', '$alice@wallet.example.com');
    expect(far).toEqual({
      address: '$alice@wallet.example.com',
      currencies: [{ code: 'EUR', minAmount: null, maxAmount: null }],
      requiredPayerDataFields: ['FULL_NAME'],
    });
    const bob = await customerOf(b.auth, 'bob.resolver', bDomain, ['USD']);
    expect((await resolver.resolve(ex, 'SANDBOX', bob.umaAddress)).hosted?.customer.id).toBe(bob.id);
    // A hosted domain is never remote: not another environment's, not an unknown user of it.
    await expect(resolver.resolve(ex, 'PRODUCTION', bob.umaAddress)).rejects.toMatchObject({ code: 'UMA_ADDRESS_NOT_FOUND' });
    await expect(resolver.resolve(ex, 'SANDBOX', `$nobody@${bDomain}`)).rejects.toMatchObject({ code: 'UMA_ADDRESS_NOT_FOUND' });
    expect(asked).toEqual(['$alice@wallet.example.com']);
  });
});

/**
 * Absent, not null (D11): real responses of every resource kind, and the webhook bodies that
 * carry the same views, hold no null anywhere except the members the spec shows as null
 * (SPEC_NULL_MEMBERS: an external account's customerId when the platform owns it). A member
 * without a value is left out, as the vendor SDK's optional, non-nullable members expect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SPEC_NULL_MEMBERS } from '../src/common/absent.js';
import { call, type TestContext, testContext } from './helpers/context.js';
import { accountBody, createAccount } from './helpers/external-accounts.js';
import { business } from './helpers/factories.js';
import { drainPayments, drainWebhooks, externalAccount, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';
import { fixture, uploadDocument } from './fixtures/multipart.js';

let ctx: TestContext;
let receiver: WebhookReceiver;
beforeAll(async () => {
  ctx = await testContext();
});
afterAll(async () => {
  await receiver?.close();
});

/**
 * Every path in `value` whose value is null, as `$.a.b[0].c`. An empty string counts too: it is
 * what the serializer makes of a null given to a member declared as a string.
 */
function nullPaths(value: unknown, path = '$'): string[] {
  // A receiver's answer (responseBody) may really be empty.
  if (value === null || (value === '' && !path.endsWith('.responseBody'))) return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => nullPaths(v, `${path}[${i}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => nullPaths(v, `${path}.${k}`));
  return [];
}

/** External account objects: the body itself, a list's data entries. */
const ACCOUNT_PATHS = (member: string) => [new RegExp(`^\\$\\.${member}$`), new RegExp(`^\\$\\.data\\[\\d+\\]\\.${member}$`)];
const EXTERNAL_ACCOUNT_NULLS = SPEC_NULL_MEMBERS.ExternalAccount.flatMap(ACCOUNT_PATHS);

/** Asserts an answer of this status with no null but at the allowed paths; returns the body. */
function noNull(res: { status: number; body: any }, status: number, allowed: RegExp[] = []) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const nulls = nullPaths(res.body).filter((p) => !allowed.some((re) => re.test(p)));
  expect(nulls, JSON.stringify(res.body)).toEqual([]);
  return res.body;
}

describe('no null in responses but where the spec says null', () => {
  it('customers: a customer without birthDate, nationality, address or region leaves them out', async () => {
    const created = noNull(
      await call(ctx, 'POST', '/customers', { body: { platformCustomerId: `shape-${Date.now()}`, customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' } }),
      201,
    );
    for (const member of ['birthDate', 'nationality', 'address', 'businessInfo']) expect(created).not.toHaveProperty(member);
    noNull(await call(ctx, 'GET', `/customers/${created.id}`), 200);
    noNull(await call(ctx, 'GET', '/customers'), 200);
    noNull(await call(ctx, 'PATCH', `/customers/${created.id}`, { body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR'] } }), 200);
    const deleted = noNull(await call(ctx, 'DELETE', `/customers/${created.id}`), 200);
    expect(deleted.isDeleted).toBe(true);
  });

  it('beneficial owners and documents: no middleName, email, side or documentNumber means none in the answer', async () => {
    const company = noNull(await call(ctx, 'POST', '/customers', { body: business() }), 201);
    const owner = noNull(
      await call(ctx, 'POST', '/beneficial-owners', {
        body: {
          customerId: company.id,
          roles: ['UBO'],
          ownershipPercentage: 40,
          personalInfo: {
            firstName: 'Jane',
            lastName: 'Doe',
            birthDate: '1980-02-03',
            nationality: 'US',
            address: { line1: '1 Main St', postalCode: '10001', country: 'US' },
            idType: 'SSN',
            identifier: '123-45-6789',
          },
        },
      }),
      201,
    );
    for (const member of ['middleName', 'email', 'phoneNumber']) expect(owner.personalInfo).not.toHaveProperty(member);
    noNull(await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: company.id } }), 200);
    // null removes an optional member on PATCH; the answer then leaves it out.
    const patched = noNull(
      await call(ctx, 'PATCH', `/beneficial-owners/${owner.id}`, { body: { personalInfo: { email: 'jane@example.com', phoneNumber: null } } }),
      200,
    );
    expect(patched.personalInfo.email).toBe('jane@example.com');
    const cleared = noNull(await call(ctx, 'PATCH', `/beneficial-owners/${owner.id}`, { body: { personalInfo: { email: null } } }), 200);
    expect(cleared.personalInfo).not.toHaveProperty('email');

    const doc = noNull(
      await uploadDocument(ctx, { documentHolder: company.id, documentType: 'CERTIFICATE_OF_INCORPORATION', country: 'GB' }, [
        { fileName: 'cert.pdf', contentType: 'application/pdf', data: fixture('tiny.pdf') },
      ]),
      201,
    );
    expect(doc).not.toHaveProperty('side');
    expect(doc).not.toHaveProperty('documentNumber');
    noNull(await call(ctx, 'GET', `/documents/${doc.id}`), 200);
    noNull(await call(ctx, 'GET', '/documents', { query: { documentHolder: company.id } }), 200);
  });

  it("external accounts: the platform's own keeps customerId null (the spec); nothing else is null", async () => {
    const { customer } = await fundedCustomer(ctx, ['USD'], 0);
    const mine = noNull(await createAccount(ctx, accountBody('US_ACCOUNT', '000', undefined, { customerId: customer.id })), 201);
    expect(mine.customerId).toBe(customer.id);
    expect(mine).not.toHaveProperty('platformAccountId');
    expect(mine).not.toHaveProperty('cryptoNetwork');

    const platformOwned = noNull(
      await createAccount(ctx, accountBody('US_ACCOUNT', '000'), { path: '/platform/external-accounts' }),
      201,
      EXTERNAL_ACCOUNT_NULLS,
    );
    expect(platformOwned).toHaveProperty('customerId', null);
    const viaCustomersRoute = noNull(await createAccount(ctx, accountBody('IBAN', '000')), 201, EXTERNAL_ACCOUNT_NULLS);
    expect(viaCustomersRoute).toHaveProperty('customerId', null);

    const list = noNull(await call(ctx, 'GET', '/platform/external-accounts'), 200, EXTERNAL_ACCOUNT_NULLS);
    expect(list.data.length).toBeGreaterThan(0);
    for (const a of list.data) expect(a).toHaveProperty('customerId', null);
    noNull(await call(ctx, 'GET', '/customers/external-accounts', { query: { limit: 100 } }), 200, EXTERNAL_ACCOUNT_NULLS);
    noNull(await call(ctx, 'GET', `/customers/external-accounts/${mine.id}`), 200);
  });

  it("internal accounts: the platform's own leaves customerId out (the spec: empty)", async () => {
    const { accounts } = await fundedCustomer(ctx, ['USD'], 1_000);
    expect(noNull(await call(ctx, 'GET', `/internal-accounts/${accounts.USD.id}`), 200).customerId).toBeDefined();
    noNull(await call(ctx, 'GET', '/customers/internal-accounts', { query: { limit: 100 } }), 200);
    const platform = noNull(await call(ctx, 'GET', '/platform/internal-accounts', { query: { limit: 100 } }), 200);
    expect(platform.data.length).toBeGreaterThan(0);
    for (const a of platform.data) expect(a).not.toHaveProperty('customerId');
  });

  it('config: no webhook endpoint, no pending domain claim and no limits are left out', async () => {
    const p = await ctx.newPlatform('Shapes');
    const config = noNull(await call(ctx, 'GET', '/config', { auth: p.auth }), 200);
    expect(config).not.toHaveProperty('webhookEndpoint');
    expect(config).not.toHaveProperty('umaDomainClaim');
    for (const c of config.currencies) {
      expect(c).not.toHaveProperty('minAmount');
      expect(c).not.toHaveProperty('maxAmount');
    }
    const limited = noNull(await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { currencies: [{ currencyCode: 'USD', minAmount: 100 }] } }), 200);
    expect(limited.currencies.find((c: any) => c.currencyCode === 'USD')).toEqual({ currencyCode: 'USD', enabled: true, minAmount: 100 });
    // null on PATCH still means "none": the answer leaves it out.
    const cleared = noNull(
      await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: null, currencies: [{ currencyCode: 'USD', minAmount: null }] } }),
      200,
    );
    expect(cleared.currencies.find((c: any) => c.currencyCode === 'USD')).toEqual({ currencyCode: 'USD', enabled: true });
  });

  it('error details: a limit without a lower bound is left out of AMOUNT_OUTSIDE_LIMITS', async () => {
    const p = await ctx.newPlatform('Limits');
    noNull(await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { currencies: [{ currencyCode: 'USD', maxAmount: 500 }] } }), 200);
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 10_000, p.auth);
    const bank = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id, auth: p.auth });
    const refused = noNull(await quoteFromAccount(ctx, accounts.USD.id, bank.id, 600, {}, p.auth), 400);
    expect(refused.code).toBe('AMOUNT_OUTSIDE_LIMITS');
    expect(refused.details).toMatchObject({ currency: 'USD', amount: 600, maxAmount: 500 });
    expect(refused.details).not.toHaveProperty('minAmount');
  });

  it('tokens, discoveries, exchange rates, UMA providers and the sandbox clock hold no null', async () => {
    noNull(await call(ctx, 'GET', '/tokens'), 200);
    noNull(await call(ctx, 'GET', '/ping'), 200);
    noNull(await call(ctx, 'GET', '/discoveries', { query: { country: 'PH' } }), 200);
    noNull(await call(ctx, 'GET', '/exchange-rates', { query: { sourceCurrency: 'USD' } }), 200);
    noNull(await call(ctx, 'GET', '/uma-providers'), 200);
    noNull(await call(ctx, 'GET', '/sandbox/clock'), 200);
  });

  it('quotes, transactions, receiver lookups, incoming payments and webhook bodies hold no null', async () => {
    const publicKeyPem = (await call(ctx, 'GET', '/config')).body.webhookPublicKey;
    receiver = await startWebhookReceiver({ publicKeyPem });
    noNull(await call(ctx, 'PATCH', '/config', { body: { webhookEndpoint: receiver.url } }), 200);

    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 1_000_000);
    const payee = await externalAccount(ctx, 'US_ACCOUNT', '000', { customerId: customer.id });
    const failing = await externalAccount(ctx, 'US_ACCOUNT', '002', { customerId: customer.id });

    // Lookups: of an external account, and of the customer's own UMA address.
    noNull(await call(ctx, 'GET', `/receiver/external-account/${payee.id}`, { query: { sendingCurrency: 'USD' } }), 200);
    noNull(await call(ctx, 'GET', `/receiver/uma/${encodeURIComponent(customer.umaAddress)}`, { query: { sendingCurrency: 'USD' } }), 200);

    // A quote without description or purpose, executed; and one whose payout fails (failureReason, refund).
    const quote = noNull(await quoteFromAccount(ctx, accounts.USD.id, payee.id, 10_000), 201);
    for (const member of ['description', 'purposeOfPayment', 'failureReason', 'senderCustomerInfo', 'lookupId']) expect(quote).not.toHaveProperty(member);
    noNull(await call(ctx, 'GET', `/quotes/${quote.id}`), 200);
    const pending = noNull(await call(ctx, 'GET', `/transactions/${quote.transactionId}`), 200);
    for (const member of ['settledAt', 'failureReason', 'refund', 'description']) expect(pending).not.toHaveProperty(member);
    noNull(await call(ctx, 'POST', `/quotes/${quote.id}/execute`), 200);
    const failed = noNull(await quoteFromAccount(ctx, accounts.USD.id, failing.id, 10_000, { immediatelyExecute: true, description: 'rent' }), 201);
    await drainPayments(ctx);
    const failedTx = noNull(await call(ctx, 'GET', `/transactions/${failed.transactionId}`), 200);
    expect(failedTx.status).toBe('FAILED');
    expect(failedTx.failureReason).toBeDefined();
    noNull(await call(ctx, 'GET', `/quotes/${failed.id}`), 200);
    // A JIT quote (payment instructions, no source account) paid through the sandbox.
    const jit = noNull(
      await call(ctx, 'POST', '/quotes', {
        body: {
          source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'USD' },
          destination: { accountId: payee.id },
          lockedCurrencySide: 'SENDING',
          lockedCurrencyAmount: 5_000,
        },
      }),
      201,
    );
    expect(jit.paymentInstructions.length).toBeGreaterThan(0);
    noNull(await call(ctx, 'POST', '/sandbox/send', { body: { quoteId: jit.id, currencyCode: 'USD' } }), 200);
    noNull(await call(ctx, 'GET', '/quotes'), 200);

    // A same-currency transfer out, and an incoming UMA payment to the customer.
    noNull(
      await call(ctx, 'POST', '/transfer-out', { body: { source: { accountId: accounts.USD.id }, destination: { accountId: payee.id }, amount: 500 } }),
      201,
    );
    noNull(
      await call(ctx, 'POST', '/sandbox/uma/receive', { body: { receiverUmaAddress: customer.umaAddress, currencyCode: 'USD', currencyAmount: 700 } }),
      200,
    );
    await drainPayments(ctx);
    noNull(await call(ctx, 'GET', '/transactions', { query: { limit: 100 } }), 200);

    // The webhook bodies carry the same views: OUTGOING_PAYMENT and INCOMING_PAYMENT, and a TEST.
    noNull(await call(ctx, 'POST', '/webhooks/test', { body: { url: receiver.url } }), 200);
    await drainWebhooks(ctx);
    const bodies = receiver.accepted();
    expect(new Set(bodies.map((b) => b.type))).toEqual(new Set(['OUTGOING_PAYMENT', 'INCOMING_PAYMENT', 'TEST']));
    for (const body of bodies) expect(nullPaths(body), JSON.stringify(body)).toEqual([]);
    const deliveries = noNull(await call(ctx, 'GET', '/webhooks/deliveries', { query: { limit: 100 } }), 200);
    noNull(await call(ctx, 'GET', `/webhooks/deliveries/${deliveries.data[0].id}`), 200);
  });
});

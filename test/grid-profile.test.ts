/**
 * The vendor profile (PATCH /config `compatibility`): a GRID platform's answers checked against
 * the vendor's response schemas (transcribed below from its public OpenAPI, API version
 * 2025-10-13), a CORRIDOR platform's unchanged; both webhook formats verified by receivers written
 * as an integrator would (node:crypto, public keys from GET /config); and the vendor's synchronous
 * answers to an INCOMING_PAYMENT.PENDING webhook.
 */
import { createPublicKey, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { manualClock } from '../src/common/clock.js';
import { sandboxIdentifier } from '../src/identifiers/sandbox-fixtures.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { createAccount } from './helpers/external-accounts.js';
import { balance, drainPayments, drainWebhooks, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
import { startWebhookReceiver, type WebhookReceiver } from './helpers/webhook-receiver.js';

const clock = manualClock(new Date());
let ctx: TestContext;
const receivers: WebhookReceiver[] = [];
beforeAll(async () => {
  ctx = await testContext({ clock });
});
afterAll(async () => {
  for (const r of receivers) await r.close();
});

// --- The vendor's response schemas (facts from its OpenAPI, written out here) -----------------
const ajv = new Ajv({ strict: false, allErrors: true });
const Currency = { type: 'object', required: ['code'], properties: { code: { type: 'string' }, decimals: { type: 'integer' } } };
const VENDOR = {
  ExternalAccountType: {
    enum: [
      'GBP_ACCOUNT',
      'PHP_ACCOUNT',
      'SGD_ACCOUNT',
      'SPARK_WALLET',
      'LIGHTNING',
      'SOLANA_WALLET',
      'TRON_WALLET',
      'POLYGON_WALLET',
      'BASE_WALLET',
      'AED_ACCOUNT',
      'BRL_ACCOUNT',
      'BWP_ACCOUNT',
      'CAD_ACCOUNT',
      'DKK_ACCOUNT',
      'EUR_ACCOUNT',
      'HKD_ACCOUNT',
      'IDR_ACCOUNT',
      'INR_ACCOUNT',
      'KES_ACCOUNT',
      'MWK_ACCOUNT',
      'MXN_ACCOUNT',
      'MYR_ACCOUNT',
      'NGN_ACCOUNT',
      'RWF_ACCOUNT',
      'THB_ACCOUNT',
      'TZS_ACCOUNT',
      'UGX_ACCOUNT',
      'USD_ACCOUNT',
      'VND_ACCOUNT',
      'XAF_ACCOUNT',
      'XOF_ACCOUNT',
      'ZAR_ACCOUNT',
      'ZMW_ACCOUNT',
    ],
  },
  OutgoingRateDetails: {
    type: 'object',
    required: ['counterpartyMultiplier', 'counterpartyFixedFee', 'gridApiMultiplier', 'gridApiFixedFee', 'gridApiVariableFeeRate', 'gridApiVariableFeeAmount'],
    properties: {
      counterpartyMultiplier: { type: 'number' },
      counterpartyFixedFee: { type: 'integer', minimum: 0 },
      gridApiMultiplier: { type: 'number' },
      gridApiFixedFee: { type: 'integer', minimum: 0 },
      gridApiVariableFeeRate: { type: 'number' },
      gridApiVariableFeeAmount: { type: 'number', minimum: 0 },
    },
  },
  ReceiverLookupResponse: {
    type: 'object',
    required: ['supportedCurrencies', 'lookupId'],
    properties: {
      lookupId: { type: 'string' },
      supportedCurrencies: {
        type: 'array',
        items: {
          type: 'object',
          required: ['currency', 'min', 'max'],
          properties: {
            currency: Currency,
            estimatedExchangeRate: { type: 'number', exclusiveMinimum: 0 },
            min: { type: 'integer', exclusiveMinimum: 0 },
            max: { type: 'integer', exclusiveMinimum: 0 },
          },
        },
      },
      requiredPayerDataFields: {
        type: 'array',
        items: { type: 'object', required: ['name', 'mandatory'], properties: { name: { type: 'string' }, mandatory: { type: 'boolean' } } },
      },
    },
  },
};
function expectVendorShape(schema: object, value: unknown) {
  const validate = ajv.compile(schema);
  if (!validate(value)) throw new Error(`not the vendor's shape: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value)}`);
}

const SPARK = sandboxIdentifier('LAYER2_WALLET', '000', 'SPARK').primary;
/** One account of each renamed type, in the spec's spellings. */
const ACCOUNTS: Array<{ currency: string; accountInfo: Record<string, unknown>; spec: string; vendor: string }> = [
  {
    currency: 'USD',
    spec: 'US_ACCOUNT',
    vendor: 'USD_ACCOUNT',
    accountInfo: { accountType: 'US_ACCOUNT', accountNumber: '123456789000', routingNumber: '021000021', accountCategory: 'CHECKING', bankName: 'Chase' },
  },
  { currency: 'EUR', spec: 'IBAN', vendor: 'EUR_ACCOUNT', accountInfo: { accountType: 'IBAN', iban: 'DE89370400440532013000', swiftBic: 'COBADEFFXXX' } },
  { currency: 'MXN', spec: 'CLABE', vendor: 'MXN_ACCOUNT', accountInfo: { accountType: 'CLABE', clabeNumber: '002180100000006000' } },
  { currency: 'BRL', spec: 'PIX', vendor: 'BRL_ACCOUNT', accountInfo: { accountType: 'PIX', pixKey: '31416241000', pixKeyType: 'CPF', taxId: '31416241000' } },
  { currency: 'BTC', spec: 'LAYER2_WALLET', vendor: 'SPARK_WALLET', accountInfo: { accountType: 'LAYER2_WALLET', address: SPARK } },
];
const beneficiary = { beneficiaryType: 'INDIVIDUAL', fullName: 'Ada Lovelace', address: { line1: '1 Main St', postalCode: '10001', country: 'US' } };

async function setProfile(p: TestPlatform, compatibility: string, extra: Record<string, unknown> = {}) {
  const r = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { compatibility, ...extra } });
  expect(r.status).toBe(200);
  return r.body;
}

describe('PATCH /config compatibility', () => {
  it('defaults to CORRIDOR, turns GRID on with a P-256 key, and refuses other values naming the field', async () => {
    const p = await ctx.newPlatform('Profile');
    const before = await call(ctx, 'GET', '/config', { auth: p.auth });
    expect(before.body.compatibility).toBe('CORRIDOR');
    expect(before.body.gridWebhookPublicKey).toBeUndefined();

    const bad = expectError(await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { compatibility: 'LIGHTSPARK' } }), 400, 'INVALID_INPUT');
    expect(bad.details.fields.map((f: any) => f.field)).toEqual(['compatibility']);

    const grid = await setProfile(p, 'GRID');
    expect(grid.compatibility).toBe('GRID');
    const key = createPublicKey(grid.gridWebhookPublicKey);
    expect(key.asymmetricKeyType).toBe('ec');
    expect(key.asymmetricKeyDetails?.namedCurve).toBe('prime256v1');
    // Stored: the next read (on another node, after the cache) says the same, with the same key.
    ctx.container.configs.forget({ platformId: p.platformId, environment: 'SANDBOX' });
    const again = await call(ctx, 'GET', '/config', { auth: p.auth });
    expect(again.body).toMatchObject({
      compatibility: 'GRID',
      gridWebhookPublicKey: grid.gridWebhookPublicKey,
      webhookPublicKey: before.body.webhookPublicKey,
    });
    // Per environment: the PRODUCTION configuration keeps its own setting.
    const prod = await call(ctx, 'GET', '/config', { auth: await p.token(['VIEW'], 'PRODUCTION') });
    expect(prod.body.compatibility).toBe('CORRIDOR');

    // The private half is sealed at rest, as the Ed25519 keys are.
    const stored = await ctx.container.db
      .executor()
      .selectFrom('webhook_p256_keys')
      .select('private_key_pem')
      .where('platform_id', '=', p.platformId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0].private_key_pem).not.toContain('PRIVATE KEY');

    expect((await setProfile(p, 'CORRIDOR')).gridWebhookPublicKey).toBeUndefined();
  });
});

describe('answers under each profile', () => {
  /** The same requests on a platform of each profile: accounts, a lookup, a quote. */
  async function scenario(profile: 'CORRIDOR' | 'GRID') {
    const p = await ctx.newPlatform(`Answers ${profile}`);
    await setProfile(p, profile, { requiredPayerDataFields: ['FULL_NAME'] });
    const accounts = [];
    for (const a of ACCOUNTS) {
      const info = a.accountInfo.accountType === 'LAYER2_WALLET' ? a.accountInfo : { ...a.accountInfo, beneficiary };
      const r = await createAccount(ctx, { currency: a.currency, accountInfo: info }, { auth: p.auth, path: '/platform/external-accounts' });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      accounts.push(r.body);
    }
    const list = await call(ctx, 'GET', '/platform/external-accounts', { auth: p.auth, query: { limit: 50 } });
    const eur = accounts[1];
    const lookup = await call(ctx, 'GET', `/receiver/external-account/${eur.id}`, { auth: p.auth, query: { sendingCurrency: 'USD' } });
    expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
    const payer = await fundedCustomer(ctx, ['USD'], 100_000, p.auth);
    const quote = await quoteFromAccount(ctx, payer.accounts.USD.id, eur.id, 10_000, {}, p.auth);
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    const read = await call(ctx, 'GET', `/quotes/${quote.body.id}`, { auth: p.auth });
    const internal = await call(ctx, 'GET', '/customers/internal-accounts', { auth: p.auth, query: { customerId: payer.customer.id } });
    return { p, accounts, list: list.body.data, lookup: lookup.body, quote: quote.body, read: read.body, internal: internal.body.data };
  }

  it("GRID: the vendor's account types, rateDetails names and lookup shape", async () => {
    const s = await scenario('GRID');
    expect(s.accounts.map((a) => a.accountInfo.accountType)).toEqual(ACCOUNTS.map((a) => a.vendor));
    for (const a of [...s.accounts, ...s.list]) expectVendorShape(VENDOR.ExternalAccountType, a.accountInfo.accountType);
    expect(s.list.map((a: any) => a.accountInfo.accountType).sort()).toEqual(ACCOUNTS.map((a) => a.vendor).sort());

    expectVendorShape(VENDOR.ReceiverLookupResponse, s.lookup);
    expect(s.lookup.id).toBeUndefined();
    expect(s.lookup.lookupId).toMatch(/^Lookup:/);
    expect(s.lookup.requiredPayerDataFields).toEqual([{ name: 'FULL_NAME', mandatory: true }]);

    for (const q of [s.quote, s.read]) {
      expectVendorShape(VENDOR.OutgoingRateDetails, q.rateDetails);
      expect(Object.keys(q.rateDetails).filter((k) => k.startsWith('serviceApi'))).toEqual([]);
    }
    // The lookup id answered as lookupId is the one quotes take.
    expect((await call(ctx, 'GET', `/quotes/${s.quote.id}`, { auth: s.p.auth })).status).toBe(200);
  });

  it('CORRIDOR: the spec shapes, unchanged', async () => {
    const s = await scenario('CORRIDOR');
    expect(s.accounts.map((a) => a.accountInfo.accountType)).toEqual(ACCOUNTS.map((a) => a.spec));
    expect(s.lookup.id).toMatch(/^Lookup:/);
    expect(s.lookup.lookupId).toBeUndefined();
    expect(s.lookup.requiredPayerDataFields).toEqual(['FULL_NAME']);
    // The spec's names: no limit means no minAmount / maxAmount (absent, not null), never the vendor's min / max.
    expect(s.lookup.supportedCurrencies[0]).toHaveProperty('currency');
    expect(s.lookup.supportedCurrencies[0]).not.toHaveProperty('min');
    expect(s.lookup.supportedCurrencies[0]).not.toHaveProperty('max');
    expect(Object.keys(s.quote.rateDetails).sort()).toEqual(
      [
        'counterpartyFixedFee',
        'counterpartyMultiplier',
        'serviceApiFixedFee',
        'serviceApiMultiplier',
        'serviceApiVariableFeeAmount',
        'serviceApiVariableFeeRate',
      ].sort(),
    );
  });

  it('GRID: requests in either naming are accepted; the dashboard reads the spec names', async () => {
    const p = await ctx.newPlatform('Either naming');
    await setProfile(p, 'GRID');
    const vendor = await createAccount(
      ctx,
      { currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX', beneficiary } },
      { auth: p.auth, path: '/platform/external-accounts' },
    );
    expect(vendor.status).toBe(201);
    expect(vendor.body.accountInfo).toMatchObject({ accountType: 'EUR_ACCOUNT', swiftBic: 'COBADEFFXXX' });

    // The dashboard (a session cookie, not a token) reads the spec's names: it is Corridor's own page.
    await ctx.container.dashboard.createUser({ platformId: p.platformId, email: 'grid@example.com', role: 'ADMIN', password: 'correct horse battery staple' });
    const session = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      headers: { host: 'localhost:80', origin: 'http://localhost:80' },
      payload: { email: 'grid@example.com', password: 'correct horse battery staple' },
    });
    expect(session.statusCode).toBe(201);
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const viaDashboard = await ctx.app.inject({
      method: 'GET',
      url: `${API_PREFIX}/platform/external-accounts/${vendor.body.id}`,
      headers: { host: 'localhost:80', origin: 'http://localhost:80', cookie },
    });
    expect(viaDashboard.statusCode).toBe(200);
    expect(JSON.parse(viaDashboard.body).accountInfo.accountType).toBe('IBAN');
  });
});

// --- Webhooks ---------------------------------------------------------------------------------

/** The vendor's envelope and event names (BaseWebhook, WebhookType). */
const GridWebhook = {
  type: 'object',
  required: ['id', 'type', 'timestamp', 'data'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', pattern: '^Webhook:' },
    type: {
      enum: [
        'OUTGOING_PAYMENT.PENDING',
        'OUTGOING_PAYMENT.PROCESSING',
        'OUTGOING_PAYMENT.COMPLETED',
        'OUTGOING_PAYMENT.FAILED',
        'OUTGOING_PAYMENT.EXPIRED',
        'OUTGOING_PAYMENT.REFUND_PENDING',
        'OUTGOING_PAYMENT.REFUND_COMPLETED',
        'OUTGOING_PAYMENT.REFUND_FAILED',
        'INCOMING_PAYMENT.PENDING',
        'INCOMING_PAYMENT.COMPLETED',
        'INCOMING_PAYMENT.FAILED',
        'TEST',
      ],
    },
    timestamp: { type: 'string', format: 'date-time' },
    data: { type: 'object' },
  },
};

interface GridRequest {
  rawBody: string;
  signature: string | undefined;
  verified: boolean;
  event: any;
}
type GridAnswer = { status: number; body?: unknown };

/**
 * A receiver written as an integrator of the vendor would: raw body, X-Grid-Signature parsed as
 * {"v":"1","s":"<base64>"}, verified with node:crypto against the P-256 key from GET /config.
 */
async function startGridReceiver(publicKeyPem: string, answer: (event: any) => GridAnswer = () => ({ status: 200 })) {
  const requests: GridRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-grid-signature'] as string | undefined;
      let verified = false;
      try {
        const { v, s } = JSON.parse(signature ?? '');
        verified = v === '1' && verify('sha256', raw, publicKeyPem, Buffer.from(s, 'base64'));
      } catch {
        verified = false;
      }
      const event = JSON.parse(raw.toString('utf8'));
      requests.push({ rawBody: raw.toString('utf8'), signature, verified, event });
      if (!verified) return res.writeHead(401).end();
      const a = answer(event);
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(a.body === undefined ? '' : JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/grid`;
  const receiver = {
    url,
    requests,
    events: () => requests.map((r) => r.event),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  receivers.push(receiver as unknown as WebhookReceiver);
  return receiver;
}

/** A GRID platform whose endpoint is an integrator's receiver of the vendor's format. */
async function gridPlatform(settings: Record<string, unknown> = {}, answer?: (event: any) => GridAnswer) {
  const p = await ctx.newPlatform('Grid webhooks');
  const config = await setProfile(p, 'GRID', settings);
  const receiver = await startGridReceiver(config.gridWebhookPublicKey, answer);
  expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: receiver.url } })).status).toBe(200);
  return { p, receiver, domain: config.umaDomain as string };
}

async function payEur(p: TestPlatform) {
  const eur = await createAccount(
    ctx,
    { currency: 'EUR', accountInfo: { accountType: 'IBAN', iban: 'DE89370400440532013000', swiftBic: 'COBADEFFXXX', beneficiary } },
    { auth: p.auth, path: '/platform/external-accounts' },
  );
  const payer = await fundedCustomer(ctx, ['USD'], 50_000, p.auth);
  const quote = await quoteFromAccount(ctx, payer.accounts.USD.id, eur.body.id, 20_000, {}, p.auth);
  const executed = await call(ctx, 'POST', `/quotes/${quote.body.id}/execute`, { auth: p.auth });
  expect(executed.status).toBe(200);
  await drainPayments(ctx);
  await drainWebhooks(ctx);
  return quote.body.transactionId as string;
}

describe('webhook formats', () => {
  it('GRID: the vendor envelope and event names, signed with P-256 (X-Grid-Signature), data in the vendor names', async () => {
    const { p, receiver } = await gridPlatform();
    const id = await payEur(p);
    const events = receiver.events().filter((e) => e.data?.id === id);
    expect(events.map((e) => e.type)).toEqual(['OUTGOING_PAYMENT.PROCESSING', 'OUTGOING_PAYMENT.COMPLETED']);
    expect(receiver.requests.every((r) => r.verified)).toBe(true);
    for (const e of events) {
      expectVendorShape(GridWebhook, e);
      expect(e.data.status).toBe(e.type.split('.')[1]);
      expectVendorShape(VENDOR.OutgoingRateDetails, e.data.rateDetails);
    }
    // One webhook id per event; the delivery log keeps the spec's body, and says DELIVERED.
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    const log = await call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth, query: { transactionId: id } });
    expect(log.body.data.map((d: any) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);

    // The test webhook takes the platform's format too.
    const test = await call(ctx, 'POST', '/webhooks/test', { auth: p.auth, body: {} });
    expect(test.status).toBe(200);
    const last = receiver.requests.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.event.type).toBe('TEST');
    expectVendorShape(GridWebhook, last.event);

    // A tampered body does not verify with the published key.
    const config = await call(ctx, 'GET', '/config', { auth: p.auth });
    const { s } = JSON.parse(last.signature!);
    expect(verify('sha256', Buffer.from(last.rawBody.replace('TEST', 'TEsT')), config.body.gridWebhookPublicKey, Buffer.from(s, 'base64'))).toBe(false);
  });

  it('CORRIDOR: the spec body with X-Corridor-Signature (Ed25519), unchanged', async () => {
    const p = await ctx.newPlatform('Corridor webhooks');
    const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
    const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
    receivers.push(receiver);
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: receiver.url } });
    const id = await payEur(p);
    const events = receiver.accepted().filter((e) => e.transaction?.id === id);
    expect(events.map((e) => [e.type, e.transaction.status])).toEqual([
      ['OUTGOING_PAYMENT', 'PROCESSING'],
      ['OUTGOING_PAYMENT', 'COMPLETED'],
    ]);
    expect(receiver.requests.every((r) => r.verified && r.headers['x-grid-signature'] === undefined)).toBe(true);
    expect(events[0].transaction.rateDetails).toHaveProperty('serviceApiMultiplier');
  });

  it('a delivery keeps the format it was made with: retries after a profile change send the same shape', async () => {
    let fail = true;
    const { p, receiver } = await gridPlatform({}, () => (fail ? { status: 500 } : { status: 200 }));
    const id = await payEur(p);
    expect(receiver.events().filter((e) => e.data?.id === id).length).toBeGreaterThan(0);
    // Switch back to CORRIDOR while the deliveries retry: they still arrive in the GRID format.
    await setProfile(p, 'CORRIDOR');
    fail = false;
    clock.advance(10 * 60_000);
    await drainWebhooks(ctx);
    const answered = receiver.requests.filter((r) => r.event.data?.id === id);
    expect(answered.every((r) => r.verified && typeof r.event.type === 'string' && r.event.type.startsWith('OUTGOING_PAYMENT.'))).toBe(true);
    const log = await call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth, query: { transactionId: id } });
    expect(log.body.data.map((d: any) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });
});

describe("the vendor's answers to INCOMING_PAYMENT.PENDING", () => {
  const approval = { incomingPaymentApproval: { required: true, requestedReceiverCustomerInfoFields: ['FULL_NAME'], windowSeconds: 300 } };

  /** A GRID platform asking for approval, whose receiver answers the PENDING webhook with `pending` (other events: 200). */
  async function incoming(pending: GridAnswer) {
    const { p, receiver, domain } = await gridPlatform(approval, (e) => (e.type === 'INCOMING_PAYMENT.PENDING' ? pending : { status: 200 }));
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: {
        platformCustomerId: `g-${Math.random().toString(36).slice(2)}`,
        customerType: 'INDIVIDUAL',
        fullName: 'Rita Receiver',
        currencies: ['USD'],
        umaAddress: `$rita@${domain}`,
      },
    });
    expect(c.status).toBe(201);
    const accounts = await call(ctx, 'GET', '/customers/internal-accounts', { auth: p.auth, query: { customerId: c.body.id } });
    const r = await call(ctx, 'POST', '/sandbox/uma/receive', {
      auth: p.auth,
      body: { receiverUmaAddress: c.body.umaAddress, currencyCode: 'USD', currencyAmount: 5_000 },
    });
    expect(r.body.status).toBe('PENDING');
    await drainWebhooks(ctx);
    const tx = async () => (await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body;
    const deliveries = async () => (await call(ctx, 'GET', '/webhooks/deliveries', { auth: p.auth, query: { transactionId: r.body.id } })).body.data.reverse();
    const types = () =>
      receiver
        .events()
        .filter((e) => e.data?.id === r.body.id)
        .map((e) => e.type);
    return { p, receiver, id: r.body.id as string, accountId: accounts.body.data[0].id as string, tx, deliveries, types };
  }

  it('200 approves, with the requested fields from receiverCustomerInfo', async () => {
    const s = await incoming({ status: 200, body: { receiverCustomerInfo: { FULL_NAME: 'Rita Receiver' } } });
    const pending = s.receiver.events().find((e) => e.type === 'INCOMING_PAYMENT.PENDING');
    expectVendorShape(GridWebhook, pending);
    expect(pending.data.requestedReceiverCustomerInfoFields).toEqual([{ name: 'FULL_NAME', mandatory: true }]);
    expect((await s.tx()).status).toBe('COMPLETED');
    expect(await balance(ctx, s.accountId, s.p.auth)).toBe(5_000);
    expect(s.types()).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.COMPLETED']);
    expect((await s.deliveries()).map((d: any) => d.status)).toEqual(['DELIVERED', 'DELIVERED']);
  });

  it('200 without the requested fields changes nothing: the attempt says why, the API can still approve', async () => {
    const s = await incoming({ status: 200, body: {} });
    expect((await s.tx()).status).toBe('PENDING');
    const [first] = await s.deliveries();
    expect(first.status).toBe('DELIVERED');
    expect(first.attempts[0].error).toMatch(/^answer not applied: MISSING_MANDATORY_USER_INFO/);
    const ok = await call(ctx, 'POST', `/transactions/${s.id}/approve`, { auth: s.p.auth, body: { receiverCustomerInfo: { FULL_NAME: 'Rita' } } });
    expect(ok.body.status).toBe('COMPLETED');
  });

  it('403 rejects: REJECTED, nothing lands, the reason kept; the answer is not retried', async () => {
    const s = await incoming({ status: 403, body: { code: 'PAYMENT_REJECTED', message: 'Not for us', reason: 'RESTRICTED_JURISDICTION' } });
    const tx = await s.tx();
    expect(tx.status).toBe('REJECTED');
    expect(await balance(ctx, s.accountId, s.p.auth)).toBe(0);
    expect(s.types()).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
    const [first] = await s.deliveries();
    expect(first).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });
    const history = await ctx.container.db
      .executor()
      .selectFrom('incoming_payments')
      .select('rejection_reason')
      .where('transaction_id', '=', s.id)
      .executeTakeFirst();
    expect(history?.rejection_reason).toBe('RESTRICTED_JURISDICTION');
  });

  it('422 asks for fields the payment lacks: FAILED (PAY_REQUEST_FAILED), the fields named', async () => {
    const s = await incoming({ status: 422, body: { code: 'MISSING_FIELDS', message: 'More please', requiredFields: ['TAX_ID', 'POSTAL_ADDRESS'] } });
    const tx = await s.tx();
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'PAY_REQUEST_FAILED' });
    expect(await balance(ctx, s.accountId, s.p.auth)).toBe(0);
    expect(s.types()).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
    expect((await s.deliveries())[0]).toMatchObject({ status: 'DELIVERED', attemptCount: 1 });
    const row = await ctx.container.db
      .executor()
      .selectFrom('incoming_payments')
      .select('rejection_reason')
      .where('transaction_id', '=', s.id)
      .executeTakeFirst();
    expect(row?.rejection_reason).toMatch(/TAX_ID, POSTAL_ADDRESS$/);
  });

  it('202 leaves the decision to the API: approve or reject later', async () => {
    const s = await incoming({ status: 202 });
    expect((await s.tx()).status).toBe('PENDING');
    expect((await s.deliveries())[0].status).toBe('DELIVERED');
    const rejected = await call(ctx, 'POST', `/transactions/${s.id}/reject`, { auth: s.p.auth, body: { reason: 'later' } });
    expect(rejected.body.status).toBe('REJECTED');
    await drainWebhooks(ctx);
    expect(s.types()).toEqual(['INCOMING_PAYMENT.PENDING', 'INCOMING_PAYMENT.FAILED']);
  });

  it('under CORRIDOR a 200 only acknowledges, as before', async () => {
    const p = await ctx.newPlatform('Corridor approval');
    const config = (await call(ctx, 'GET', '/config', { auth: p.auth })).body;
    const receiver = await startWebhookReceiver({ publicKeyPem: config.webhookPublicKey, now: () => clock.now().getTime() });
    receivers.push(receiver);
    await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: receiver.url, ...approval } });
    const c = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: {
        platformCustomerId: 'corr-1',
        customerType: 'INDIVIDUAL',
        fullName: 'Rita Receiver',
        currencies: ['USD'],
        umaAddress: `$rita@${config.umaDomain}`,
      },
    });
    const r = await call(ctx, 'POST', '/sandbox/uma/receive', {
      auth: p.auth,
      body: { receiverUmaAddress: c.body.umaAddress, currencyCode: 'USD', currencyAmount: 5_000 },
    });
    await drainWebhooks(ctx);
    expect(receiver.accepted().map((e) => e.transaction.status)).toEqual(['PENDING']);
    expect((await call(ctx, 'GET', `/transactions/${r.body.id}`, { auth: p.auth })).body.status).toBe('PENDING');
  });
});

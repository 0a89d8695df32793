/**
 * The vendor profile (PATCH /config `compatibility`): a GRID platform's answers checked against
 * the vendor's response schemas (transcribed below from its public OpenAPI, API version
 * 2025-10-13), a CORRIDOR platform's unchanged; both webhook formats verified by receivers written
 * as an integrator would (node:crypto, public keys from GET /config); and the vendor's synchronous
 * answers to an INCOMING_PAYMENT.PENDING webhook.
 */
import { createPublicKey, verify } from 'node:crypto';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { sandboxIdentifier } from '../src/identifiers/sandbox-fixtures.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { createAccount } from './helpers/external-accounts.js';
import { balance, drainWebhooks, fundedCustomer, quoteFromAccount } from './helpers/payments.js';
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
    expect(s.lookup.supportedCurrencies[0]).toHaveProperty('minAmount');
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

  it('GRID: requests in either naming are accepted', async () => {
    const p = await ctx.newPlatform('Either naming');
    await setProfile(p, 'GRID');
    const vendor = await createAccount(
      ctx,
      { currency: 'EUR', accountInfo: { accountType: 'EUR_ACCOUNT', iban: 'DE89370400440532013000', swiftCode: 'COBADEFFXXX', beneficiary } },
      { auth: p.auth, path: '/platform/external-accounts' },
    );
    expect(vendor.status).toBe(201);
    expect(vendor.body.accountInfo).toMatchObject({ accountType: 'EUR_ACCOUNT', swiftBic: 'COBADEFFXXX' });
  });
});

export { balance, drainWebhooks, startWebhookReceiver, verify };

/**
 * The GRID profile against the vendor's own schemas: answers of a platform on the GRID profile,
 * driven through the real server with the requests the vendor's SDK (@lightsparkdev/grid 0.7.0)
 * and CLI send, each validated with Ajv against the schema the vendor's public OpenAPI gives for
 * it (test/fixtures/grid-openapi-subset.json says where every schema comes from). Beside each,
 * the same request on a CORRIDOR platform keeps the spec's answer.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { accountBody, createAccount, TYPE_VARIANTS } from './helpers/external-accounts.js';
import { fundedCustomer } from './helpers/payments.js';
import { startWebhookReceiver } from './helpers/webhook-receiver.js';

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

interface Fixture {
  sdk: { responses: Record<string, { status: number; schema: object }>; components: object };
  api: { components: object };
}
const fixture = JSON.parse(readFileSync(new URL('./fixtures/grid-openapi-subset.json', import.meta.url), 'utf8')) as Fixture;
// OpenAPI formats Ajv does not know (int64, double) only say how wide a number is.
const ajv = new Ajv({ strict: false, allErrors: true, formats: { int64: true, int32: true, double: true, float: true } });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const anchored = (schema: object, doc: string) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${doc}#/components/`));
ajv.addSchema({ $id: 'grid-sdk', components: fixture.sdk.components });
ajv.addSchema({ $id: 'grid-api', components: fixture.api.components });
const compiled = new Map<string, ValidateFunction>();

/** The vendor SDK's answer schema of a route, e.g. 'GET /customers'. */
function sdkSchema(route: string): ValidateFunction {
  let v = compiled.get(route);
  if (!v) {
    const r = fixture.sdk.responses[route];
    if (!r) throw new Error(`no vendor schema for ${route}`);
    v = ajv.compile(anchored(r.schema, 'grid-sdk'));
    compiled.set(route, v);
  }
  return v;
}
/** A component schema, of the SDK's spec or of the API's (for what the SDK 0.7.0 spec predates). */
function component(name: string, doc: 'grid-sdk' | 'grid-api' = 'grid-sdk'): ValidateFunction {
  const key = `${doc}:${name}`;
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile({ $ref: `${doc}#/components/schemas/${name}` });
    compiled.set(key, v);
  }
  return v;
}
function problems(v: ValidateFunction, value: unknown): string | undefined {
  if (v(value)) return undefined;
  // oneOf reports every branch; the errors that name a member say what is wrong.
  return ajv.errorsText(v.errors, { separator: '\n  ' });
}
/** Asserts that an answer has the vendor's shape for its route. */
function expectVendor(route: string, res: { status: number; body: unknown }) {
  expect(res.status, JSON.stringify(res.body)).toBe(fixture.sdk.responses[route].status);
  const p = problems(sdkSchema(route), res.body);
  if (p) throw new Error(`${route}: not the vendor's shape:\n  ${p}\nin ${JSON.stringify(res.body)}`);
}

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});
const fields = (res: { body: any }) => (res.body.details?.fields ?? []).map((f: any) => f.field);

async function platform(profile: 'GRID' | 'CORRIDOR'): Promise<TestPlatform> {
  const p = await ctx.newPlatform(`Vendor schemas ${profile}`);
  expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { compatibility: profile } })).status).toBe(200);
  return p;
}

/** A beneficiary with every member the SDK's individual beneficiaries may require (UsdBeneficiary: birthDate, nationality). */
const PERSON = {
  beneficiaryType: 'INDIVIDUAL',
  fullName: 'Ada Lovelace',
  birthDate: '1990-12-10',
  nationality: 'GB',
  address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
};
const COMPANY = { beneficiaryType: 'BUSINESS', legalName: 'Analytical Engines GmbH', registrationNumber: 'HRB 12345' };

// The SDK 0.7.0 spec predates the mobile-money and ZAR accounts; the API's own spec (grid-api) has them.
const API_ONLY: Record<string, string> = {
  KES_ACCOUNT: 'KesExternalAccountInfo',
  TZS_ACCOUNT: 'TzsExternalAccountInfo',
  UGX_ACCOUNT: 'UgxExternalAccountInfo',
  ZMW_ACCOUNT: 'ZmwExternalAccountInfo',
  RWF_ACCOUNT: 'RwfExternalAccountInfo',
  MWK_ACCOUNT: 'MwkExternalAccountInfo',
  XOF_ACCOUNT: 'XofExternalAccountInfo',
  ZAR_ACCOUNT: 'ZarExternalAccountInfo',
};
/** The vendor's schema of an account info, by the accountType it answers (the OpenAPI's discriminator). */
function accountInfoSchema(accountType: string, where: 'ExternalAccountInfoOneOf' | 'PaymentInstructions'): ValidateFunction | undefined {
  const schemas = (fixture.sdk.components as { schemas: Record<string, any> }).schemas;
  const mapping =
    where === 'ExternalAccountInfoOneOf'
      ? schemas.ExternalAccountInfoOneOf.discriminator.mapping
      : schemas.PaymentInstructions.properties.accountOrWalletInfo.discriminator.mapping;
  if (mapping[accountType]) return component(mapping[accountType].split('/').pop(), 'grid-sdk');
  // The API's Payment<Currency>AccountInfo of these types cannot be met by any value: its base
  // (BasePaymentAccountInfo) limits accountType to a list without them. The account info part
  // (e.g. KesAccountInfo) is what it adds; the reference it requires is checked by the caller.
  if (API_ONLY[accountType])
    return component(where === 'PaymentInstructions' ? API_ONLY[accountType].replace('External', '') : API_ONLY[accountType], 'grid-api');
  return undefined;
}

describe('lists: nextCursor on every page under GRID', () => {
  it('GRID: a cursor while there is more, the empty cursor on the last page; hasMore exact', async () => {
    const p = await platform('GRID');
    for (const n of [1, 2, 3]) await fundedCustomer(ctx, ['USD'], 0, p.auth).then((c) => expect(c.customer.id, String(n)).toMatch(/^Customer:/));
    const first = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { limit: 2 } });
    expectVendor('GET /customers', first);
    expect(first.body).toMatchObject({ hasMore: true, totalCount: 3 });
    expect(first.body.nextCursor).toMatch(/./);
    const last = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { limit: 2, cursor: first.body.nextCursor } });
    expectVendor('GET /customers', last);
    expect(last.body.data).toHaveLength(1);
    expect(last.body).toMatchObject({ hasMore: false, nextCursor: '' });
    // Every list the SDK pages through has the member, also when empty.
    for (const [route, path] of [
      ['GET /customers/internal-accounts', '/customers/internal-accounts'],
      ['GET /customers/external-accounts', '/customers/external-accounts'],
      ['GET /quotes', '/quotes'],
      ['GET /transactions', '/transactions'],
      ['GET /uma-providers', '/uma-providers'],
    ] as const) {
      const res = await call(ctx, 'GET', path, { auth: p.auth, query: { limit: 100 } });
      expect(res.status, route).toBe(200);
      expect(res.body, route).toMatchObject({ hasMore: false, nextCursor: '' });
    }
  });

  it('CORRIDOR: the last page has no nextCursor, as before', async () => {
    const p = await platform('CORRIDOR');
    await fundedCustomer(ctx, ['USD'], 0, p.auth);
    await fundedCustomer(ctx, ['USD'], 0, p.auth);
    const first = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { limit: 1 } });
    expect(first.body.nextCursor).toMatch(/./);
    const last = await call(ctx, 'GET', '/customers', { auth: p.auth, query: { limit: 1, cursor: first.body.nextCursor } });
    expect(last.body.hasMore).toBe(false);
    expect(last.body).not.toHaveProperty('nextCursor');
  });
});

describe('account infos under GRID: countries, paymentRails, legalName, the vendor type names', () => {
  // Kept under their own names on purpose (docs/vendor-clients.md, "Differences that remain on
  // purpose"): the vendor's Lightning type takes other fields than an address, and the SDK has no
  // Ethereum wallet.
  const KEPT = (type: string, variant: string) => (type === 'LAYER2_WALLET' && variant === 'LIGHTNING_ADDRESS') || type === 'EVM_WALLET';

  async function registerEvery(p: TestPlatform) {
    const payer = await fundedCustomer(ctx, ['USD'], 0, p.auth);
    const out: Array<{ type: string; variant: string; account: any }> = [];
    for (const [type, variant] of TYPE_VARIANTS) {
      const body = accountBody(type, '000', variant, { customerId: payer.customer.id });
      body.accountInfo.beneficiary = { ...PERSON };
      const res = await createAccount(ctx, body, { auth: p.auth });
      expect(res.status, `${type}/${variant} ${JSON.stringify(res.body)}`).toBe(201);
      out.push({ type, variant, account: res.body });
    }
    return { payer, accounts: out };
  }

  it('GRID: each account answers the schema the vendor gives its accountType, in the answer and in the list', async () => {
    const p = await platform('GRID');
    const { accounts } = await registerEvery(p);
    const list = await call(ctx, 'GET', '/customers/external-accounts', { auth: p.auth, query: { limit: 100 } });
    const listed = new Map(list.body.data.map((a: any) => [a.id, a]));
    for (const { type, variant, account } of accounts) {
      if (KEPT(type, variant)) continue;
      for (const answer of [account, listed.get(account.id) as any]) {
        const schema = accountInfoSchema(answer.accountInfo.accountType, 'ExternalAccountInfoOneOf');
        expect(schema, `${type}/${variant} answers ${answer.accountInfo.accountType}, not a vendor type`).toBeDefined();
        const p = problems(schema!, answer.accountInfo);
        expect(p, `${type}/${variant}: ${JSON.stringify(answer.accountInfo)}`).toBeUndefined();
      }
    }
    const byType = (t: string, v?: string) => accounts.find((a) => a.type === t && (v === undefined || a.variant === v))!.account.accountInfo;
    expect(byType('IBAN', 'FR')).toMatchObject({ accountType: 'EUR_ACCOUNT', countries: ['FR'], paymentRails: ['SEPA'] });
    expect(byType('CLABE')).toMatchObject({ accountType: 'MXN_ACCOUNT', countries: ['MX'], paymentRails: ['SPEI'] });
    expect(byType('UPI')).toMatchObject({ accountType: 'INR_ACCOUNT', countries: ['IN'], paymentRails: ['UPI'] });
    expect(byType('KES_ACCOUNT')).toMatchObject({ accountType: 'KES_ACCOUNT', countries: ['KE'], paymentRails: ['MOBILE_MONEY'] });
    expect(byType('XOF_ACCOUNT', 'CI')).toMatchObject({ accountType: 'XOF_ACCOUNT', countries: ['CI'], region: 'CI', paymentRails: ['MOBILE_MONEY'] });
    // A list is the same account as its answer.
    // The list, less the types outside the SDK's union (each checked above against the API's schema).
    const inSdk = list.body.data.filter((a: any) => !KEPT(...kind(a)) && !API_ONLY[a.accountInfo.accountType]);
    expect(inSdk.length).toBeGreaterThan(10);
    expectVendor('GET /customers/external-accounts', { status: list.status, body: { ...list.body, data: inSdk } });
  });

  it('GRID: every account info answered can be registered again as it is (XOF aside: its region is answered, not read)', async () => {
    const p = await platform('GRID');
    const { payer, accounts } = await registerEvery(p);
    for (const { type, variant, account } of accounts) {
      if (type === 'XOF_ACCOUNT') continue;
      const again = await createAccount(
        ctx,
        {
          customerId: payer.customer.id,
          currency: account.currency,
          accountInfo: account.accountInfo,
          ...(account.cryptoNetwork ? { cryptoNetwork: account.cryptoNetwork } : {}),
        },
        { auth: p.auth },
      );
      expect(again.status, `${type}/${variant}: ${JSON.stringify(again.body)}`).toBe(201);
      expect(again.body.accountInfo, `${type}/${variant}`).toEqual(account.accountInfo);
    }
  });

  it('GRID: a business beneficiary is named by legalName, and the answer can be sent back as it is', async () => {
    const p = await platform('GRID');
    const payer = await fundedCustomer(ctx, ['EUR'], 0, p.auth);
    const body = accountBody('IBAN', '000', 'DE', { customerId: payer.customer.id });
    body.accountInfo.beneficiary = { ...COMPANY };
    const res = await createAccount(ctx, body, { auth: p.auth });
    expectVendor('POST /customers/external-accounts', res);
    expect(res.body.accountInfo.beneficiary).toEqual({ ...COMPANY });
    const again = await createAccount(ctx, { customerId: payer.customer.id, currency: 'EUR', accountInfo: res.body.accountInfo }, { auth: p.auth });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.accountInfo).toEqual(res.body.accountInfo);
  });

  it("GRID: funding instructions name the vendor's account types, with countries, rails and the reference", async () => {
    const p = await platform('GRID');
    const res = await call(ctx, 'GET', '/platform/internal-accounts', { auth: p.auth });
    // The list, less the accounts paid through types outside the SDK's union (each checked below against the API's schema).
    const inSdk = res.body.data.filter((a: any) => !a.fundingPaymentInstructions.some((i: any) => API_ONLY[i.accountOrWalletInfo.accountType]));
    expectVendor('GET /platform/internal-accounts', { status: res.status, body: { ...res.body, data: inSdk } });
    let seen = 0;
    for (const account of res.body.data) {
      for (const instruction of account.fundingPaymentInstructions) {
        const info = instruction.accountOrWalletInfo;
        const schema = accountInfoSchema(info.accountType, 'PaymentInstructions');
        expect(schema, `${account.balance.currency.code} answers ${info.accountType}`).toBeDefined();
        expect(problems(schema!, info), `${account.balance.currency.code}: ${JSON.stringify(info)}`).toBeUndefined();
        // Fiat is collected on a pooled account: the reference routes the payment (wallets are per account).
        if (!info.accountType.endsWith('_WALLET')) expect(info.reference, account.balance.currency.code).toMatch(/^CRD/);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThan(10);
    const mxn = res.body.data.find((a: any) => a.balance.currency.code === 'MXN').fundingPaymentInstructions[0].accountOrWalletInfo;
    expect(mxn).toMatchObject({ accountType: 'MXN_ACCOUNT', countries: ['MX'], paymentRails: ['SPEI'] });
  });

  it('CORRIDOR: the same accounts and instructions keep the spec shape, nothing filled in', async () => {
    const p = await platform('CORRIDOR');
    const { payer, accounts } = await registerEvery(p);
    const byType = (t: string, v?: string) => accounts.find((a) => a.type === t && (v === undefined || a.variant === v))!.account.accountInfo;
    expect(byType('IBAN', 'FR').accountType).toBe('IBAN');
    expect(byType('IBAN', 'FR')).not.toHaveProperty('countries');
    expect(byType('IBAN', 'FR')).not.toHaveProperty('paymentRails');
    expect(byType('CLABE')).not.toHaveProperty('paymentRails');
    expect(byType('UPI').accountType).toBe('UPI');
    expect(byType('KES_ACCOUNT')).not.toHaveProperty('paymentRails');
    expect(byType('XOF_ACCOUNT', 'CI')).not.toHaveProperty('region');
    const body = accountBody('IBAN', '000', 'DE', { customerId: payer.customer.id });
    body.accountInfo.beneficiary = { ...COMPANY };
    const business = await createAccount(ctx, body, { auth: p.auth });
    expect(business.body.accountInfo.beneficiary).toEqual({ beneficiaryType: 'BUSINESS', fullName: COMPANY.legalName, registrationNumber: 'HRB 12345' });
    const ias = await call(ctx, 'GET', '/platform/internal-accounts', { auth: p.auth });
    const usd = ias.body.data.find((a: any) => a.balance.currency.code === 'USD').fundingPaymentInstructions[0].accountOrWalletInfo;
    expect(usd.accountType).toBe('US_ACCOUNT');
    expect(usd).not.toHaveProperty('countries');
  });
});

/** The (type, variant) pair of an answered account, as KEPT reads it. */
function kind(a: any): [string, string] {
  const t = a.accountInfo.accountType;
  if (t === 'LAYER2_WALLET' && String(a.accountInfo.address).includes('@')) return ['LAYER2_WALLET', 'LIGHTNING_ADDRESS'];
  return [t, ''];
}

describe('answers the vendor documents otherwise', () => {
  it("GRID: POST /webhooks/test (the SDK's webhooks.sendTest()) answers response_status and response_body", async () => {
    const p = await platform('GRID');
    // A GRID test event is signed with X-Grid-Signature (grid-profile.test.ts verifies it); this receiver only answers.
    const hook = await startWebhookReceiver({ respond: () => ({ status: 200, body: 'ok' }) });
    try {
      expect((await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: hook.url } })).status).toBe(200);
      const res = await call(ctx, 'POST', '/webhooks/test', { auth: p.auth });
      expectVendor('POST /webhooks/test', res);
      expect(res.body).toMatchObject({ url: hook.url, response_status: 200, statusCode: 200, delivered: true });
      expect(res.body).toMatchObject({ response_body: 'ok', responseBody: 'ok' });
    } finally {
      await hook.close();
    }
  });

  it('CORRIDOR: POST /webhooks/test keeps its own names only', async () => {
    const p = await platform('CORRIDOR');
    const hook = await startWebhookReceiver({ publicKeyPem: (await call(ctx, 'GET', '/config', { auth: p.auth })).body.webhookPublicKey });
    try {
      await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { webhookEndpoint: hook.url } });
      const res = await call(ctx, 'POST', '/webhooks/test', { auth: p.auth });
      expect(res.body).toMatchObject({ statusCode: 200, delivered: true });
      expect(res.body).not.toHaveProperty('response_status');
      expect(res.body).not.toHaveProperty('response_body');
    } finally {
      await hook.close();
    }
  });

  it('GRID: GET of a deleted customer answers the customer with isDeleted, as the vendor documents it; CORRIDOR answers 410', async () => {
    for (const profile of ['GRID', 'CORRIDOR'] as const) {
      const p = await platform(profile);
      const c = await fundedCustomer(ctx, ['USD'], 0, p.auth);
      expect((await call(ctx, 'DELETE', `/customers/${c.customer.id}`, { auth: p.auth })).status).toBe(200);
      const res = await call(ctx, 'GET', `/customers/${c.customer.id}`, { auth: p.auth });
      if (profile === 'CORRIDOR') {
        expectError(res, 410, 'CUSTOMER_DELETED');
        continue;
      }
      expectVendor('GET /customers/{customerId}', res);
      expect(res.body).toMatchObject({ id: c.customer.id, isDeleted: true });
      // Only the read: a deleted customer still cannot be changed, and another platform's stays 404.
      expectError(
        await call(ctx, 'PATCH', `/customers/${c.customer.id}`, { auth: p.auth, body: { customerType: 'INDIVIDUAL', fullName: 'X' } }),
        410,
        'CUSTOMER_DELETED',
      );
      expectError(await call(ctx, 'GET', `/customers/${c.customer.id}`), 404, 'CUSTOMER_NOT_FOUND');
    }
  });
});

/**
 * The differences that remain on purpose (docs/vendor-clients.md, "Differences that remain on
 * purpose"), set aside in a copy of an answer so that every other difference still fails: a
 * variable fee rate of 0 where no variable fee is charged (the vendor's schema wants one above 0);
 * a platform-owned external account's customerId null, as the spec shows it.
 */
function onPurposeAside<T>(answer: T): T {
  const copy = structuredClone(answer) as unknown;
  const visit = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.gridApiVariableFeeRate === 0) o.gridApiVariableFeeRate = Number.MIN_VALUE;
    if (o.customerId === null && typeof o.id === 'string' && o.id.startsWith('ExternalAccount:')) delete o.customerId;
    Object.values(o).forEach(visit);
  };
  visit(copy);
  return copy as T;
}

describe("the SDK's calls on a GRID platform, every answer in the vendor's shape", () => {
  it('customers, accounts, quotes, payments, the sandbox, providers and tokens', async () => {
    const p = await platform('GRID');
    const check = (route: string, res: { status: number; body: unknown }) => expectVendor(route, { status: res.status, body: onPurposeAside(res.body) });
    const created = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: {
        platformCustomerId: 'sdk-1',
        customerType: 'INDIVIDUAL',
        fullName: 'Ada Lovelace',
        birthDate: '1990-12-10',
        nationality: 'GB',
        currencies: ['USD'],
      },
    });
    check('POST /customers', created);
    const id = created.body.id;
    check('GET /customers/{customerId}', await call(ctx, 'GET', `/customers/${id}`, { auth: p.auth }));
    check('PATCH /customers/{customerId}', await call(ctx, 'PATCH', `/customers/${id}`, { auth: p.auth, body: { fullName: 'Ada King' } }));
    check('GET /customers', await call(ctx, 'GET', '/customers', { auth: p.auth }));
    const internal = await call(ctx, 'GET', '/customers/internal-accounts', { auth: p.auth, query: { customerId: id } });
    check('GET /customers/internal-accounts', internal);
    const usd = internal.body.data[0].id;
    expect((await call(ctx, 'POST', `/sandbox/internal-accounts/${usd}/fund`, { auth: p.auth, body: { amount: 100_000 } })).status).toBe(200);
    const body = accountBody('US_ACCOUNT', '000', 'US', { customerId: id });
    body.accountInfo.beneficiary = { ...PERSON };
    const account = await createAccount(ctx, body, { auth: p.auth });
    check('POST /customers/external-accounts', account);
    check('GET /customers/external-accounts', await call(ctx, 'GET', '/customers/external-accounts', { auth: p.auth, query: { customerId: id } }));
    const platformBody = accountBody('IBAN', '000', 'DE');
    platformBody.accountInfo.beneficiary = { ...COMPANY };
    check('POST /platform/external-accounts', await createAccount(ctx, platformBody, { auth: p.auth, path: '/platform/external-accounts' }));
    check('GET /platform/external-accounts', await call(ctx, 'GET', '/platform/external-accounts', { auth: p.auth }));
    const quote = await call(ctx, 'POST', '/quotes', {
      auth: p.auth,
      body: {
        source: { sourceType: 'ACCOUNT', accountId: usd },
        destination: { destinationType: 'ACCOUNT', accountId: account.body.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 1_000,
        immediatelyExecute: true,
      },
    });
    check('POST /quotes', quote);
    check('GET /quotes/{quoteId}', await call(ctx, 'GET', `/quotes/${quote.body.id}`, { auth: p.auth }));
    check('GET /quotes', await call(ctx, 'GET', '/quotes', { auth: p.auth }));
    const out = await call(ctx, 'POST', '/transfer-out', {
      auth: p.auth,
      body: { source: { accountId: usd }, destination: { accountId: account.body.id }, amount: 500 },
    });
    check('POST /transfer-out', out);
    check('GET /transactions/{transactionId}', await call(ctx, 'GET', `/transactions/${out.body.id}`, { auth: p.auth }));
    const received = await call(ctx, 'POST', '/sandbox/uma/receive', {
      auth: p.auth,
      body: { receivingCurrencyAmount: 1_000, receivingCurrencyCode: 'USD', senderUmaAddress: '$success.usd@sandbox.grid.uma.money', customerId: id },
    });
    check('POST /sandbox/uma/receive', received);
    check('GET /transactions', await call(ctx, 'GET', '/transactions', { auth: p.auth }));
    check('GET /uma-providers', await call(ctx, 'GET', '/uma-providers', { auth: p.auth }));
    check('GET /tokens', await call(ctx, 'GET', '/tokens', { auth: p.auth }));
    check('DELETE /customers/{customerId}', await call(ctx, 'DELETE', `/customers/${id}`, { auth: p.auth }));
  });
});

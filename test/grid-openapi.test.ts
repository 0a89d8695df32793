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
  if (API_ONLY[accountType])
    return component(where === 'PaymentInstructions' ? `Payment${API_ONLY[accountType].replace('External', '')}` : API_ONLY[accountType], 'grid-api');
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

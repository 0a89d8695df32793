import { createPublicKey } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testContext();
});

describe('GET /config', () => {
  it('shows the settings of the token environment with an Ed25519 public key, never the private one', async () => {
    const res = await call(ctx, 'GET', '/config');
    expect(res.status).toBe(200);
    expect(res.body.environment).toBe('SANDBOX');
    expect(res.body).not.toHaveProperty('webhookEndpoint');
    expect(res.body.umaDomain).toMatch(/^sandbox\./);
    expect(createPublicKey(res.body.webhookPublicKey).asymmetricKeyType).toBe('ed25519');
    expect(res.body.currencies.find((c: any) => c.currencyCode === 'USD')).toEqual({ currencyCode: 'USD', enabled: true });
    expect(JSON.stringify(res.body)).not.toMatch(/PRIVATE/);
    // Generated once, then stable.
    expect((await call(ctx, 'GET', '/config')).body.webhookPublicKey).toBe(res.body.webhookPublicKey);
  });

  it('has one key pair per environment and per platform', async () => {
    const sandbox = (await call(ctx, 'GET', '/config')).body.webhookPublicKey;
    const prod = await call(ctx, 'GET', '/config', { auth: await ctx.platform.token(['VIEW'], 'PRODUCTION') });
    expect(prod.body.environment).toBe('PRODUCTION');
    expect(prod.body.webhookPublicKey).not.toBe(sandbox);
    const other = await ctx.newPlatform('Other');
    expect((await call(ctx, 'GET', '/config', { auth: other.auth })).body.webhookPublicKey).not.toBe(sandbox);
  });

  it('needs credentials; VIEW may read', async () => {
    expectError(await call(ctx, 'GET', '/config', { auth: null }), 401, 'UNAUTHORIZED');
    expect((await call(ctx, 'GET', '/config', { auth: await ctx.platform.token(['VIEW']) })).status).toBe(200);
  });
});

describe('PATCH /config', () => {
  it('sets and clears the webhook endpoint (http allowed in SANDBOX)', async () => {
    const set = await call(ctx, 'PATCH', '/config', { body: { webhookEndpoint: 'http://127.0.0.1:9/hooks' } });
    expect(set.status).toBe(200);
    expect(set.body.webhookEndpoint).toBe('http://127.0.0.1:9/hooks');
    expect((await call(ctx, 'GET', '/config')).body.webhookEndpoint).toBe('http://127.0.0.1:9/hooks');
    const cleared = await call(ctx, 'PATCH', '/config', { body: { webhookEndpoint: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body).not.toHaveProperty('webhookEndpoint');
  });

  it('requires https in PRODUCTION', async () => {
    const auth = await ctx.platform.token(['MANAGE'], 'PRODUCTION');
    const err = expectError(await call(ctx, 'PATCH', '/config', { auth, body: { webhookEndpoint: 'http://93.184.215.14/hooks' } }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0]).toMatchObject({ field: 'webhookEndpoint', message: expect.stringMatching(/https/) });
    const ok = await call(ctx, 'PATCH', '/config', { auth, body: { webhookEndpoint: 'https://93.184.215.14/hooks' } });
    expect(ok.status).toBe(200);
    expect(ok.body.webhookEndpoint).toBe('https://93.184.215.14/hooks');
    // The sandbox configuration is separate.
    expect((await call(ctx, 'GET', '/config')).body.webhookEndpoint).not.toBe('https://93.184.215.14/hooks');
  });

  it('refuses bad input naming the field, and changes nothing', async () => {
    const before = (await call(ctx, 'GET', '/config')).body;
    const cases: Array<[unknown, string]> = [
      [{ webhookEndpoint: 'not a url' }, 'webhookEndpoint'],
      [{ webhookEndpoint: 'ftp://example.com/x' }, 'webhookEndpoint'],
      [{ webhookEndpoint: 'https://user:pass@93.184.215.14/x' }, 'webhookEndpoint'],
      [{ webhookEndpoint: 42 }, 'webhookEndpoint'],
      [{ umaDomain: 'no spaces allowed.com' }, 'umaDomain'],
      [{ umaDomain: 'localhost' }, 'umaDomain'],
      [{ currencies: [{ currencyCode: 'XXX' }] }, 'currencies.0.currencyCode'],
      [{ currencies: [{ currencyCode: 'USD', minAmount: -1 }] }, 'currencies.0.minAmount'],
      [{ currencies: [{ currencyCode: 'USD', minAmount: 1.5 }] }, 'currencies.0.minAmount'],
      [{ currencies: [{ currencyCode: 'USD', minAmount: 500, maxAmount: 100 }] }, 'currencies.0.minAmount'],
      [{ currencies: [{ currencyCode: 'USD' }, { currencyCode: 'USD', enabled: false }] }, 'currencies.1.currencyCode'],
      [{ currencies: [{ currencyCode: 'USD', limit: 3 }] }, 'currencies.0.limit'],
      [{ webhookPublicKey: 'mine' }, 'webhookPublicKey'],
      [{ colour: 'blue' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const err = expectError(await call(ctx, 'PATCH', '/config', { body }), 400, 'INVALID_INPUT');
      expect(
        err.details.fields.map((f: any) => f.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect((await call(ctx, 'GET', '/config')).body).toEqual(before);
  });

  it('merges per-currency settings; unlisted currencies keep theirs', async () => {
    await call(ctx, 'PATCH', '/config', {
      body: {
        currencies: [
          { currencyCode: 'USD', minAmount: 100, maxAmount: 1_000_000 },
          { currencyCode: 'BTC', enabled: false },
        ],
      },
    });
    const res = await call(ctx, 'PATCH', '/config', { body: { currencies: [{ currencyCode: 'USD', maxAmount: null }] } });
    const byCode = Object.fromEntries(res.body.currencies.map((c: any) => [c.currencyCode, c]));
    expect(byCode.USD).toEqual({ currencyCode: 'USD', enabled: true, minAmount: 100 });
    expect(byCode.BTC).toEqual({ currencyCode: 'BTC', enabled: false });
    expect(byCode.EUR).toEqual({ currencyCode: 'EUR', enabled: true });
    // A new maximum below the stored minimum is refused.
    const err = expectError(await call(ctx, 'PATCH', '/config', { body: { currencies: [{ currencyCode: 'USD', maxAmount: 50 }] } }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0].field).toBe('currencies.0.maxAmount');
  });

  it('moves existing customer UMA addresses to a new umaDomain', async () => {
    const p = await ctx.newPlatform('Movers');
    const created = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'c1', customerType: 'INDIVIDUAL', fullName: 'Ada Lovelace' },
    });
    expect(created.status).toBe(201);
    const local = created.body.umaAddress.split('@')[0];
    const res = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { umaDomain: 'Pay.Movers.uma.localhost' } });
    expect(res.status).toBe(200);
    expect(res.body.umaDomain).toBe('pay.movers.uma.localhost');
    const after = await call(ctx, 'GET', `/customers/${created.body.id}`, { auth: p.auth });
    expect(after.body.umaAddress).toBe(`${local}@pay.movers.uma.localhost`);
    // New customers use the new domain; an address on the old one is refused.
    const next = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'c2', customerType: 'INDIVIDUAL', fullName: 'Bob', umaAddress: '$bob@pay.movers.uma.localhost' },
    });
    expect(next.status).toBe(201);
  });

  it('refuses a umaDomain another platform uses (409), changing nothing', async () => {
    const a = await ctx.newPlatform('A');
    const b = await ctx.newPlatform('B');
    await call(ctx, 'PATCH', '/config', { auth: a.auth, body: { umaDomain: 'a.uma.localhost' } });
    const before = (await call(ctx, 'GET', '/config', { auth: b.auth })).body;
    expectError(
      await call(ctx, 'PATCH', '/config', { auth: b.auth, body: { umaDomain: 'A.uma.localhost', webhookEndpoint: 'http://127.0.0.1:9/x' } }),
      409,
      'UMA_DOMAIN_TAKEN',
    );
    expect((await call(ctx, 'GET', '/config', { auth: b.auth })).body).toEqual(before);
  });

  it('needs MANAGE: a VIEW token cannot write', async () => {
    const view = await ctx.platform.token(['VIEW']);
    expectError(await call(ctx, 'PATCH', '/config', { auth: view, body: { webhookEndpoint: null } }), 403, 'FORBIDDEN');
    const transact = await ctx.platform.token(['TRANSACT']);
    expectError(await call(ctx, 'PATCH', '/config', { auth: transact, body: { webhookEndpoint: null } }), 403, 'FORBIDDEN');
  });
});

/**
 * UMA domains are not first come, first served: in PRODUCTION a platform's own domain is a
 * pending claim until it is proven (HTTPS well-known file or DNS TXT record, fetched by the
 * server) or approved by the operator; the sandbox keeps domains under UMA_BASE_DOMAIN.
 * The network is a fake: nothing here leaves the machine.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import type { DomainProofNetwork } from '../src/modules/config/uma-domain.js';
import { cli, serverEnvironment } from './helpers/server.js';
import { call, expectError, testContext } from './helpers/context.js';
import { holdTransaction } from './helpers/held-transaction.js';

/** What the fake internet serves: URL → body (2xx), TXT name → records. */
const web = new Map<string, string>();
const txt = new Map<string, string[]>();
const fetched: string[] = [];
const network: DomainProofNetwork = {
  async fetchText(url) {
    fetched.push(url);
    const body = web.get(url);
    return body === undefined ? { status: 404, body: 'not found' } : { status: 200, body };
  },
  async resolveTxt(name) {
    const records = txt.get(name);
    if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return records.map((r) => [r.slice(0, 10), r.slice(10)]); // TXT records arrive in chunks
  },
};

describe('UMA domains', async () => {
  const ctx = await testContext({ domainProof: network });

  async function production() {
    const p = await ctx.newPlatform('Claimant');
    return { ...p, prod: await p.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION') };
  }

  it('the sandbox keeps domains under UMA_BASE_DOMAIN', async () => {
    const p = await ctx.newPlatform('Sandboxed');
    const err = expectError(await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { umaDomain: 'pay.example.com' } }), 400, 'INVALID_INPUT');
    expect(err.details.fields[0]).toMatchObject({ field: 'umaDomain', message: expect.stringContaining('uma.localhost') });
    const ok = await call(ctx, 'PATCH', '/config', { auth: p.auth, body: { umaDomain: 'pay.sandboxed.uma.localhost' } });
    const settled = ok.body;
    expect(settled.umaDomain).toBe('pay.sandboxed.uma.localhost');
    expect(settled).not.toHaveProperty('umaDomainClaim');
  });

  it('PRODUCTION: a domain of its own is pending, not usable, until proven', async () => {
    const p = await production();
    const before = (await call(ctx, 'GET', '/config', { auth: p.prod })).body.umaDomain;
    const res = await call(ctx, 'PATCH', '/config', { auth: p.prod, body: { umaDomain: 'Pay.Bank.example' } });
    expect(res.status).toBe(200);
    expect(res.body.umaDomain).toBe(before);
    const claim = res.body.umaDomainClaim;
    expect(claim).toMatchObject({
      domain: 'pay.bank.example',
      status: 'PENDING',
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      wellKnownUrl: 'https://pay.bank.example/.well-known/corridor-uma-domain.txt',
      dnsTxtName: '_corridor-uma-domain.pay.bank.example',
    });
    expect(claim.dnsTxtValue).toBe(`corridor-uma-domain=${claim.token}`);
    // Asking again keeps the token (the platform may already have published it).
    expect((await call(ctx, 'PATCH', '/config', { auth: p.prod, body: { umaDomain: 'pay.bank.example' } })).body.umaDomainClaim.token).toBe(claim.token);
    // Not usable: an address on it is refused.
    const customer = await call(ctx, 'POST', '/customers', {
      auth: p.prod,
      body: { platformCustomerId: 'c1', customerType: 'INDIVIDUAL', fullName: 'Ada', umaAddress: '$ada@pay.bank.example' },
    });
    expect(expectError(customer, 400, 'INVALID_INPUT').details.fields[0].field).toBe('umaAddress');

    // Nothing published yet: 409 with what was tried.
    const notYet = expectError(await call(ctx, 'POST', '/config/uma-domain/verify', { auth: p.prod }), 409, 'UMA_DOMAIN_NOT_PROVEN');
    expect(notYet.details.tried).toEqual([
      'https://pay.bank.example/.well-known/corridor-uma-domain.txt: HTTP 404',
      'TXT _corridor-uma-domain.pay.bank.example: ENOTFOUND',
    ]);
    web.set(claim.wellKnownUrl, 'someone-elses-token');
    expect(expectError(await call(ctx, 'POST', '/config/uma-domain/verify', { auth: p.prod }), 409, 'UMA_DOMAIN_NOT_PROVEN').details.tried[0]).toContain(
      'not the token',
    );

    // Published over HTTPS: the domain is the platform's, and existing addresses follow it.
    const existing = await call(ctx, 'POST', '/customers', { auth: p.prod, body: { platformCustomerId: 'c2', customerType: 'INDIVIDUAL', fullName: 'Bea' } });
    web.set(claim.wellKnownUrl, `${claim.token}\n`);
    const proven = await call(ctx, 'POST', '/config/uma-domain/verify', { auth: p.prod });
    expect(proven.status).toBe(200);
    const settled = proven.body;
    expect(settled.umaDomain).toBe('pay.bank.example');
    expect(settled).not.toHaveProperty('umaDomainClaim');
    expect((await call(ctx, 'GET', `/customers/${existing.body.id}`, { auth: p.prod })).body.umaAddress).toMatch(/@pay\.bank\.example$/);
    expect(
      (
        await call(ctx, 'POST', '/customers', {
          auth: p.prod,
          body: { platformCustomerId: 'c3', customerType: 'INDIVIDUAL', fullName: 'Ada', umaAddress: '$ada@pay.bank.example' },
        })
      ).status,
    ).toBe(201);
    expect(fetched).toContain(claim.wellKnownUrl);
  });

  it('PRODUCTION: a DNS TXT record proves it too; a domain another platform proved first stays theirs', async () => {
    const p = await production();
    const claim = (await call(ctx, 'PATCH', '/config', { auth: p.prod, body: { umaDomain: 'wallet.example.org' } })).body.umaDomainClaim;
    const rival = await production();
    const rivalClaim = (await call(ctx, 'PATCH', '/config', { auth: rival.prod, body: { umaDomain: 'wallet.example.org' } })).body.umaDomainClaim;
    expect(rivalClaim.token).not.toBe(claim.token);
    txt.set('_corridor-uma-domain.wallet.example.org', ['v=spf1 -all', claim.dnsTxtValue]);
    expect((await call(ctx, 'POST', '/config/uma-domain/verify', { auth: p.prod })).body.umaDomain).toBe('wallet.example.org');
    // The rival's token is not published, and the domain is taken anyway.
    expectError(await call(ctx, 'POST', '/config/uma-domain/verify', { auth: rival.prod }), 409, 'UMA_DOMAIN_NOT_PROVEN');
    txt.set('_corridor-uma-domain.wallet.example.org', [rivalClaim.dnsTxtValue]);
    expectError(await call(ctx, 'POST', '/config/uma-domain/verify', { auth: rival.prod }), 409, 'UMA_DOMAIN_TAKEN');
  });

  it('verifying with nothing pending is 409; a domain under the base domain applies at once in PRODUCTION', async () => {
    const p = await production();
    expectError(await call(ctx, 'POST', '/config/uma-domain/verify', { auth: p.prod }), 409, 'NO_UMA_DOMAIN_CLAIM');
    const res = await call(ctx, 'PATCH', '/config', { auth: p.prod, body: { umaDomain: 'claimant-live.uma.localhost' } });
    const settled = res.body;
    expect(settled.umaDomain).toBe('claimant-live.uma.localhost');
    expect(settled).not.toHaveProperty('umaDomainClaim');
  });
});

describe('a customer address written while the domain changes', async () => {
  const ctx = await testContext();

  it('a customer created meanwhile ends on the new domain, like every other', async () => {
    const p = await ctx.newPlatform('Moving');
    const scope = { platformId: p.platformId, environment: 'SANDBOX' as const };
    const before = await call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'before', customerType: 'INDIVIDUAL', fullName: 'Ann Before' },
    });
    // The domain change commits only when released.
    const change = await holdTransaction(ctx.container.db, () => ctx.container.services.config.update(scope, { umaDomain: 'moving.uma.localhost' }));
    const created = call(ctx, 'POST', '/customers', {
      auth: p.auth,
      body: { platformCustomerId: 'during', customerType: 'INDIVIDUAL', fullName: 'Bob During' },
    });
    // PostgreSQL: the creation waits for the change to commit (unheld, it would finish on the old
    // domain meanwhile). SQLite writes one transaction at a time: it runs after the change.
    await change.blocking(created);
    await change.release();
    const during = await created;
    expect(during.status).toBe(201);
    expect(during.body.umaAddress).toMatch(/@moving\.uma\.localhost$/);
    for (const c of [before.body, during.body]) {
      expect((await call(ctx, 'GET', `/customers/${c.id}`, { auth: p.auth })).body.umaAddress).toMatch(/@moving\.uma\.localhost$/);
    }
  });
});

describe('npx corridor uma-domain approve', () => {
  it('the operator approves a pending domain without a proof', async () => {
    const { env, cleanup } = await serverEnvironment();
    try {
      const container = await createContainer(loadConfig(env));
      const platform = await container.services.platforms.create('Operator approved');
      const scope = { platformId: platform.id, environment: 'PRODUCTION' as const };
      await container.services.config.update(scope, { umaDomain: 'pay.approved.example' });
      await container.close();

      const listed = cli(['uma-domain', 'list', '--json'], env);
      expect(listed.status).toBe(0);
      expect(JSON.parse(listed.stdout.trim())).toMatchObject({ platformId: platform.id, environment: 'PRODUCTION', domain: 'pay.approved.example' });
      const approved = cli(['uma-domain', 'approve', '--platform', platform.id, '--json'], env);
      expect(approved.stderr).toBe('');
      expect(JSON.parse(approved.stdout)).toEqual({ platformId: platform.id, environment: 'PRODUCTION', umaDomain: 'pay.approved.example' });

      const after = await createContainer(loadConfig(env));
      const settled = await after.services.config.get(scope);
      expect(settled.umaDomain).toBe('pay.approved.example');
      expect(settled).not.toHaveProperty('umaDomainClaim');
      await after.close();
      expect(cli(['uma-domain', 'approve', '--platform', platform.id], env).status).not.toBe(0);
    } finally {
      await cleanup();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { call, expectError, testContext } from './helpers/context.js';
import { business, createCustomer, individual } from './helpers/factories.js';

describe('customers', async () => {
  const ctx = await testContext();

  describe('POST /customers', () => {
    it('creates an individual with every field of the spec present', async () => {
      const res = await call(ctx, 'POST', '/customers', { body: individual({ platformCustomerId: 'ada-1' }) });
      expect(res.status).toBe(201);
      const c = res.body;
      expect(c.id).toMatch(/^Customer:[0-9a-f-]{36}$/);
      expect(c).toMatchObject({
        platformCustomerId: 'ada-1',
        customerType: 'INDIVIDUAL',
        region: 'GB',
        currencies: ['GBP'],
        isDeleted: false,
        kycStatus: 'APPROVED',
        fullName: 'Ada Lovelace',
        birthDate: '1990-12-10',
        nationality: 'GB',
        address: { line1: '12 St James Square', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' },
      });
      for (const field of [
        'id',
        'platformCustomerId',
        'customerType',
        'umaAddress',
        'region',
        'currencies',
        'createdAt',
        'updatedAt',
        'isDeleted',
        'kycStatus',
        'fullName',
        'birthDate',
        'nationality',
        'address',
      ]) {
        expect(c).toHaveProperty(field);
      }
      expect(c.umaAddress).toMatch(/^\$ada\.lovelace\.[0-9a-f]{10}@sandbox\./);
      expect(new Date(c.createdAt).toISOString()).toBe(c.createdAt);
    });

    it('keeps a given UMA address on the platform domain, lower-cased, and refuses a taken one with 409', async () => {
      const first = await createCustomer(ctx);
      const domain = first.umaAddress.split('@')[1];
      const c = await createCustomer(ctx, { umaAddress: `$Grace.Hopper@${domain}` });
      expect(c.umaAddress).toBe(`$grace.hopper@${domain}`);
      expectError(await call(ctx, 'POST', '/customers', { body: individual({ umaAddress: `$grace.hopper@${domain}` }) }), 409, 'UMA_ADDRESS_EXISTS');
      const other = expectError(await call(ctx, 'POST', '/customers', { body: individual({ umaAddress: '$grace@elsewhere.example' }) }), 400, 'INVALID_INPUT');
      expect(other.details.fields[0].field).toBe('umaAddress');
    });

    it('refuses a duplicate platformCustomerId with 409 and stores nothing', async () => {
      await createCustomer(ctx, { platformCustomerId: 'dup-1' });
      expectError(await call(ctx, 'POST', '/customers', { body: individual({ platformCustomerId: 'dup-1' }) }), 409, 'PLATFORM_CUSTOMER_ID_EXISTS');
      const list = await call(ctx, 'GET', '/customers', { query: { platformCustomerId: 'dup-1' } });
      expect(list.body.totalCount).toBe(1);
    });

    it('creates a business with businessInfo, PENDING until it has an owner', async () => {
      const res = await call(ctx, 'POST', '/customers', { body: business() });
      expect(res.status).toBe(201);
      expect(res.body.kycStatus).toBe('PENDING');
      expect(res.body.businessInfo).toEqual({ legalName: 'Analytical Engines Ltd', registrationNumber: '01234567', incorporationCountry: 'GB' });
      expect(res.body).not.toHaveProperty('fullName');
    });

    it('defaults currencies to the region currency, else USD', async () => {
      expect((await createCustomer(ctx, { address: { line1: '1 Rizal Ave', postalCode: '1000', country: 'PH' }, nationality: 'PH' })).currencies).toEqual([
        'PHP',
      ]);
      expect((await createCustomer(ctx, { address: { line1: '1 Rue', postalCode: '75001', country: 'FR' }, nationality: 'FR' })).currencies).toEqual(['EUR']);
      expect((await createCustomer(ctx, { address: { line1: '1 Main', postalCode: '00000', country: 'JP' }, nationality: 'JP' })).currencies).toEqual(['USD']);
    });

    it.each([
      ['missing platformCustomerId', { platformCustomerId: undefined }, 'platformCustomerId', 'is required'],
      ['wrong type', { platformCustomerId: 42 }, 'platformCustomerId', 'must be of type string'],
      ['unknown customerType', { customerType: 'ROBOT' }, 'customerType', 'must be one of INDIVIDUAL, BUSINESS'],
      ['impossible date', { birthDate: '1990-02-30' }, 'birthDate', 'must be a real date in the form YYYY-MM-DD'],
      ['future birth date', { birthDate: '2999-01-01' }, 'birthDate', 'must not be in the future'],
      ['lower-case country', { nationality: 'gb' }, 'nationality', 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)'],
      ['unknown country', { nationality: 'XX' }, 'nationality', 'must be an ISO 3166-1 alpha-2 country code in upper case (e.g. US)'],
      ['unknown currency', { currencies: ['USD', 'DOGE'] }, 'currencies.1', expect.stringContaining('must be a supported currency code')],
      ['duplicate currency', { currencies: ['USD', 'USD'] }, 'currencies', expect.stringContaining('duplicate')],
      ['address without line1', { address: { postalCode: '1', country: 'US' } }, 'address.line1', 'is required'],
      ['unknown field', { favouriteColour: 'blue' }, 'favouriteColour', 'is not a known field'],
      // (Without fullName or businessInfo a customer is created UNVERIFIED: test/vendor-compat.test.ts.)
      ['individual with businessInfo', { businessInfo: { legalName: 'X' } }, 'businessInfo', 'is only for BUSINESS customers'],
      ['too long name', { fullName: 'x'.repeat(201) }, 'fullName', expect.stringContaining('200')],
      ['malformed UMA address', { umaAddress: 'alice@example.com' }, 'umaAddress', expect.stringContaining('must match pattern')],
      ['empty address line', { address: { line1: '', postalCode: '1', country: 'US' } }, 'address.line1', expect.stringContaining('fewer than 1')],
    ])('refuses %s with INVALID_INPUT naming the field', async (_name, change, field, message) => {
      const before = (await call(ctx, 'GET', '/customers')).body.totalCount;
      const res = await call(ctx, 'POST', '/customers', { body: individual(change) });
      const err = expectError(res, 400, 'INVALID_INPUT');
      expect(err.details.fields).toContainEqual({ field, in: 'body', message });
      expect((await call(ctx, 'GET', '/customers')).body.totalCount).toBe(before);
    });

    it.each([
      ['without legalName', { businessInfo: { taxId: '12-3456789' } }, 'businessInfo.legalName', 'is required'],
      [
        'an impossible incorporationDate',
        { businessInfo: { legalName: 'X Ltd', incorporationDate: '2021-13-01' } },
        'businessInfo.incorporationDate',
        'must be a real date in the form YYYY-MM-DD',
      ],
      [
        'a lower-case incorporationCountry',
        { businessInfo: { legalName: 'X Ltd', incorporationCountry: 'gb' } },
        'businessInfo.incorporationCountry',
        expect.stringContaining('ISO 3166-1 alpha-2'),
      ],
      ['an unknown businessInfo field', { businessInfo: { legalName: 'X Ltd', ceo: 'Y' } }, 'businessInfo.ceo', 'is not a known field'],
    ])('refuses a business %s, naming the field', async (_name, change, field, message) => {
      const err = expectError(await call(ctx, 'POST', '/customers', { body: business(change) }), 400, 'INVALID_INPUT');
      expect(err.details.fields).toContainEqual({ field, in: 'body', message });
    });

    it('refuses two domestic currencies on one customer, with details', async () => {
      const err = expectError(
        await call(ctx, 'POST', '/customers', { body: individual({ currencies: ['USD', 'NGN', 'KES'] }) }),
        400,
        'CURRENCY_COMBINATION_NOT_ALLOWED',
      );
      expect(err.details.conflicting).toEqual(['NGN', 'KES']);
    });

    it('refuses non-JSON bodies with 415 and broken JSON with 400', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/2025-10-13/customers',
        headers: { authorization: ctx.platform.auth, 'content-type': 'text/plain' },
        payload: 'hello',
      });
      expect(res.statusCode).toBe(415);
      expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const json = JSON.stringify(individual());
      for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', undefined]) {
        const other = await ctx.app.inject({
          method: 'POST',
          url: '/2025-10-13/customers',
          headers: { authorization: ctx.platform.auth, ...(type ? { 'content-type': type } : {}) },
          payload: json,
        });
        expect([type, other.statusCode, other.json().code]).toEqual([type, 415, 'UNSUPPORTED_MEDIA_TYPE']);
      }
      const broken = await ctx.app.inject({
        method: 'POST',
        url: '/2025-10-13/customers',
        headers: { authorization: ctx.platform.auth, 'content-type': 'application/json' },
        payload: '{"a":',
      });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().code).toBe('INVALID_INPUT');
    });

    it('refuses a body over the size limit with 413', async () => {
      const res = await call(ctx, 'POST', '/customers', { body: individual({ fullName: 'x'.repeat(2 * 1024 * 1024) }) });
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });
  });

  describe('GET, PATCH, DELETE /customers/{id}', () => {
    it('reads what was created', async () => {
      const c = await createCustomer(ctx);
      const res = await call(ctx, 'GET', `/customers/${c.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(c);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectError(await call(ctx, 'GET', '/customers/Customer:01a20114-9018-75ba-bdbf-da3d321b64b9'), 404, 'CUSTOMER_NOT_FOUND');
      const err = expectError(await call(ctx, 'GET', '/customers/not-an-id'), 400, 'INVALID_INPUT');
      expect(err.details.fields[0]).toMatchObject({ field: 'customerId', in: 'path' });
    });

    it('PATCH changes only what is given, replaces currencies, and refuses another customerType', async () => {
      const c = await createCustomer(ctx);
      const res = await call(ctx, 'PATCH', `/customers/${c.id}`, {
        body: { customerType: 'INDIVIDUAL', currencies: ['USD', 'EUR', 'BTC'], kycStatus: 'REJECTED' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ...c, currencies: ['USD', 'EUR', 'BTC'], kycStatus: 'REJECTED', updatedAt: res.body.updatedAt });
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body).toEqual(res.body);
      // customerType may be left out (the vendor's CLI does); given, it must be the customer's own.
      const other = expectError(await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { customerType: 'BUSINESS', fullName: 'New' } }), 400, 'INVALID_INPUT');
      expect(other.details.fields.map((f: any) => f.field)).toEqual(['customerType']);
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body.fullName).toBe(c.fullName);
      const without = await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { fullName: 'New' } });
      expect(without.body).toMatchObject({ customerType: 'INDIVIDUAL', fullName: 'New' });
    });

    it('PATCH refuses a currency combination that needs separate customers, with details, and changes nothing', async () => {
      const c = await createCustomer(ctx);
      const err = expectError(
        await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { customerType: 'INDIVIDUAL', currencies: ['PHP', 'INR'] } }),
        400,
        'CURRENCY_COMBINATION_NOT_ALLOWED',
      );
      expect(err.details).toMatchObject({ field: 'currencies', conflicting: ['PHP', 'INR'] });
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body.currencies).toEqual(c.currencies);
    });

    it('PATCH sets a UMA address on the platform domain, refuses a taken one with 409 and another domain with 400, changing nothing', async () => {
      const a = await createCustomer(ctx);
      const b = await createCustomer(ctx);
      const domain = a.umaAddress.split('@')[1];
      const moved = await call(ctx, 'PATCH', `/customers/${a.id}`, { body: { customerType: 'INDIVIDUAL', umaAddress: `$Ada.Patched@${domain}` } });
      expect(moved.status).toBe(200);
      expect(moved.body.umaAddress).toBe(`$ada.patched@${domain}`);
      expectError(
        await call(ctx, 'PATCH', `/customers/${b.id}`, { body: { customerType: 'INDIVIDUAL', umaAddress: `$ada.patched@${domain}`, fullName: 'Taker' } }),
        409,
        'UMA_ADDRESS_EXISTS',
      );
      expectError(
        await call(ctx, 'PATCH', `/customers/${b.id}`, { body: { customerType: 'INDIVIDUAL', umaAddress: '$b@elsewhere.example' } }),
        400,
        'INVALID_INPUT',
      );
      const unknown = expectError(
        await call(ctx, 'PATCH', `/customers/${b.id}`, { body: { customerType: 'INDIVIDUAL', platformCustomerId: 'renamed' } }),
        400,
        'INVALID_INPUT',
      );
      expect(unknown.details.fields).toContainEqual({ field: 'platformCustomerId', in: 'body', message: 'is not a known field' });
      expect((await call(ctx, 'GET', `/customers/${b.id}`)).body).toEqual(b);
    });

    it('PATCH sets kycStatus and refuses a value outside the enum', async () => {
      const c = await createCustomer(ctx);
      expect((await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'PENDING' } })).body.kycStatus).toBe('PENDING');
      expectError(await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { customerType: 'INDIVIDUAL', kycStatus: 'VERIFIED' } }), 400, 'INVALID_INPUT');
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body.kycStatus).toBe('PENDING');
    });

    it('DELETE marks the customer deleted; later reads and writes answer 410', async () => {
      const c = await createCustomer(ctx);
      const del = await call(ctx, 'DELETE', `/customers/${c.id}`);
      expect(del.status).toBe(200);
      expect(del.body.isDeleted).toBe(true);
      expectError(await call(ctx, 'GET', `/customers/${c.id}`), 410, 'CUSTOMER_DELETED');
      expectError(await call(ctx, 'PATCH', `/customers/${c.id}`, { body: { customerType: 'INDIVIDUAL', fullName: 'X' } }), 410, 'CUSTOMER_DELETED');
      expectError(await call(ctx, 'DELETE', `/customers/${c.id}`), 410, 'CUSTOMER_DELETED');
      const hidden = await call(ctx, 'GET', '/customers', { query: { platformCustomerId: c.platformCustomerId } });
      expect(hidden.body.totalCount).toBe(0);
      const shown = await call(ctx, 'GET', '/customers', { query: { platformCustomerId: c.platformCustomerId, includeDeleted: true } });
      expect(shown.body.data.map((x: any) => [x.id, x.isDeleted])).toEqual([[c.id, true]]);
    });
  });

  describe('isolation and permissions', () => {
    it("another platform's token cannot see or touch a customer (404)", async () => {
      const c = await createCustomer(ctx);
      const other = await ctx.newPlatform('Other');
      expectError(await call(ctx, 'GET', `/customers/${c.id}`, { auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expectError(
        await call(ctx, 'PATCH', `/customers/${c.id}`, { auth: other.auth, body: { customerType: 'INDIVIDUAL', fullName: 'Mallory' } }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
      expectError(await call(ctx, 'DELETE', `/customers/${c.id}`, { auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expect((await call(ctx, 'GET', '/customers', { auth: other.auth })).body.totalCount).toBe(0);
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body.fullName).toBe(c.fullName);
    });

    it("the same platform's PRODUCTION token sees none of its SANDBOX customers", async () => {
      const c = await createCustomer(ctx);
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      expectError(await call(ctx, 'GET', `/customers/${c.id}`, { auth: prod }), 404, 'CUSTOMER_NOT_FOUND');
      expectError(
        await call(ctx, 'PATCH', `/customers/${c.id}`, { auth: prod, body: { customerType: 'INDIVIDUAL', fullName: 'Mallory' } }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
      expectError(await call(ctx, 'DELETE', `/customers/${c.id}`, { auth: prod }), 404, 'CUSTOMER_NOT_FOUND');
      expect((await call(ctx, 'GET', `/customers/${c.id}`)).body).toEqual(c);
      expect((await call(ctx, 'GET', '/customers', { auth: prod, query: { platformCustomerId: c.platformCustomerId } })).body.totalCount).toBe(0);
      const made = await call(ctx, 'POST', '/customers', { auth: prod, body: individual({ platformCustomerId: c.platformCustomerId }) });
      expect(made.status).toBe(201);
      expect(made.body.kycStatus).toBe('UNVERIFIED');
    });

    it('a VIEW token can read but not write (403)', async () => {
      const view = await ctx.platform.token(['VIEW']);
      const c = await createCustomer(ctx);
      expect((await call(ctx, 'GET', `/customers/${c.id}`, { auth: view })).status).toBe(200);
      const err = expectError(await call(ctx, 'POST', '/customers', { auth: view, body: individual() }), 403, 'FORBIDDEN');
      expect(err.details).toMatchObject({ requiredPermission: 'MANAGE' });
      expectError(await call(ctx, 'DELETE', `/customers/${c.id}`, { auth: view }), 403, 'FORBIDDEN');
    });
  });
});

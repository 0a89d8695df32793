import { describe, expect, it } from 'vitest';
import { call, expectError, testContext } from './helpers/context.js';
import { business, createCustomer } from './helpers/factories.js';

function personalInfo(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Grace',
    middleName: 'Brewster',
    lastName: 'Hopper',
    birthDate: '1976-12-09',
    nationality: 'US',
    address: { line1: '1 Navy Way', city: 'Arlington', state: 'VA', postalCode: '22202', country: 'US' },
    idType: 'SSN',
    identifier: '123456789',
    email: 'grace@example.com',
    phoneNumber: '+14155550123',
    ...overrides,
  };
}

function owner(customerId: string, overrides: Record<string, unknown> = {}) {
  return { customerId, roles: ['UBO'], ownershipPercentage: 40, personalInfo: personalInfo(), ...overrides };
}

describe('beneficial owners', async () => {
  const ctx = await testContext();
  const newBusiness = async (auth?: string) => (await call(ctx, 'POST', '/customers', { body: business(), auth })).body;
  const addOwner = async (customerId: string, overrides: Record<string, unknown> = {}, auth?: string) => {
    const res = await call(ctx, 'POST', '/beneficial-owners', { body: owner(customerId, overrides), auth });
    if (res.status !== 201) throw new Error(`owner create failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const fields = (body: any) => body.details.fields.map((f: { field: string }) => f.field);

  describe('POST /beneficial-owners', () => {
    it('creates an owner of a business, normalising SSN and phone; sandbox KYC is instant', async () => {
      const biz = await newBusiness();
      const res = await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, { roles: ['UBO', 'DIRECTOR'] }) });
      expect(res.status).toBe(201);
      expect(res.body.id).toMatch(/^BeneficialOwner:[0-9a-f-]{36}$/);
      expect(res.body).toMatchObject({
        customerId: biz.id,
        roles: ['UBO', 'DIRECTOR'],
        ownershipPercentage: 40,
        kycStatus: 'APPROVED',
        personalInfo: { ...personalInfo(), identifier: '123-45-6789', countryOfIssuance: 'US' },
      });
      expect(res.body.createdAt).toBe(res.body.updatedAt);
    });

    it('accepts each of the six roles and every idType, with percentages 0 and 100', async () => {
      const biz = await newBusiness();
      const roles = ['UBO', 'DIRECTOR', 'COMPANY_OFFICER', 'CONTROL_PERSON', 'TRUSTEE', 'GENERAL_PARTNER'];
      expect((await addOwner(biz.id, { roles, ownershipPercentage: 100 })).roles).toEqual(roles);
      const ids: Array<[string, string, string?]> = [
        ['ITIN', '912701234'],
        ['PASSPORT', 'X1234567', 'FR'],
        ['NATIONAL_ID', 'AB123456', 'ES'],
        ['DRIVERS_LICENSE', 'D1234-5678', 'CA'],
        ['RESIDENCE_PERMIT', 'RP 123', 'DE'],
        ['TAX_ID', 'ABCDE1234F', 'IN'],
      ];
      for (const [idType, identifier, countryOfIssuance] of ids) {
        const o = await addOwner(biz.id, {
          roles: ['DIRECTOR'],
          ownershipPercentage: 0,
          personalInfo: personalInfo({ idType, identifier, countryOfIssuance }),
        });
        expect(o.personalInfo).toMatchObject({ idType, countryOfIssuance: countryOfIssuance ?? 'US' });
      }
    });

    it('keeps a passport with its issuing country, and asks for that country', async () => {
      const biz = await newBusiness();
      const p = await addOwner(biz.id, {
        roles: ['DIRECTOR'],
        ownershipPercentage: 0,
        personalInfo: personalInfo({ idType: 'PASSPORT', identifier: 'X1234567', countryOfIssuance: 'FR', nationality: 'FR' }),
      });
      expect(p.personalInfo).toMatchObject({ idType: 'PASSPORT', identifier: 'X1234567', countryOfIssuance: 'FR' });
      const res = expectError(
        await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, { personalInfo: personalInfo({ idType: 'PASSPORT', identifier: 'X1' }) }) }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(res)).toEqual(['personalInfo.countryOfIssuance']);
      const us = expectError(
        await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, { personalInfo: personalInfo({ countryOfIssuance: 'GB' }) }) }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(us)).toEqual(['personalInfo.countryOfIssuance']);
    });

    it('refuses an individual customer as the business with 400 naming customerId', async () => {
      const person = await createCustomer(ctx);
      const res = expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(person.id) }), 400, 'INVALID_INPUT');
      expect(fields(res)).toEqual(['customerId']);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: person.id } })).body.totalCount).toBe(0);
    });

    it('refuses UBO percentages past 100 with details, counting UBOs only, and stores nothing', async () => {
      const biz = await newBusiness();
      await addOwner(biz.id, { ownershipPercentage: 60 });
      await addOwner(biz.id, { roles: ['DIRECTOR'], ownershipPercentage: 90 });
      const res = expectError(
        await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, { ownershipPercentage: 41 }) }),
        400,
        'OWNERSHIP_EXCEEDS_100',
      );
      expect(res.details).toMatchObject({ customerId: biz.id, otherUbosTotal: 60, requested: 41, maximumAllowed: 40 });
      expect(fields(res)).toEqual(['ownershipPercentage']);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id } })).body.totalCount).toBe(2);
      await addOwner(biz.id, { ownershipPercentage: 40 });
    });

    it('keeps the cap under concurrent creates: 10 UBOs of 20% at once, 5 get in', async () => {
      const biz = await newBusiness();
      const results = await Promise.all(
        Array.from({ length: 10 }, () => call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, { ownershipPercentage: 20 }) })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      expect(results.filter((r) => r.status === 400 && r.body.code === 'OWNERSHIP_EXCEEDS_100')).toHaveLength(5);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id } })).body.totalCount).toBe(5);
    });

    it.each([
      ['a missing personalInfo.firstName', { personalInfo: { ...personalInfo(), firstName: undefined } }, 'personalInfo.firstName'],
      ['an unknown role', { roles: ['OWNER'] }, 'roles.0'],
      ['no roles', { roles: [] }, 'roles'],
      ['a percentage above 100', { ownershipPercentage: 101 }, 'ownershipPercentage'],
      ['a fractional percentage', { ownershipPercentage: 12.5 }, 'ownershipPercentage'],
      ['a negative percentage', { ownershipPercentage: -1 }, 'ownershipPercentage'],
      ['a percentage as text', { ownershipPercentage: '40' }, 'ownershipPercentage'],
      ['an invalid email', { personalInfo: personalInfo({ email: 'not-an-email' }) }, 'personalInfo.email'],
      ['an invalid phone number', { personalInfo: personalInfo({ phoneNumber: '+1415555' }) }, 'personalInfo.phoneNumber'],
      ['a phone number without +', { personalInfo: personalInfo({ phoneNumber: '4155550123' }) }, 'personalInfo.phoneNumber'],
      ['a birth date in the future', { personalInfo: personalInfo({ birthDate: '2999-01-01' }) }, 'personalInfo.birthDate'],
      ['an impossible birth date', { personalInfo: personalInfo({ birthDate: '1990-02-30' }) }, 'personalInfo.birthDate'],
      ['a malformed SSN', { personalInfo: personalInfo({ identifier: '000-12-3456' }) }, 'personalInfo.identifier'],
      ['an unknown idType', { personalInfo: personalInfo({ idType: 'LIBRARY_CARD' }) }, 'personalInfo.idType'],
      ['a lower-case nationality', { personalInfo: personalInfo({ nationality: 'us' }) }, 'personalInfo.nationality'],
      ['an unknown field', { kycStatus: 'APPROVED' }, 'kycStatus'],
      ['an unknown personalInfo field', { personalInfo: personalInfo({ ssn: '1' }) }, 'personalInfo.ssn'],
      ['a malformed customerId', { customerId: 'Customer:1' }, 'customerId'],
    ])('refuses %s with 400 naming the field', async (_name, overrides, field) => {
      const biz = await newBusiness();
      const res = expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id, overrides) }), 400, 'INVALID_INPUT');
      expect(fields(res)).toContain(field);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id } })).body.totalCount).toBe(0);
    });

    it('answers 404 for an unknown business and 410 for a deleted one', async () => {
      expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner('Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11') }), 404, 'CUSTOMER_NOT_FOUND');
      const biz = await newBusiness();
      const o = await addOwner(biz.id, { roles: ['DIRECTOR'] });
      await call(ctx, 'DELETE', `/customers/${biz.id}`);
      expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id) }), 410, 'CUSTOMER_DELETED');
      expectError(await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { ownershipPercentage: 1 } }), 410, 'CUSTOMER_DELETED');
      // The record of who owned a deleted business stays readable.
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).status).toBe(200);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id } })).body.totalCount).toBe(1);
    });

    it('replays a POST with the same Idempotency-Key and stores one owner', async () => {
      const biz = await newBusiness();
      const headers = { 'idempotency-key': `owner-${biz.id}` };
      const first = await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id), headers });
      const again = await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id), headers });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(first.body.id);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id } })).body.totalCount).toBe(1);
    });
  });

  describe('KYB of a business customer (sandbox)', () => {
    const kyc = async (id: string) => (await call(ctx, 'GET', `/customers/${id}`)).body.kycStatus;

    it('stays PENDING with directors only and becomes APPROVED with a UBO', async () => {
      const biz = await newBusiness();
      expect(biz.kycStatus).toBe('PENDING');
      await addOwner(biz.id, { roles: ['DIRECTOR', 'COMPANY_OFFICER'] });
      expect(await kyc(biz.id)).toBe('PENDING');
      await addOwner(biz.id, { roles: ['UBO'] });
      expect(await kyc(biz.id)).toBe('APPROVED');
    });

    it('follows the CONTROL_PERSON role through PATCH, and back to PENDING when the last one goes', async () => {
      const biz = await newBusiness();
      const o = await addOwner(biz.id, { roles: ['TRUSTEE'], ownershipPercentage: 0 });
      expect(await kyc(biz.id)).toBe('PENDING');
      await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { roles: ['TRUSTEE', 'CONTROL_PERSON'] } });
      expect(await kyc(biz.id)).toBe('APPROVED');
      await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { roles: ['GENERAL_PARTNER'] } });
      expect(await kyc(biz.id)).toBe('PENDING');
    });

    it('never overrides a status the platform set by hand', async () => {
      const biz = await newBusiness();
      await call(ctx, 'PATCH', `/customers/${biz.id}`, { body: { customerType: 'BUSINESS', kycStatus: 'REJECTED' } });
      await addOwner(biz.id, { roles: ['UBO'] });
      expect(await kyc(biz.id)).toBe('REJECTED');
    });

    it('refuses APPROVED set by hand in the sandbox until a UBO or control person exists', async () => {
      const approve = (id: string, auth?: string) =>
        call(ctx, 'PATCH', `/customers/${id}`, { body: { customerType: 'BUSINESS', kycStatus: 'APPROVED' }, auth });
      const biz = await newBusiness();
      const res = expectError(await approve(biz.id), 400, 'INVALID_INPUT');
      expect(fields(res)).toEqual(['kycStatus']);
      await addOwner(biz.id, { roles: ['DIRECTOR', 'TRUSTEE'] });
      expectError(await approve(biz.id), 400, 'INVALID_INPUT');
      expect(await kyc(biz.id)).toBe('PENDING');
      // Other statuses stay the platform's to set; APPROVED comes back once a control person exists.
      expect((await call(ctx, 'PATCH', `/customers/${biz.id}`, { body: { customerType: 'BUSINESS', kycStatus: 'REJECTED' } })).body.kycStatus).toBe('REJECTED');
      await addOwner(biz.id, { roles: ['CONTROL_PERSON'], ownershipPercentage: 0 });
      expect(await kyc(biz.id)).toBe('REJECTED');
      expect((await approve(biz.id)).body.kycStatus).toBe('APPROVED');
      // In production the platform runs its own KYB and sets what it found.
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      const prodBiz = await newBusiness(prod);
      expect((await approve(prodBiz.id, prod)).body.kycStatus).toBe('APPROVED');
    });

    it('leaves production statuses alone: owners start UNVERIFIED', async () => {
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      const biz = await newBusiness(prod);
      const o = await addOwner(biz.id, {}, prod);
      expect(o.kycStatus).toBe('UNVERIFIED');
      expect((await call(ctx, 'GET', `/customers/${biz.id}`, { auth: prod })).body.kycStatus).toBe(biz.kycStatus);
      // The sandbox token does not see production objects.
      expectError(await call(ctx, 'GET', `/beneficial-owners/${o.id}`), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
    });
  });

  describe('GET /beneficial-owners', () => {
    it('needs customerId', async () => {
      const res = expectError(await call(ctx, 'GET', '/beneficial-owners'), 400, 'INVALID_INPUT');
      expect(res.details.fields[0]).toMatchObject({ field: 'customerId', in: 'query' });
    });

    it('pages the owners of one business, newest first, with totalCount', async () => {
      const biz = await newBusiness();
      const other = await newBusiness();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await addOwner(biz.id, { roles: ['DIRECTOR'], ownershipPercentage: i })).id);
      await addOwner(other.id);
      const page1 = await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id, limit: 3 } });
      expect(page1.body).toMatchObject({ hasMore: true, totalCount: 5 });
      const page2 = await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id, limit: 3, cursor: page1.body.nextCursor } });
      expect(page2.body.hasMore).toBe(false);
      expect([...page1.body.data, ...page2.body.data].map((o: { id: string }) => o.id)).toEqual(ids.reverse());
      // A cursor of one business's list does not page another's.
      expectError(await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: other.id, cursor: page1.body.nextCursor } }), 400, 'INVALID_INPUT');
    });

    it('answers 404 for an unknown business', async () => {
      expectError(
        await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' } }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
    });
  });

  describe('GET and PATCH /beneficial-owners/{id}', () => {
    it('retrieves an owner; an unknown id is 404', async () => {
      const o = await addOwner((await newBusiness()).id);
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).body).toEqual(o);
      expectError(await call(ctx, 'GET', '/beneficial-owners/BeneficialOwner:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
      expectError(await call(ctx, 'GET', '/beneficial-owners/Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'), 400, 'INVALID_INPUT');
    });

    it('changes only the fields given, merging personalInfo field by field; null removes an optional field', async () => {
      const o = await addOwner((await newBusiness()).id);
      const res = await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, {
        body: { personalInfo: { email: 'g.hopper@example.org', middleName: null, phoneNumber: '+44 20 7946 0958' } },
      });
      expect(res.status).toBe(200);
      const { middleName: _m, ...rest } = o.personalInfo;
      expect(res.body.personalInfo).toEqual({ ...rest, email: 'g.hopper@example.org', phoneNumber: '+442079460958' });
      expect(res.body).toMatchObject({ roles: o.roles, ownershipPercentage: o.ownershipPercentage, kycStatus: o.kycStatus, createdAt: o.createdAt });
      expect(res.body.updatedAt >= o.updatedAt).toBe(true);
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).body).toEqual(res.body);
      const address = { line1: '2 Main St', postalCode: '10001', country: 'US' };
      expect((await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { personalInfo: { address } } })).body.personalInfo.address).toEqual(address);
    });

    it('asks for a new identifier and issuer when idType changes', async () => {
      const o = await addOwner((await newBusiness()).id);
      const noId = expectError(
        await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { personalInfo: { idType: 'PASSPORT' } } }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(noId)).toEqual(['personalInfo.identifier']);
      const noIssuer = expectError(
        await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { personalInfo: { idType: 'PASSPORT', identifier: 'P123' } } }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(noIssuer)).toEqual(['personalInfo.countryOfIssuance']);
      const ok = await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, {
        body: { personalInfo: { idType: 'PASSPORT', identifier: 'P123', countryOfIssuance: 'CA' } },
      });
      expect(ok.body.personalInfo).toMatchObject({ idType: 'PASSPORT', identifier: 'P123', countryOfIssuance: 'CA' });
    });

    it('checks the 100% cap against the other UBOs, excluding the owner itself', async () => {
      const biz = await newBusiness();
      const a = await addOwner(biz.id, { ownershipPercentage: 50 });
      const b = await addOwner(biz.id, { roles: ['DIRECTOR'], ownershipPercentage: 80 });
      expect((await call(ctx, 'PATCH', `/beneficial-owners/${a.id}`, { body: { ownershipPercentage: 100 } })).status).toBe(200);
      const res = expectError(await call(ctx, 'PATCH', `/beneficial-owners/${b.id}`, { body: { roles: ['DIRECTOR', 'UBO'] } }), 400, 'OWNERSHIP_EXCEEDS_100');
      expect(res.details).toMatchObject({ otherUbosTotal: 100, requested: 80, maximumAllowed: 0 });
      expect((await call(ctx, 'GET', `/beneficial-owners/${b.id}`)).body.roles).toEqual(['DIRECTOR']);
    });

    it('loses no field when PATCHes of different fields of one owner run at once', async () => {
      const o = await addOwner((await newBusiness()).id, { roles: ['DIRECTOR'], ownershipPercentage: 10 });
      const patches = [
        { personalInfo: { firstName: 'Amazing' } },
        { personalInfo: { lastName: 'Grace' } },
        { personalInfo: { email: 'amazing.grace@example.org' } },
        { personalInfo: { middleName: null } },
        { personalInfo: { phoneNumber: '+442079460958' } },
        { ownershipPercentage: 30 },
        { roles: ['DIRECTOR', 'TRUSTEE'] },
      ];
      const results = await Promise.all(patches.map((body) => call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body })));
      expect(results.map((r) => r.status)).toEqual(patches.map(() => 200));
      const after = (await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).body;
      expect(after).toMatchObject({ roles: ['DIRECTOR', 'TRUSTEE'], ownershipPercentage: 30 });
      expect(after.personalInfo).toMatchObject({ firstName: 'Amazing', lastName: 'Grace', email: 'amazing.grace@example.org', phoneNumber: '+442079460958' });
      expect(after.personalInfo).not.toHaveProperty('middleName');
    });

    it('refuses bad input with 400 and changes nothing', async () => {
      const o = await addOwner((await newBusiness()).id);
      for (const body of [
        { ownershipPercentage: -1 },
        { roles: [] },
        { personalInfo: { birthDate: '2999-01-01' } },
        { personalInfo: { firstName: null } },
        { kycStatus: 'REJECTED' },
      ]) {
        expectError(await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body }), 400, 'INVALID_INPUT');
      }
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).body).toEqual(o);
    });
  });

  describe('tenants and permissions', () => {
    it("hides another platform's owners and businesses (404)", async () => {
      const other = await ctx.newPlatform('Other');
      const biz = await newBusiness();
      const o = await addOwner(biz.id);
      expectError(await call(ctx, 'GET', `/beneficial-owners/${o.id}`, { auth: other.auth }), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
      expectError(
        await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { ownershipPercentage: 1 }, auth: other.auth }),
        404,
        'BENEFICIAL_OWNER_NOT_FOUND',
      );
      expectError(await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id }, auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id), auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`)).body.ownershipPercentage).toBe(40);
    });

    it('lets a VIEW token read but not write (403)', async () => {
      const view = await ctx.platform.token(['VIEW']);
      const biz = await newBusiness();
      const o = await addOwner(biz.id);
      expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id), auth: view }), 403, 'FORBIDDEN');
      expectError(await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { ownershipPercentage: 1 }, auth: view }), 403, 'FORBIDDEN');
      expect((await call(ctx, 'GET', `/beneficial-owners/${o.id}`, { auth: view })).status).toBe(200);
      expect((await call(ctx, 'GET', '/beneficial-owners', { query: { customerId: biz.id }, auth: view })).body.totalCount).toBe(1);
      expectError(await call(ctx, 'GET', `/beneficial-owners/${o.id}`, { auth: null }), 401, 'UNAUTHORIZED');
    });

    it(`caps a business at 50 owners (409)`, async () => {
      const biz = await newBusiness();
      for (let i = 0; i < 50; i++) await addOwner(biz.id, { roles: ['COMPANY_OFFICER'], ownershipPercentage: 0 });
      expectError(await call(ctx, 'POST', '/beneficial-owners', { body: owner(biz.id) }), 409, 'BENEFICIAL_OWNER_LIMIT_REACHED');
    });
  });

  describe("POST /customers with beneficialOwners inline (the vendor SDK's and CLI's business)", () => {
    // The vendor's UltimateBeneficialOwner: a full name and one individualType, the rest optional.
    const vendorOwner = (extra: Record<string, unknown> = {}) => ({ fullName: 'Grace Brewster Hopper', individualType: 'CONTROL_PERSON', ...extra });
    const complete = {
      birthDate: '1976-12-09',
      nationality: 'US',
      address: { line1: '1 Navy Way', postalCode: '22202', country: 'US' },
      taxId: 'X1234567',
      emailAddress: 'grace@example.com',
      phoneNumber: '+14155550123',
    };
    const ownersOf = async (customerId: string, auth?: string) =>
      (await call(ctx, 'GET', '/beneficial-owners', { query: { customerId }, auth })).body.data as any[];

    it('stores the owners with the business, each lacking fact named; the business stays short of APPROVED until they arrive', async () => {
      const res = await call(ctx, 'POST', '/customers', {
        body: business({
          beneficialOwners: [vendorOwner({ percentageOwnership: 60, title: 'CEO' }), vendorOwner({ fullName: 'Ada', individualType: 'DIRECTOR' })],
        }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.kycStatus).toBe('PENDING');
      expect(res.body).not.toHaveProperty('beneficialOwners');
      const [ada, grace] = await ownersOf(res.body.id);
      expect(grace).toMatchObject({
        customerId: res.body.id,
        roles: ['UBO', 'CONTROL_PERSON'],
        ownershipPercentage: 60,
        kycStatus: 'UNVERIFIED',
        personalInfo: { firstName: 'Grace', middleName: 'Brewster', lastName: 'Hopper' },
        missingFields: ['personalInfo.birthDate', 'personalInfo.nationality', 'personalInfo.address', 'personalInfo.idType', 'personalInfo.identifier'],
      });
      // A one-word name gives no last name: listed, not made up.
      expect(ada).toMatchObject({ roles: ['DIRECTOR'], ownershipPercentage: 0, personalInfo: { firstName: 'Ada' } });
      expect(ada.missingFields).toContain('personalInfo.lastName');
      // Not approvable while an owner lacks facts.
      const approve = await call(ctx, 'PATCH', `/customers/${res.body.id}`, { body: { kycStatus: 'APPROVED' } });
      expect(fields(expectError(approve, 400, 'INVALID_INPUT'))).toEqual(['kycStatus']);
      // A few facts at a time; the last one verifies the owner and, as for any owner, the business.
      const some = await call(ctx, 'PATCH', `/beneficial-owners/${grace.id}`, { body: { personalInfo: { birthDate: '1976-12-09', nationality: 'US' } } });
      expect(some.body).toMatchObject({ kycStatus: 'UNVERIFIED', missingFields: ['personalInfo.address', 'personalInfo.idType', 'personalInfo.identifier'] });
      const rest = await call(ctx, 'PATCH', `/beneficial-owners/${grace.id}`, {
        body: { personalInfo: { address: complete.address, idType: 'SSN', identifier: '123456789' } },
      });
      expect(rest.body.kycStatus).toBe('APPROVED');
      expect(rest.body).not.toHaveProperty('missingFields');
      // Ada, a director without a last name, still keeps the business from APPROVED.
      expect((await call(ctx, 'GET', `/customers/${res.body.id}`)).body.kycStatus).toBe('PENDING');
      await call(ctx, 'PATCH', `/beneficial-owners/${ada.id}`, {
        body: {
          personalInfo: {
            lastName: 'Lovelace',
            birthDate: '1985-12-10',
            nationality: 'GB',
            address: { line1: '12 St James Square', postalCode: 'SW1Y 4JH', country: 'GB' },
            idType: 'PASSPORT',
            identifier: 'P123',
            countryOfIssuance: 'GB',
          },
        },
      });
      // The last missing fact of the business's owners arrived: Grace's role counts, as for any owner.
      expect((await call(ctx, 'GET', `/customers/${res.body.id}`)).body.kycStatus).toBe('APPROVED');
    });

    it("the vendor's taxId is kept as a TAX_ID whose issuer is asked for; once given, owner and business are verified as POST /beneficial-owners would", async () => {
      const res = await call(ctx, 'POST', '/customers', { body: business({ beneficialOwners: [vendorOwner(complete)] }) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.kycStatus).toBe('PENDING');
      const [o] = await ownersOf(res.body.id);
      // The vendor's taxId is a TAX_ID whose issuing country is not guessed.
      expect(o).toMatchObject({
        kycStatus: 'UNVERIFIED',
        personalInfo: { idType: 'TAX_ID', identifier: 'X1234567', email: 'grace@example.com', phoneNumber: '+14155550123' },
        missingFields: ['personalInfo.countryOfIssuance'],
      });
      const done = await call(ctx, 'PATCH', `/beneficial-owners/${o.id}`, { body: { personalInfo: { countryOfIssuance: 'US' } } });
      expect(done.body.kycStatus).toBe('APPROVED');
      expect((await call(ctx, 'GET', `/customers/${res.body.id}`)).body.kycStatus).toBe('APPROVED');
    });

    it('refuses the whole request when one owner is refused, naming it; nothing is stored', async () => {
      const body = business({ beneficialOwners: [vendorOwner(), vendorOwner({ birthDate: '2999-01-01', phoneNumber: '+1555' })] });
      const bad = expectError(await call(ctx, 'POST', '/customers', { body }), 400, 'INVALID_INPUT');
      expect(fields(bad)).toEqual(['beneficialOwners[1].birthDate', 'beneficialOwners[1].phoneNumber']);
      const roles = expectError(
        await call(ctx, 'POST', '/customers', {
          body: { ...body, beneficialOwners: [vendorOwner({ individualType: 'SETTLOR' }), vendorOwner({ percentageOwnership: 12.5 })] },
        }),
        400,
        'INVALID_INPUT',
      );
      expect(fields(roles)).toEqual(['beneficialOwners[0].individualType', 'beneficialOwners[1].percentageOwnership']);
      const over = expectError(
        await call(ctx, 'POST', '/customers', {
          body: { ...body, beneficialOwners: [vendorOwner({ percentageOwnership: 60 }), vendorOwner({ percentageOwnership: 50 })] },
        }),
        400,
        'OWNERSHIP_EXCEEDS_100',
      );
      expect(fields(over)).toEqual(['beneficialOwners[1].percentageOwnership']);
      // No customer was stored: the same platformCustomerId is still free.
      const list = await call(ctx, 'GET', '/customers', { query: { platformCustomerId: body.platformCustomerId } });
      expect(list.body.data).toEqual([]);
      const individual = { platformCustomerId: `ind-${Date.now()}`, customerType: 'INDIVIDUAL', fullName: 'Ada', beneficialOwners: [vendorOwner()] };
      expect(fields(expectError(await call(ctx, 'POST', '/customers', { body: individual }), 400, 'INVALID_INPUT'))).toEqual(['beneficialOwners']);
    });

    it('in PRODUCTION the owners start UNVERIFIED, and one lacking facts keeps the business from APPROVED', async () => {
      const prod = await ctx.platform.token(['VIEW', 'MANAGE'], 'PRODUCTION');
      const res = await call(ctx, 'POST', '/customers', { auth: prod, body: business({ beneficialOwners: [vendorOwner()] }) });
      expect(res.body.kycStatus).toBe('UNVERIFIED');
      const approve = await call(ctx, 'PATCH', `/customers/${res.body.id}`, { auth: prod, body: { kycStatus: 'APPROVED' } });
      expect(fields(expectError(approve, 400, 'INVALID_INPUT'))).toEqual(['kycStatus']);
    });
  });
});

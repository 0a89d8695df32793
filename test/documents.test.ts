import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { call, expectError, testContext } from './helpers/context.js';
import { business, createCustomer } from './helpers/factories.js';
import { fixture, multipartBody, uploadDocument, type FilePart } from './fixtures/multipart.js';

const PNG = fixture('tiny.png');
const PDF = fixture('tiny.pdf');
// The start of a JFIF file: SOI, then an APP0 marker.
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(32, 1), Buffer.from([0xff, 0xd9])]);
const MiB = 1024 * 1024;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('documents', async () => {
  const ctx = await testContext();
  const newBusiness = async () => (await call(ctx, 'POST', '/customers', { body: business() })).body;
  const newOwner = async (customerId: string) =>
    (
      await call(ctx, 'POST', '/beneficial-owners', {
        body: {
          customerId,
          roles: ['DIRECTOR'],
          ownershipPercentage: 0,
          personalInfo: {
            firstName: 'Ada',
            lastName: 'King',
            birthDate: '1985-12-10',
            nationality: 'GB',
            address: { line1: '1 Road', postalCode: 'N1 9GU', country: 'GB' },
            idType: 'PASSPORT',
            identifier: '123456789',
            countryOfIssuance: 'GB',
          },
        },
      })
    ).body;
  const passport = (holder: string, extra: Record<string, string> = {}) => ({
    documentHolder: holder,
    documentType: 'PASSPORT',
    country: 'GB',
    side: 'FRONT',
    documentNumber: '123456789',
    ...extra,
  });
  const png = (extra: Partial<FilePart> = {}): FilePart => ({ fileName: 'passport.png', contentType: 'image/png', data: PNG, ...extra });
  const download = (id: string, auth?: string) =>
    ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/documents/${id}/content`, headers: { authorization: auth ?? ctx.platform.auth } });
  const countOf = async (holder: string) => (await call(ctx, 'GET', '/documents', { query: { documentHolder: holder } })).body.totalCount;
  const fields = (body: any) => body.details.fields.map((f: { field: string }) => f.field);

  describe('POST /documents and GET /documents/{id}/content', () => {
    it('stores a real PNG and gives the same bytes back with their type, as an attachment', async () => {
      const customer = await createCustomer(ctx);
      const res = await uploadDocument(ctx, passport(customer.id), [png()]);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        documentHolder: customer.id,
        documentType: 'PASSPORT',
        country: 'GB',
        side: 'FRONT',
        documentNumber: '123456789',
        fileName: 'passport.png',
        contentType: 'image/png',
        sizeBytes: PNG.length,
        sha256: sha256(PNG),
      });
      expect(res.body.id).toMatch(/^Document:[0-9a-f-]{36}$/);
      const file = await download(res.body.id);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PNG)).toBe(true);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toBe(`attachment; filename="passport.png"; filename*=UTF-8''passport.png`);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers.etag).toBe(`"${sha256(PNG)}"`);
      expect((await call(ctx, 'GET', `/documents/${res.body.id}`)).body).toEqual(res.body);
    });

    it('stores a real PDF of a beneficial owner and gives the same bytes back', async () => {
      const owner = await newOwner((await newBusiness()).id);
      const res = await uploadDocument(ctx, { documentHolder: owner.id, documentType: 'PROOF_OF_ADDRESS', country: 'GB' }, [
        { fileName: 'utility bill.pdf', contentType: 'application/pdf', data: PDF },
      ]);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ documentHolder: owner.id, contentType: 'application/pdf', sizeBytes: PDF.length });
      expect(res.body).not.toHaveProperty('side');
      expect(res.body).not.toHaveProperty('documentNumber');
      const file = await download(res.body.id);
      expect(file.rawPayload.equals(PDF)).toBe(true);
      expect(file.headers['content-type']).toBe('application/pdf');
    });

    it('recognises the type by content, not by name or declared type', async () => {
      const customer = await createCustomer(ctx);
      const jpeg = await uploadDocument(ctx, passport(customer.id), [{ fileName: 'scan.bin', contentType: 'text/plain', data: JPEG }]);
      expect(jpeg.body).toMatchObject({ contentType: 'image/jpeg', fileName: 'scan.bin.jpg' });
      const disguised = await uploadDocument(ctx, passport(customer.id), [png({ fileName: 'evil.html', contentType: 'text/html' })]);
      expect(disguised.body).toMatchObject({ contentType: 'image/png', fileName: 'evil.html.png' });
      const file = await download(disguised.body.id);
      expect(file.headers['content-type']).toBe('image/png');
      expect(file.headers['content-disposition']).toMatch(/^attachment; filename="evil\.html\.png"/);
      const unicode = await uploadDocument(ctx, passport(customer.id), [png({ fileName: 'Paß foto.PNG' })]);
      expect((await download(unicode.body.id)).headers['content-disposition']).toBe(`attachment; filename="Pa foto.PNG"; filename*=UTF-8''Pa%C3%9F%20foto.PNG`);
    });

    it('keeps the first 1024 characters of a huge file name: "a", 65,000 spaces, "b.png" is stored as a.png', async () => {
      const customer = await createCustomer(ctx);
      const res = await uploadDocument(ctx, passport(customer.id), [png({ fileName: `a${' '.repeat(65_000)}b.png` })]);
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ contentType: 'image/png', fileName: 'a.png' });
      expect((await download(res.body.id)).headers['content-disposition']).toBe(`attachment; filename="a.png"; filename*=UTF-8''a.png`);
    });

    it('refuses a file that is not PDF, JPEG or PNG, an empty file and a missing file, storing nothing', async () => {
      const customer = await createCustomer(ctx);
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      for (const files of [[png({ data: html })], [png({ data: Buffer.alloc(0) })], [png({ data: PNG.subarray(0, 4) })], []]) {
        const res = expectError(await uploadDocument(ctx, passport(customer.id), files), 400, 'INVALID_INPUT');
        expect(fields(res)).toEqual(['file']);
      }
      expect(await countOf(customer.id)).toBe(0);
    });

    it('accepts exactly 10 MiB, above the 1 MiB JSON limit, and refuses one byte more with 413', async () => {
      const customer = await createCustomer(ctx);
      const big = Buffer.concat([PNG, Buffer.alloc(10 * MiB - PNG.length)]);
      const ok = await uploadDocument(ctx, passport(customer.id), [png({ data: big })]);
      expect(ok.status).toBe(201);
      expect((await download(ok.body.id)).rawPayload.equals(big)).toBe(true);
      const over = expectError(
        await uploadDocument(ctx, passport(customer.id), [png({ data: Buffer.concat([big, Buffer.from([0])]) })]),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      expect(over.details).toMatchObject({ field: 'file', maxFileBytes: 10 * MiB });
      expectError(await uploadDocument(ctx, passport(customer.id), [png({ data: Buffer.alloc(11 * MiB, 1) })]), 413, 'PAYLOAD_TOO_LARGE');
      expect(await countOf(customer.id)).toBe(1);
    });

    it.each([
      ['a missing documentType', { documentType: undefined }, 'documentType'],
      ['an unknown documentType', { documentType: 'LIBRARY_CARD' }, 'documentType'],
      ['a missing country', { country: undefined }, 'country'],
      ['a lower-case country', { country: 'gb' }, 'country'],
      ['an unknown side', { side: 'TOP' }, 'side'],
      ['BACK of a one-sided document', { side: 'BACK' }, 'side'],
      ['a national id without its side', { documentType: 'NATIONAL_ID', side: undefined }, 'side'],
      ['an unknown field', { note: 'hello' }, 'note'],
      ['a malformed holder', { documentHolder: 'Token:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' }, 'documentHolder'],
      ['a company document of a person', { documentType: 'CERTIFICATE_OF_INCORPORATION', side: undefined }, 'documentType'],
    ])('refuses %s with 400 naming the field and stores nothing', async (_name, change, field) => {
      const customer = await createCustomer(ctx);
      const form = Object.fromEntries(Object.entries({ ...passport(customer.id), ...change }).filter(([, v]) => v !== undefined)) as Record<string, string>;
      const res = expectError(await uploadDocument(ctx, form, [png()]), 400, 'INVALID_INPUT');
      expect(fields(res)).toContain(field);
      expect(await countOf(customer.id)).toBe(0);
    });

    it('takes company documents for a business and two-sided cards side by side', async () => {
      const biz = await newBusiness();
      const cert = await uploadDocument(ctx, { documentHolder: biz.id, documentType: 'CERTIFICATE_OF_INCORPORATION', country: 'GB' }, [
        { fileName: 'cert.pdf', data: PDF },
      ]);
      expect(cert.status).toBe(201);
      const person = await createCustomer(ctx);
      for (const side of ['FRONT', 'BACK']) {
        expect((await uploadDocument(ctx, { documentHolder: person.id, documentType: 'DRIVERS_LICENSE', country: 'GB', side }, [png()])).status).toBe(201);
      }
    });

    it('refuses malformed forms: two files, a text "file", a repeated field, a JSON body', async () => {
      const customer = await createCustomer(ctx);
      expect(fields(expectError(await uploadDocument(ctx, passport(customer.id), [png(), png()]), 400, 'INVALID_INPUT'))).toEqual(['file']);
      expect(fields(expectError(await uploadDocument(ctx, passport(customer.id), [png({ fileName: undefined })]), 400, 'INVALID_INPUT'))).toEqual(['file']);
      const repeated = [...Object.entries(passport(customer.id)), ['documentType', 'NATIONAL_ID']] as Array<[string, string]>;
      expect(fields(expectError(await uploadDocument(ctx, repeated, [png()]), 400, 'INVALID_INPUT'))).toEqual(['documentType']);
      expectError(await call(ctx, 'POST', '/documents', { body: passport(customer.id) }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      const { payload, contentType } = multipartBody(passport(customer.id), [png()]);
      const post = (body: Buffer, type: string) =>
        ctx.app.inject({ method: 'POST', url: `${API_PREFIX}/documents`, headers: { authorization: ctx.platform.auth, 'content-type': type }, payload: body });
      for (const res of [await post(payload.subarray(0, payload.length - 30), contentType), await post(payload, 'multipart/form-data')]) {
        expect(res.statusCode).toBe(400);
        expect(JSON.parse(res.body).details.fields[0].field).toBe('(body)');
      }
      expect(await countOf(customer.id)).toBe(0);
    });

    it('answers 404 for an unknown holder and 410 for a deleted customer', async () => {
      expectError(await uploadDocument(ctx, passport('Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'), [png()]), 404, 'CUSTOMER_NOT_FOUND');
      expectError(await uploadDocument(ctx, passport('BeneficialOwner:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'), [png()]), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
      const biz = await newBusiness();
      const owner = await newOwner(biz.id);
      const kept = await uploadDocument(ctx, passport(owner.id), [png()]);
      await call(ctx, 'DELETE', `/customers/${biz.id}`);
      expectError(await uploadDocument(ctx, passport(biz.id, { documentType: 'COMPANY_REGISTRATION', side: 'FRONT' }), [png()]), 410, 'CUSTOMER_DELETED');
      expectError(await uploadDocument(ctx, passport(owner.id), [png()]), 410, 'CUSTOMER_DELETED');
      // What was uploaded before stays readable.
      expect((await download(kept.body.id)).statusCode).toBe(200);
      expect(await countOf(owner.id)).toBe(1);
    });

    it('replays an upload with the same Idempotency-Key; another file under that key is 422', async () => {
      const customer = await createCustomer(ctx);
      const headers = { 'idempotency-key': `doc-${customer.id}` };
      const first = await uploadDocument(ctx, passport(customer.id), [png()], { headers });
      const again = await uploadDocument(ctx, passport(customer.id), [png()], { headers });
      expect(again.status).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(await uploadDocument(ctx, passport(customer.id), [png({ data: PDF })], { headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await countOf(customer.id)).toBe(1);
    });

    it('caps a holder at 100 documents (409)', async () => {
      const customer = await createCustomer(ctx);
      for (let i = 0; i < 100; i++) expect((await uploadDocument(ctx, passport(customer.id), [png()])).status).toBe(201);
      expectError(await uploadDocument(ctx, passport(customer.id), [png()]), 409, 'DOCUMENT_LIMIT_REACHED');
    });
  });

  describe('GET /documents', () => {
    it('pages the documents of one holder, newest first, without their bytes', async () => {
      const customer = await createCustomer(ctx);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await uploadDocument(ctx, passport(customer.id), [png()])).body.id);
      await uploadDocument(ctx, passport((await createCustomer(ctx)).id), [png()]);
      const page1 = await call(ctx, 'GET', '/documents', { query: { documentHolder: customer.id, limit: 2 } });
      expect(page1.body).toMatchObject({ hasMore: true, totalCount: 3 });
      expect(page1.body.data[0]).not.toHaveProperty('content');
      const page2 = await call(ctx, 'GET', '/documents', { query: { documentHolder: customer.id, limit: 2, cursor: page1.body.nextCursor } });
      expect([...page1.body.data, ...page2.body.data].map((d: { id: string }) => d.id)).toEqual(ids.reverse());
      const all = await call(ctx, 'GET', '/documents');
      expect(all.body.totalCount).toBeGreaterThanOrEqual(4);
    });

    it('answers 404 for an unknown holder and 400 for a malformed one', async () => {
      expectError(
        await call(ctx, 'GET', '/documents', { query: { documentHolder: 'Customer:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11' } }),
        404,
        'CUSTOMER_NOT_FOUND',
      );
      expectError(await call(ctx, 'GET', '/documents', { query: { documentHolder: 'someone' } }), 400, 'INVALID_INPUT');
    });
  });

  describe('DELETE /documents/{id}', () => {
    it('deletes the document and its bytes; later reads are 404', async () => {
      const customer = await createCustomer(ctx);
      const doc = (await uploadDocument(ctx, passport(customer.id), [png()])).body;
      const res = await call(ctx, 'DELETE', `/documents/${doc.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(doc);
      expectError(await call(ctx, 'GET', `/documents/${doc.id}`), 404, 'DOCUMENT_NOT_FOUND');
      expect((await download(doc.id)).statusCode).toBe(404);
      expectError(await call(ctx, 'DELETE', `/documents/${doc.id}`), 404, 'DOCUMENT_NOT_FOUND');
      expect(await countOf(customer.id)).toBe(0);
    });
  });

  describe('tenants and permissions', () => {
    it("hides another platform's documents and holders (404) and stores nothing for them", async () => {
      const other = await ctx.newPlatform('Other');
      const customer = await createCustomer(ctx);
      const doc = (await uploadDocument(ctx, passport(customer.id), [png()])).body;
      expectError(await call(ctx, 'GET', `/documents/${doc.id}`, { auth: other.auth }), 404, 'DOCUMENT_NOT_FOUND');
      expect((await download(doc.id, other.auth)).statusCode).toBe(404);
      expectError(await call(ctx, 'DELETE', `/documents/${doc.id}`, { auth: other.auth }), 404, 'DOCUMENT_NOT_FOUND');
      expectError(await call(ctx, 'GET', '/documents', { query: { documentHolder: customer.id }, auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expectError(await uploadDocument(ctx, passport(customer.id), [png()], { auth: other.auth }), 404, 'CUSTOMER_NOT_FOUND');
      expect((await call(ctx, 'GET', '/documents', { auth: other.auth })).body.totalCount).toBe(0);
      expect(await countOf(customer.id)).toBe(1);
    });

    it("hides another platform's beneficial owners as holders (404) and stores nothing for them", async () => {
      const other = await ctx.newPlatform('Other');
      const owner = await newOwner((await newBusiness()).id);
      const doc = (await uploadDocument(ctx, passport(owner.id), [png()])).body;
      expectError(await uploadDocument(ctx, passport(owner.id), [png()], { auth: other.auth }), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
      expectError(await call(ctx, 'GET', '/documents', { query: { documentHolder: owner.id }, auth: other.auth }), 404, 'BENEFICIAL_OWNER_NOT_FOUND');
      expectError(await call(ctx, 'GET', `/documents/${doc.id}`, { auth: other.auth }), 404, 'DOCUMENT_NOT_FOUND');
      expect(await countOf(owner.id)).toBe(1);
    });

    it('lets a VIEW token read and download but not upload or delete (403)', async () => {
      const view = await ctx.platform.token(['VIEW']);
      const customer = await createCustomer(ctx);
      const doc = (await uploadDocument(ctx, passport(customer.id), [png()])).body;
      expectError(await uploadDocument(ctx, passport(customer.id), [png()], { auth: view }), 403, 'FORBIDDEN');
      expectError(await call(ctx, 'DELETE', `/documents/${doc.id}`, { auth: view }), 403, 'FORBIDDEN');
      expect((await call(ctx, 'GET', `/documents/${doc.id}`, { auth: view })).status).toBe(200);
      expect((await download(doc.id, view)).rawPayload.equals(PNG)).toBe(true);
      expectError(await uploadDocument(ctx, passport(customer.id), [png()], { auth: 'Basic eDp5' }), 401, 'UNAUTHORIZED');
      expect(await countOf(customer.id)).toBe(1);
    });
  });
});

// Bulk customer onboarding (the vendor's POST /customers/bulk/csv and GET /customers/bulk/jobs/{id}):
// a CSV file becomes a job whose rows are created by the same rules as POST /customers, with each
// refused row reported by row and column, bounded in size, idempotent, isolated per platform.
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { KNOWN_COLUMNS } from '../src/modules/customer-imports/columns.js';
import { customerImportsOf, MAX_CSV_BYTES, MAX_CSV_ROWS } from '../src/modules/customer-imports/service.js';
import { call, expectError, testContext, type TestContext, type TestPlatform } from './helpers/context.js';
import { multipartBody, type FilePart } from './fixtures/multipart.js';

let ctx: TestContext;
let other: TestPlatform;
let domain: string;
let seq = 0;

beforeAll(async () => {
  ctx = await testContext();
  other = await ctx.newPlatform('Other');
  domain = (await call(ctx, 'GET', '/config')).body.umaDomain;
});

const uid = () => `${Date.now().toString(36)}${(seq += 1)}`;

async function upload(
  csv: string | Buffer,
  opts: { auth?: string; headers?: Record<string, string>; parts?: FilePart[]; fields?: Record<string, string> } = {},
) {
  const data = typeof csv === 'string' ? Buffer.from(csv) : csv;
  const { payload, contentType } = multipartBody(opts.fields ?? {}, opts.parts ?? [{ fileName: 'customers.csv', contentType: 'text/csv', data }]);
  const res = await ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/customers/bulk/csv`,
    headers: { authorization: opts.auth ?? ctx.platform.auth, 'content-type': contentType, ...opts.headers },
    payload,
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined, headers: res.headers };
}

/** Runs the import worker until no import job is due (what the workers' loop does). */
async function drain() {
  const imports = customerImportsOf(ctx.container);
  for (let i = 0; i < 1000 && (await imports.processNext()); i++);
}

const HEADER = 'umaAddress,platformCustomerId,customerType,fullName,birthDate,addressLine1,city,state,postalCode,country,platformAccountId,businessLegalName';

describe('POST /customers/bulk/csv', () => {
  it('creates the valid rows through the customer rules and reports each bad row by row and column', async () => {
    const a = uid();
    const csv = [
      HEADER,
      // The vendor's example rows (its UMA addresses without $), on this platform's domain.
      `john.${a}@${domain},john-${a},INDIVIDUAL,John Doe,1990-01-15,123 Main St,San Francisco,CA,94105,US`,
      `,biz-${a},BUSINESS,,,400 Commerce Way,Austin,TX,78701,US,,"Acme, Inc."`,
      // Bad rows: an unknown country, a birth date that is not a date, a business name for a person, a bad type, a repeated id, too many fields.
      // (A row without a name is created UNVERIFIED, as POST /customers creates it: test/vendor-compat.test.ts.)
      `,bad-country-${a},INDIVIDUAL,Ada Lovelace,1990-12-10,1 Road,London,,SW1,XX`,
      `,bad-date-${a},INDIVIDUAL,Ada Lovelace,12/10/1990,1 Road,London,,SW1,GB`,
      `,person-biz-${a},INDIVIDUAL,Ada,1990-12-10,1 Road,London,,SW1,GB,,"Acme, Inc."`,
      `,bad-type-${a},PERSON,Ada,1990-12-10,1 Road,London,,SW1,GB`,
      `,john-${a},INDIVIDUAL,Second John,1990-01-15,1 Road,London,,SW1,GB`,
      `,wide-${a},INDIVIDUAL,Ada,1990-12-10,1 Road,London,,SW1,GB,,,extra`,
      '',
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ jobId: expect.stringMatching(/^Job:/), status: 'PENDING' });
    const pending = await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`);
    expect(pending.body).toMatchObject({ status: 'PENDING', progress: { total: 8, processed: 1, successful: 0, failed: 1 } });

    await drain();
    const job = await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({
      id: res.body.jobId,
      status: 'COMPLETED',
      progress: { total: 8, processed: 8, successful: 2, failed: 6 },
      fileName: 'customers.csv',
    });
    expect(typeof job.body.completedAt).toBe('string');
    const byRow = Object.fromEntries(job.body.errors.map((e: any) => [e.row, e]));
    const fieldsOf = (row: number) => byRow[row].details.fields.map((f: any) => f.field);
    expect(Object.keys(byRow).map(Number).sort()).toEqual([3, 4, 5, 6, 7, 8]);
    expect(byRow[3]).toMatchObject({ correlationId: `bad-country-${a}`, code: 'INVALID_INPUT' });
    expect(fieldsOf(3)).toEqual(['country']);
    expect(fieldsOf(4)).toEqual(['birthDate']);
    expect(fieldsOf(5)).toEqual(['businessLegalName']);
    expect(fieldsOf(6)).toEqual(['customerType']);
    expect(byRow[7]).toMatchObject({ code: 'PLATFORM_CUSTOMER_ID_EXISTS', details: { fields: [{ field: 'platformCustomerId' }] } });
    expect(fieldsOf(8)).toEqual(['(row)']);

    // The created customers are real customers, as POST /customers makes them.
    const created = job.body.results.filter((r: any) => r.status === 'CREATED');
    expect(created.map((r: any) => r.row)).toEqual([1, 2]);
    const john = await call(ctx, 'GET', `/customers/${created[0].customerId}`);
    expect(john.body).toMatchObject({
      platformCustomerId: `john-${a}`,
      umaAddress: `$john.${a}@${domain}`,
      fullName: 'John Doe',
      address: { line1: '123 Main St', country: 'US', state: 'CA' },
    });
    const biz = await call(ctx, 'GET', `/customers/${created[1].customerId}`);
    expect(biz.body).toMatchObject({ customerType: 'BUSINESS', businessInfo: { legalName: 'Acme, Inc.' } });
    const accounts = await call(ctx, 'GET', '/customers/internal-accounts', { query: { customerId: john.body.id } });
    expect(accounts.body.data.length).toBeGreaterThan(0);

    // The BULK_UPLOAD webhook reports the finished job.
    const events = await ctx.container.db
      .executor()
      .selectFrom('webhook_events')
      .select('body')
      .where('type', '=', 'BULK_UPLOAD')
      .where('subject', '=', res.body.jobId)
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].body).job).toMatchObject({ id: res.body.jobId, status: 'COMPLETED', progress: { successful: 2, failed: 6 } });
    // Processing again does nothing more.
    await drain();
    expect((await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`)).body.progress).toEqual(job.body.progress);
  });

  it('a file where no row is valid ends FAILED; quoted fields, a BOM and LF line ends are read', async () => {
    const a = uid();
    const csv = `\uFEFFplatformCustomerId,customerType,fullName,currencies\n"q-${a}",INDIVIDUAL,"Doe, ""JD"" John","USD,EUR"\nr-${a},INDIVIDUAL,Ada,XYZ\n`;
    const res = await upload(csv);
    expect(res.status).toBe(202);
    await drain();
    const job = (await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`)).body;
    expect(job.progress).toEqual({ total: 2, processed: 2, successful: 1, failed: 1 });
    const made = await call(ctx, 'GET', `/customers/${job.results[0].customerId}`);
    expect(made.body).toMatchObject({ fullName: 'Doe, "JD" John', currencies: ['USD', 'EUR'] });

    const none = await upload(`platformCustomerId,customerType\nn-${a},ALIEN\n`);
    await drain();
    expect((await call(ctx, 'GET', `/customers/bulk/jobs/${none.body.jobId}`)).body).toMatchObject({
      status: 'FAILED',
      progress: { successful: 0, failed: 1 },
    });
  });

  it('is idempotent: the same file with the same key is the same job; another file with that key is 422', async () => {
    const a = uid();
    const csv = `platformCustomerId,customerType,fullName\nidem-${a},INDIVIDUAL,Ada\n`;
    const headers = { 'idempotency-key': `bulk-${a}` };
    const first = await upload(csv, { headers });
    const again = await upload(csv, { headers });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.jobId).toBe(first.body.jobId);
    expectError(await upload(`${csv}idem2-${a},INDIVIDUAL,Bob\n`, { headers }), 422, 'IDEMPOTENCY_KEY_REUSED');
    await drain();
    expect((await call(ctx, 'GET', '/customers', { query: { platformCustomerId: `idem-${a}` } })).body.data).toHaveLength(1);
  });

  it('refuses oversized files (413) and files over the row limit, naming the file', async () => {
    const big = Buffer.alloc(MAX_CSV_BYTES + 10, 'a');
    const res = await upload(big);
    expect(expectError(res, 413, 'PAYLOAD_TOO_LARGE').details).toMatchObject({ field: 'file', maxFileBytes: MAX_CSV_BYTES });
    const rows = ['platformCustomerId,customerType', ...Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => `r${i},INDIVIDUAL`)].join('\n');
    const many = expectError(await upload(rows), 400, 'INVALID_INPUT');
    expect(many.details.fields[0]).toMatchObject({ field: 'file', message: expect.stringContaining(`more than ${MAX_CSV_ROWS} rows`) });
  });

  it('refuses files that are not CSV as described, naming the problem', async () => {
    const problem = async (csv: string | Buffer) => {
      const res = expectError(await upload(csv), 400, 'INVALID_INPUT');
      expect(res.details.fields[0].field).toBe('file');
      return res.details.fields.map((f: any) => f.message).join(' | ');
    };
    expect(await problem('')).toContain('is empty');
    expect(await problem('platformCustomerId,customerType\n')).toContain('no rows');
    expect(await problem('platformCustomerId,customerType,shoeSize\nx,INDIVIDUAL,42\n')).toContain('column "shoeSize" is not known');
    expect(await problem('fullName\nAda\n')).toContain('column "platformCustomerId" is required');
    expect(await problem('platformCustomerId,customerType,customerType\nx,INDIVIDUAL,INDIVIDUAL\n')).toContain('given twice');
    expect(await problem('platformCustomerId,customerType\n"x,INDIVIDUAL\n')).toContain('never closed');
    expect(await problem(Buffer.from([0x70, 0x6c, 0xff, 0xfe, 0x0a]))).toContain('UTF-8');
  });

  it('refuses a request that is not one file part named "file"', async () => {
    const json = await call(ctx, 'POST', '/customers/bulk/csv', { body: { file: 'x' } });
    expectError(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(await upload('', { parts: [] }), 400, 'INVALID_INPUT');
    const named = expectError(await upload('', { parts: [{ field: 'csv', fileName: 'a.csv', data: Buffer.from('a') }] }), 400, 'INVALID_INPUT');
    expect(named.details.fields[0].field).toBe('csv');
    expectError(await upload('platformCustomerId,customerType\nx,INDIVIDUAL\n', { fields: { note: 'hello' } }), 400, 'INVALID_INPUT');
  });

  it('isolation and permissions: another platform or environment does not see the job; VIEW reads, MANAGE uploads', async () => {
    const res = await upload(`platformCustomerId,customerType,fullName\niso-${uid()},INDIVIDUAL,Ada\n`);
    expect(res.status).toBe(202);
    expectError(await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`, { auth: other.auth }), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
    const production = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
    expectError(await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`, { auth: production }), 404, 'BULK_UPLOAD_JOB_NOT_FOUND');
    expectError(await call(ctx, 'GET', '/customers/bulk/jobs/Job:not-an-id'), 400, 'INVALID_INPUT');
    const view = await ctx.platform.token(['VIEW']);
    expect((await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`, { auth: view })).status).toBe(200);
    expectError(await upload('platformCustomerId,customerType\nx,INDIVIDUAL\n', { auth: view }), 403, 'FORBIDDEN');
    expectError(await upload('platformCustomerId,customerType\nx,INDIVIDUAL\n', { auth: 'Basic eDp5' }), 401, 'UNAUTHORIZED');
    await drain();
    // The rows were created on the uploading platform only.
    expect((await call(ctx, 'GET', '/customers', { auth: other.auth })).body.data).toEqual([]);
  });
});

describe('hostile files within the limits', () => {
  // The answer to any upload is bounded: these are the largest refusals a file of at most 2 MiB can ask for.
  const MAX_ANSWER_BYTES = 8 * 1024;
  const commas = (n: number) => ','.repeat(n);

  async function refused(csv: string | Buffer) {
    const res = await upload(csv);
    const raw = JSON.stringify(res.body);
    const body = expectError(res, 400, 'INVALID_INPUT');
    expect(raw.length, `an answer of ${raw.length} characters`).toBeLessThan(MAX_ANSWER_BYTES);
    expect(Object.keys(body).sort()).toEqual(['code', 'details', 'message', 'status']);
    return body;
  }

  it('a header of 50,000 empty column names: one problem, said once, in a small answer', async () => {
    const body = await refused(`platformCustomerId,customerType${commas(50_000)}\nx,INDIVIDUAL\n`);
    expect(body.details.fields).toHaveLength(1);
    expect(body.details.fields[0]).toMatchObject({ field: 'file', message: expect.stringContaining('columns') });
    // The known columns are named once, not once per column.
    expect(body.message.split('platformAccountId').length).toBeLessThanOrEqual(2);
  });

  it('a 2 MiB file of commas, of repeated unknown names, of one endless name: each a small 400', async () => {
    const header = 'platformCustomerId,customerType,';
    await refused(header + commas(MAX_CSV_BYTES - header.length - 1));
    const wide = await refused(`${header}${'shoe,'.repeat((MAX_CSV_BYTES - header.length - 64) / 5)}\nx,INDIVIDUAL\n`);
    expect(wide.details.fields[0].message).toContain(`has a header of more than ${KNOWN_COLUMNS.length} columns`);
    const unknown = await refused(`${header}shoe,shoe,shoe\nx,INDIVIDUAL\n`);
    expect(unknown.details.fields.map((f: any) => f.message)).toEqual([`column "shoe" is not known (known columns: ${KNOWN_COLUMNS.join(', ')})`]);
    const longName = await refused(`${header}${'n'.repeat(MAX_CSV_BYTES - header.length - 64)}\nx,INDIVIDUAL\n`);
    expect(longName.details.fields[0].message).toContain('not known');
    // Unknown, unnamed, repeated and missing columns at once: one line for each kind.
    const mixed = await refused(`fullName,fullName,a,b,c,d,e,f,g,,,\nAda\n`);
    const messages = mixed.details.fields.map((f: any) => f.message);
    expect(messages).toHaveLength(5);
    expect(messages[0]).toBe(`columns "a", "b", "c", "d", "e" and 2 more are not known (known columns: ${KNOWN_COLUMNS.join(', ')})`);
    expect(messages[1]).toBe('3 columns have no name; every column of the header is named');
    expect(messages.join(' | ')).toMatch(/not known.*given twice|given twice.*not known/);
    expect(messages.join(' | ')).toContain('"platformCustomerId" is required');
  });

  it('a row far wider than its header fails alone, with a small error', async () => {
    const pid = `wide-${uid()}`;
    const res = await upload(`platformCustomerId,customerType,fullName\n${pid},INDIVIDUAL,Ada${commas(1_000_000)}\nok-${pid},INDIVIDUAL,Ada\n`);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(202);
    await drain();
    const job = await call(ctx, 'GET', `/customers/bulk/jobs/${res.body.jobId}`);
    expect(job.body).toMatchObject({ status: 'COMPLETED', progress: { total: 2, successful: 1, failed: 1 } });
    expect(job.body.errors[0].message).toContain('has 1000003 fields; the header has 3');
    expect(JSON.stringify(job.body).length).toBeLessThan(MAX_ANSWER_BYTES);
  });

  it('any refusal keeps its details small: a JSON body of 30,000 unknown members names the first 50 and counts the rest', async () => {
    const body: Record<string, unknown> = { platformCustomerId: `many-${uid()}`, customerType: 'INDIVIDUAL' };
    for (let i = 0; i < 30_000; i++) body[`x${i}`] = 'y'.repeat(i === 0 ? 5000 : 1);
    const res = await call(ctx, 'POST', '/customers', { body });
    const error = expectError(res, 400, 'INVALID_INPUT');
    expect(JSON.stringify(error).length).toBeLessThan(MAX_ANSWER_BYTES);
    expect(error.details.fields).toHaveLength(50);
    expect(error.details.fields[0]).toEqual({ field: 'x0', in: 'body', message: 'is not a known field' });
    expect(error.details.omittedFields).toBe(29_950);
  });

  it('three worst uploads at once: each refused, and another platform is served meanwhile', async () => {
    const header = 'platformCustomerId,customerType,';
    const worst = header + commas(MAX_CSV_BYTES - header.length - 1);
    const pings = Array.from({ length: 5 }, () => call(ctx, 'GET', '/ping', { auth: other.auth }));
    const [answers, served] = await Promise.all([Promise.all([upload(worst), upload(worst), upload(worst)]), Promise.all(pings)]);
    for (const a of answers) {
      expectError(a, 400, 'INVALID_INPUT');
      expect(JSON.stringify(a.body).length).toBeLessThan(MAX_ANSWER_BYTES);
    }
    expect(served.map((s) => s.status)).toEqual([200, 200, 200, 200, 200]);
  });
});

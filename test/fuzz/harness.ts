/**
 * The OpenAPI harness shared by the fuzz tests and the security matrix: every operation of
 * `/openapi.json` under the API prefix, real objects to put in its path, requests generated from
 * its schemas (json-schema-faker, seeded), and the checks every answer must pass. New routes are
 * covered as soon as they are in the document.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { generate, registerFormat } from 'json-schema-faker';
import { sql } from 'kysely';
import { API_PREFIX } from '../../src/app.js';
import { customFormats } from '../../src/common/schemas.js';
import { CURRENCY_CODES } from '../../src/common/currencies.js';
import type { Permission } from '../../src/common/scope.js';
import { call, type TestContext } from '../helpers/context.js';
import { business, individual } from '../helpers/factories.js';
import { accountBody } from '../helpers/external-accounts.js';
import { fixture, multipartBody } from '../fixtures/multipart.js';

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Record<string, any>;
}

export interface Operation {
  method: string;
  /** The document's path, e.g. /2025-10-13/customers/{customerId}. */
  path: string;
  /** The path under the API prefix, e.g. /customers/{customerId}. */
  apiPath: string;
  pathParams: Param[];
  query: Param[];
  body?: { contentType: string; schema: Record<string, any> };
  /** status ('200', '4xx', 'default'…) → JSON schema of the body. */
  responses: Record<string, Record<string, any> | undefined>;
  /** The role named by the operation's security requirement; undefined for public routes. */
  permission?: Permission;
  sandboxOnly: boolean;
  label: string;
}

/** Every operation of the document under the API prefix. */
export function apiOperations(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    if (!path.startsWith(`${API_PREFIX}/`)) continue;
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const params: Param[] = (op.parameters ?? []).map((p: any) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema ?? {} }));
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      const responses: Operation['responses'] = {};
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) responses[status] = r?.content?.['application/json']?.schema;
      const role = op.security?.[0]?.basicAuth?.[0];
      const apiPath = path.slice(API_PREFIX.length);
      ops.push({
        method: method.toUpperCase(),
        path,
        apiPath,
        pathParams: params.filter((p) => p.in === 'path'),
        query: params.filter((p) => p.in === 'query'),
        body: contentType ? { contentType, schema: content[contentType].schema ?? {} } : undefined,
        responses,
        permission: role as Permission | undefined,
        sandboxOnly: apiPath.startsWith('/sandbox/'),
        label: `${method.toUpperCase()} ${apiPath}`,
      });
    }
  }
  return ops;
}

// ---------------------------------------------------------------------------------------------
// Generation

registerFormat('country', (r) => r.pick(['US', 'GB', 'MX', 'BR', 'DE', 'NG', 'PH', 'IN', 'ZA', 'CA']));
registerFormat('currency', (r) => r.pick(CURRENCY_CODES));

/** A value valid for the schema, the same for the same seed. */
export async function valid(schema: Record<string, any>, seed: number, optionals = 0.5): Promise<any> {
  return generate(schema as never, { seed, optionalsProbability: optionals, maxDepth: 6, maxDefaultItems: 3, maxLength: 64 } as never);
}

// ---------------------------------------------------------------------------------------------
// Objects to address

export interface Fixtures {
  /** path parameter name → an id that exists for this platform (SANDBOX). */
  ids: Record<string, string>;
  /** A second id for /platform/… routes whose parameter name is shared with a customer route. */
  platformIds: Record<string, string>;
  /** Every id made, to spot leaks across platforms. */
  all: string[];
}

async function must(res: { status: number; body: any }, what: string): Promise<any> {
  if (res.status >= 300) throw new Error(`fixture ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Real objects of a platform through the API: customers, an owner, a document, internal and
 * external accounts, a token, a webhook delivery. Routes added later are addressed by listing
 * their collection (see idFor).
 */
export async function createFixtures(ctx: TestContext, auth: string, platformId: string): Promise<Fixtures> {
  const customer = await must(await call(ctx, 'POST', '/customers', { auth, body: individual({ currencies: ['USD', 'EUR'] }) }), 'customer');
  const biz = await must(await call(ctx, 'POST', '/customers', { auth, body: business() }), 'business');
  const owner = await must(
    await call(ctx, 'POST', '/beneficial-owners', {
      auth,
      body: {
        customerId: biz.id,
        roles: ['UBO'],
        ownershipPercentage: 40,
        personalInfo: {
          firstName: 'Grace',
          lastName: 'Hopper',
          birthDate: '1976-12-09',
          nationality: 'US',
          address: { line1: '1 Navy Way', postalCode: '22202', country: 'US' },
          idType: 'SSN',
          identifier: '123456789',
        },
      },
    }),
    'owner',
  );
  const form = multipartBody({ documentHolder: customer.id, documentType: 'PASSPORT', country: 'GB', side: 'FRONT', documentNumber: '123456789' }, [
    { fileName: 'p.png', contentType: 'image/png', data: fixture('tiny.png') },
  ]);
  const docRes = await ctx.app.inject({
    method: 'POST',
    url: `${API_PREFIX}/documents`,
    headers: { authorization: auth, 'content-type': form.contentType },
    payload: form.payload,
  });
  const document = await must({ status: docRes.statusCode, body: docRes.json() }, 'document');
  const internal = await must(await call(ctx, 'GET', '/customers/internal-accounts', { auth, query: { customerId: customer.id } }), 'internal accounts');
  const platformInternal = await must(await call(ctx, 'GET', '/platform/internal-accounts', { auth }), 'platform internal accounts');
  const { fixture: _f, ...extBody } = accountBody('US_ACCOUNT', '000');
  const external = await must(
    await call(ctx, 'POST', '/customers/external-accounts', { auth, body: { ...extBody, customerId: customer.id } }),
    'external account',
  );
  const platformExternal = await must(await call(ctx, 'POST', '/platform/external-accounts', { auth, body: extBody }), 'platform external account');
  const token = await must(await call(ctx, 'POST', '/tokens', { auth, body: { name: 'fixture', permissions: ['VIEW'] } }), 'token');
  await must(await call(ctx, 'PATCH', '/config', { auth, body: { webhookEndpoint: 'https://hooks.example.com/corridor' } }), 'config');
  const emitted = await ctx.container.db.tx((trx) =>
    ctx.container.events.emit({ platformId, environment: 'SANDBOX' }, { type: 'TEST', payload: { fixture: true } }),
  );
  const ids: Record<string, string> = {
    customerId: customer.id,
    beneficialOwnerId: owner.id,
    documentId: document.id,
    accountId: internal.data[0].id,
    externalAccountId: external.id,
    tokenId: token.id,
    deliveryId: emitted.deliveryId,
  };
  const platformIds: Record<string, string> = { accountId: platformInternal.data[0]?.id ?? internal.data[0].id, externalAccountId: platformExternal.id };
  return {
    ids,
    platformIds,
    all: [
      customer.id,
      biz.id,
      owner.id,
      document.id,
      ...internal.data.map((a: any) => a.id),
      ...platformInternal.data.map((a: any) => a.id),
      external.id,
      platformExternal.id,
      token.id,
      emitted.deliveryId,
    ],
  };
}

/**
 * An existing id for a path parameter: a fixture, else the first item of the collection the
 * path sits in (GET of the path without its last segment), else undefined.
 */
export async function idFor(ctx: TestContext, auth: string, ops: Operation[], op: Operation, name: string, f: Fixtures): Promise<string | undefined> {
  // By name first, then any fixture whose id fits the parameter's pattern (the same name may
  // mean an internal account on one route and an external one on another).
  const pattern = op.pathParams.find((p) => p.name === name)?.schema.pattern;
  const fits = (id: string | undefined) => id !== undefined && (!pattern || new RegExp(pattern).test(id));
  const byName = op.apiPath.startsWith('/platform/') ? [f.platformIds[name], f.ids[name]] : [f.ids[name], f.platformIds[name]];
  const own = [...byName, ...f.all].find(fits);
  if (own) return own;
  const upTo = op.apiPath.slice(0, op.apiPath.indexOf(`{${name}}`) - 1);
  const list = ops.find((o) => o.method === 'GET' && o.apiPath === upTo && o.pathParams.length === 0);
  if (!list) return undefined;
  const res = await call(ctx, 'GET', upTo, { auth });
  const first = res.status === 200 ? res.body?.data?.[0]?.id : undefined;
  if (typeof first === 'string') f.ids[name] = first;
  return first;
}

/** A made-up id that fits the parameter's schema (well-formed, exists nowhere). */
export async function madeUpId(p: Param, seed: number): Promise<string> {
  return String(await valid(p.schema, seed));
}

export function fillPath(apiPath: string, values: Record<string, string>): string {
  return apiPath.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'missing'));
}

// ---------------------------------------------------------------------------------------------
// Checks

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, { type: 'string', validate: check });
const compiled = new WeakMap<object, ValidateFunction>();

/** The declared schema of this status (exact, then 4xx/5xx, then default). */
export function declaredResponse(op: Operation, status: number): Record<string, any> | undefined {
  const r = op.responses;
  return r[String(status)] ?? r[`${String(status)[0]}xx`] ?? r[`${String(status)[0]}XX`] ?? r.default;
}

export interface Answer {
  status: number;
  body: any;
  headers: Record<string, unknown>;
  raw: string;
}

/**
 * The only 5xx answer the API gives on purpose: a sandbox identifier ending in 109 (a simulated
 * provider error, 500). Anything else at 5xx is a bug.
 */
function expected5xx(status: number, body: any, requestText: string): boolean {
  return status === 500 && body?.code === 'INTERNAL_ERROR' && /109(@[^"]*)?"/.test(requestText);
}

/** Problems with an answer: an unexpected 5xx, a non-D2 error, a body off its schema. */
export function answerProblems(op: Operation, answer: Answer, requestText: string): string[] {
  const problems: string[] = [];
  const { status, body } = answer;
  const contentType = String(answer.headers['content-type'] ?? '');
  const json = contentType.startsWith('application/json');
  if (status >= 500) {
    if (!expected5xx(status, body, requestText)) problems.push(`${status} answer: ${answer.raw.slice(0, 300)}`);
  }
  if (status >= 400) {
    if (!json || typeof body !== 'object' || body === null) problems.push(`error is not JSON: ${contentType} ${answer.raw.slice(0, 200)}`);
    else {
      const keys = Object.keys(body).sort().join(',');
      if (
        body.status !== status ||
        typeof body.code !== 'string' ||
        !/^[A-Z][A-Z0-9_]*$/.test(body.code) ||
        typeof body.message !== 'string' ||
        !['code,message,status', 'code,details,message,status'].includes(keys)
      ) {
        problems.push(`error not in the D2 shape: ${answer.raw.slice(0, 300)}`);
      }
      if (body.code === 'INVALID_INPUT' && !(Array.isArray(body.details?.fields) && body.details.fields.length > 0))
        problems.push(`INVALID_INPUT without details.fields: ${answer.raw.slice(0, 300)}`);
    }
  }
  const schema = declaredResponse(op, status);
  if (schema && json && status !== 204) {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      compiled.set(schema, validate);
    }
    if (!validate(body)) problems.push(`${status} body does not match its declared schema: ${ajv.errorsText(validate.errors)} in ${answer.raw.slice(0, 300)}`);
  } else if (!schema && status < 300 && json) {
    problems.push(`${status} is not a declared response`);
  }
  return problems;
}

/** Everything stored, as text (small test databases), except the record of idempotent answers. */
export async function snapshot(ctx: TestContext): Promise<string> {
  const ex = ctx.container.db.executor();
  // This database's tables only (on PostgreSQL other schemas hold other test runs).
  const listed =
    ctx.container.db.dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(ex)
      : await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(ex);
  const tables = listed.rows
    .map((t) => t.name)
    .filter((n) => !/^kysely_|^idempotency_keys$/.test(n))
    .sort();
  const parts: string[] = [];
  for (const t of tables) {
    const rows = await (ex as any).selectFrom(t).selectAll().execute();
    const lines = rows
      .map((r: Record<string, unknown>) => JSON.stringify(r, (_k, v) => (typeof v === 'bigint' ? v.toString() : Buffer.isBuffer(v) ? v.length : v)))
      .sort();
    parts.push(`${t}:${lines.join('\n')}`);
  }
  return parts.join('\n#\n');
}

/** The first lines that differ between two snapshots (for the failure message). */
export function difference(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  const removed = a.filter((l) => !b.includes(l)).slice(0, 3);
  const added = b.filter((l) => !a.includes(l)).slice(0, 3);
  return `removed ${JSON.stringify(removed).slice(0, 600)} added ${JSON.stringify(added).slice(0, 600)}`;
}

// Property-based requests for every route of /openapi.json: schema-valid ones (json-schema-faker,
// seeded) and mutated ones (fast-check: wrong types, huge numbers, deep nesting, unicode, missing
// and extra fields, broken JSON, bad path ids and query strings). Every answer: no 5xx, errors in
// the D2 shape, bodies as declared; a refused write changes nothing stored.
// FUZZ_RUNS (default 12) requests per route and kind; FUZZ_SEED to replay a run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../../src/app.js';
import { testContext } from '../helpers/context.js';
import { answerProblems, apiOperations, createFixtures, difference, fillPath, idFor, snapshot, valid, type Operation } from './harness.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20251013);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Paths to every node of a JSON value ([] is the root). */
function nodes(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) value.forEach((v, i) => nodes(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) nodes(v, [...at, k], out);
  return out;
}

function setAt(root: Json, path: (string | number)[], v: Json | undefined): Json {
  if (path.length === 0) return v === undefined ? null : v;
  const copy = structuredClone(root) as any;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  const last = path[path.length - 1];
  if (v === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = v;
  return copy;
}

const HUGE: Json[] = [1e308, -1e308, 2 ** 53 + 2, 2 ** 64, -(2 ** 63), 1e-300, -0, 0.5, 99999999999999999999, Number.MAX_SAFE_INTEGER, -1];
const WEIRD_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'null',
  '𝕌𝕟𝕚𝕔𝕠𝕕𝕖',
  '\u202e\u0635\u0648\u0631\u0629',
  '\ud800',
  'e\u0301',
  '${jndi:ldap://x}',
  "' OR 1=1 --",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'x'.repeat(100_000),
  '%00',
  '1e309',
];

function deep(depth: number, array: boolean): string {
  return array ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** A mutation of a JSON body, as the raw text to send. */
const bodyMutation = fc.oneof(
  fc.record({ kind: fc.constant('valid' as const) }),
  fc.record({
    kind: fc.constant('wrongType' as const),
    pick: fc.nat(),
    value: fc.oneof(
      fc.integer(),
      fc.string(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
    ),
  }),
  fc.record({ kind: fc.constant('huge' as const), pick: fc.nat(), value: fc.constantFrom(...HUGE) }),
  fc.record({
    kind: fc.constant('unicode' as const),
    pick: fc.nat(),
    value: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom(...WEIRD_STRINGS)),
  }),
  fc.record({ kind: fc.constant('missing' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('extra' as const),
    pick: fc.nat(),
    key: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'platformId')),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({ kind: fc.constant('deep' as const), depth: fc.constantFrom(64, 1000, 20_000), array: fc.boolean() }),
  fc.record({
    kind: fc.constant('raw' as const),
    text: fc.constantFrom(
      '',
      '{',
      '{"a":1,}',
      'null',
      '[]',
      '"text"',
      '{"__proto__":{"isAdmin":true}}',
      '{"constructor":{"prototype":{"x":1}}}',
      '\u0000',
      '1'.repeat(400),
    ),
  }),
);
type BodyMutation = typeof bodyMutation extends fc.Arbitrary<infer T> ? T : never;

function mutateBody(base: Json, m: BodyMutation): string {
  if (m.kind === 'valid') return JSON.stringify(base);
  if (m.kind === 'raw') return m.text;
  if (m.kind === 'deep') return JSON.stringify({ ...(base as object), nested: '__DEEP__' }).replace('"__DEEP__"', deep(m.depth, m.array));
  const all = nodes(base);
  const path = all[m.pick % all.length];
  switch (m.kind) {
    case 'wrongType':
    case 'huge':
    case 'unicode':
      return JSON.stringify(setAt(base, path, m.value as Json));
    case 'missing':
      return JSON.stringify(path.length ? setAt(base, path, undefined) : {});
    case 'extra': {
      const objects = all.filter((p) => {
        let n: any = base;
        for (const k of p) n = n[k];
        return n && typeof n === 'object' && !Array.isArray(n);
      });
      const target = objects.length ? objects[m.pick % objects.length] : [];
      const text = JSON.stringify(setAt(base, [...target, `${m.key}`], m.value as Json));
      // JSON.stringify drops a __proto__ key set as a property; write it out by hand at the root.
      return m.key === '__proto__' && target.length === 0 ? text.replace(/^\{/, `{"__proto__":${JSON.stringify(m.value)}${text === '{}' ? '' : ','}`) : text;
    }
  }
}

const queryMutation = fc.oneof(
  fc.record({ kind: fc.constant('valid' as const) }),
  fc.record({
    kind: fc.constant('value' as const),
    pick: fc.nat(),
    value: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom(
        '-1',
        '0',
        '101',
        '1e309',
        '99999999999999999999',
        'NaN',
        'true',
        'null',
        '[]',
        '%',
        '\u0000',
        'x'.repeat(5000),
        '2025-02-30T00:00:00Z',
        '𝕌',
      ),
    ),
  }),
  fc.record({ kind: fc.constant('unknown' as const), key: fc.string({ minLength: 1, maxLength: 10 }) }),
  fc.record({ kind: fc.constant('repeated' as const), pick: fc.nat() }),
);
type QueryMutation = typeof queryMutation extends fc.Arbitrary<infer T> ? T : never;

const pathMutation = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'real' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('other' as const),
      value: fc.oneof(
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.constantFrom(
          'Customer:not-a-uuid',
          'Customer:00000000-0000-0000-0000-000000000000',
          'Quote:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11',
          '..',
          '%2e%2e%2f',
          'a'.repeat(3000),
          '1',
          '😀',
        ),
      ),
    }),
  },
);

function queryString(params: Record<string, string | string[]>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) sp.append(k, one);
  const s = sp.toString();
  return s ? `?${s}` : '';
}

describe('fuzzing every route of the OpenAPI document', async () => {
  // Webhook URLs resolve to a closed local port, so a generated test webhook fails at once.
  const ctx = await testContext({ env: { AUTH_FAILURE_LIMIT: '0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }, webhookResolve: async () => ['127.0.0.1'] });
  await ctx.app.ready();
  const ops = apiOperations(ctx.app.swagger());
  const auth = ctx.platform.auth;
  const fixtures = await createFixtures(ctx, auth, ctx.platform.platformId);
  let requests = 0;
  let rejectedWrites = 0;
  /** route → statuses answered, for the coverage checks and FUZZ_REPORT. */
  const statuses = new Map<string, Map<number, number>>();

  async function run(
    op: Operation,
    seed: number,
    pm: { kind: 'real' } | { kind: 'other'; value: string },
    qm: QueryMutation,
    bm: BodyMutation,
    idempotencyKey: string | undefined,
  ) {
    const values: Record<string, string> = {};
    // A '.' or '..' segment would be resolved away by URL parsing before it reaches the server.
    for (const p of op.pathParams)
      values[p.name] =
        pm.kind === 'other'
          ? /^\.{1,2}$/.test(pm.value)
            ? `${pm.value}x`
            : pm.value
          : ((await idFor(ctx, auth, ops, op, p.name, fixtures)) ?? String(await valid(p.schema, seed)));
    const query: Record<string, string | string[]> = {};
    for (const p of op.query) {
      if (!p.required && (seed + p.name.length) % 2 === 0) continue;
      const v = fixtures.ids[p.name] ?? (await valid(p.schema, seed + p.name.length));
      query[p.name] = typeof v === 'string' ? v : JSON.stringify(v);
    }
    const names = op.query.map((p) => p.name);
    if (qm.kind === 'value' && names.length) query[names[qm.pick % names.length]] = qm.value;
    if (qm.kind === 'unknown') query[`${qm.key}_x`] = '1';
    if (qm.kind === 'repeated' && names.length) query[names[qm.pick % names.length]] = ['1', '2'];

    const headers: Record<string, string> = { authorization: auth };
    if (idempotencyKey !== undefined && op.method === 'POST') headers['idempotency-key'] = idempotencyKey;
    let payload: string | Buffer | undefined;
    if (op.body?.contentType === 'application/json') {
      headers['content-type'] = 'application/json';
      payload = mutateBody((await valid(op.body.schema, seed)) as Json, bm);
    } else if (op.body) {
      // multipart: a malformed or mismatched form (the valid form is exercised by the document tests).
      headers['content-type'] = bm.kind === 'raw' ? 'multipart/form-data; boundary=x' : 'application/json';
      payload = bm.kind === 'raw' ? `--x\r\nContent-Disposition: form-data; name="documentHolder"\r\n\r\n${bm.text}\r\n--x--\r\n` : mutateBody({}, bm);
    }
    const url = `${API_PREFIX}${fillPath(op.apiPath, values)}${queryString(query)}`;
    const write = op.method !== 'GET';
    const before = write ? await snapshot(ctx) : '';
    const res = await ctx.app.inject({ method: op.method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    requests++;
    const seen = statuses.get(op.label) ?? new Map<number, number>();
    seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
    statuses.set(op.label, seen);
    let body: any;
    try {
      body = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      body = undefined;
    }
    const requestText = `${url} ${typeof payload === 'string' ? payload.slice(0, 2000) : ''}`;
    const problems = answerProblems(op, { status: res.statusCode, body, raw: res.body, headers: res.headers }, requestText);
    if (write && res.statusCode >= 400) {
      rejectedWrites++;
      const after = await snapshot(ctx);
      if (after !== before) problems.push(`refused with ${res.statusCode} but changed stored data: ${difference(before, after)}`);
    }
    if (problems.length) throw new Error(`${op.method} ${url.slice(0, 300)}\nbody: ${requestText.slice(url.length, url.length + 500)}\n${problems.join('\n')}`);
  }

  it('finds the routes of the document', () => {
    expect(ops.length).toBeGreaterThanOrEqual(35);
  });

  for (const op of ops) {
    it(`${op.label}: valid and mutated requests`, { timeout: 120_000 }, async () => {
      // Schema-valid requests first (real ids, generated query and body), then mutations.
      for (let i = 0; i < RUNS; i++)
        await run(op, SEED + i, { kind: 'real' }, { kind: 'valid' }, { kind: 'valid' }, i % 3 === 0 ? `fuzz-${op.label}-${i}` : undefined);
      await fc.assert(
        fc.asyncProperty(
          fc.nat(1_000_000),
          pathMutation,
          queryMutation,
          bodyMutation,
          fc.option(fc.constantFrom('ok-key-1', '', ' ', 'k'.repeat(300), '\u00e9'), { nil: undefined }),
          async (seed, pm, qm, bm, key) => {
            await run(op, seed, pm, qm, bm, key);
          },
        ),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }

  it('sent a meaningful number of requests: accepted ones on most routes, refused writes among them', () => {
    if (process.env.FUZZ_REPORT)
      for (const [label, m] of statuses)
        process.stdout.write(
          `${label}: ${[...m]
            .sort()
            .map(([s, n]) => `${s}×${n}`)
            .join(' ')}\n`,
        );
    expect(requests).toBeGreaterThanOrEqual(ops.length * RUNS * 2);
    expect(rejectedWrites).toBeGreaterThan(ops.filter((o) => o.method !== 'GET').length);
    const accepted = [...statuses.values()].filter((m) => [...m.keys()].some((s) => s < 300)).length;
    expect(accepted).toBeGreaterThanOrEqual(Math.floor(ops.length / 2));
  });
});

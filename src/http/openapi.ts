import { errorCatalogue } from '../common/errors.js';
import { UMA_ADDRESS_PATTERN } from '../modules/customers/schemas.js';

/**
 * Examples in the OpenAPI document: every operation shows an example of its request body, of
 * its required path and query parameters, and of each answer (issue 2: "every route with request
 * and response schemas and examples").
 *
 * A schema may carry its own whole example (`examples: [...]` on a TypeBox object, which
 * @fastify/swagger turns into the media example); otherwise one is built here from the schema
 * itself: a field's own example, else its default, const, first enum value, or a sample of its
 * format or id pattern. One place builds them for every route, so a new route cannot ship
 * without; test/openapi.test.ts checks every example against its own schema.
 */

type Schema = Record<string, any>;

const SAMPLE_UUID = '019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11';

const FORMAT_SAMPLES: Record<string, unknown> = {
  'date-time': '2025-10-13T09:30:00.000Z',
  date: '2025-10-13',
  country: 'US',
  currency: 'USD',
  email: 'jane.doe@example.com',
  uri: 'https://example.com/corridor/webhooks',
  uuid: SAMPLE_UUID,
  binary: '(file contents)',
};

// Patterns shared by several modules, which a field may use without an example of its own.
const PATTERN_SAMPLES: Record<string, string> = {
  [UMA_ADDRESS_PATTERN]: '$alice@sandbox.acme-1a2b3c.uma.localhost',
};

/** `Type:<uuid>` for the first id type a pattern names (see common/ids.ts idPattern), or a known pattern's sample. */
function patternSample(pattern: string): string | undefined {
  const m = /([A-Za-z]+):\[0-9a-fA-F\]\{8\}/.exec(pattern);
  return m ? `${m[1]}:${SAMPLE_UUID}` : PATTERN_SAMPLES[pattern];
}

function stringSample(s: Schema): string {
  const sample = (s.format && (FORMAT_SAMPLES[s.format] as string)) ?? (s.pattern && patternSample(s.pattern)) ?? 'example';
  const min = s.minLength ?? 0;
  const padded = sample.length < min ? sample.padEnd(min, 'x') : sample;
  return s.maxLength !== undefined ? padded.slice(0, s.maxLength) : padded;
}

function numberSample(s: Schema): number {
  if (s.minimum !== undefined) return s.minimum;
  if (s.exclusiveMinimum !== undefined) return s.type === 'integer' ? Math.floor(s.exclusiveMinimum) + 1 : s.exclusiveMinimum + 1;
  return s.maximum !== undefined && s.maximum < 1 ? s.maximum : 1;
}

const isNull = (s: Schema) => s.type === 'null' || (Array.isArray(s.enum) && s.enum.length === 1 && s.enum[0] === null);

/**
 * An example value for a JSON schema. `requiredOnly` keeps request examples to the fields a
 * client must send: optional ones may exclude each other (an INDIVIDUAL has no businessInfo).
 */
export function exampleOf(schema: Schema | undefined, requiredOnly = false): unknown {
  if (!schema || typeof schema !== 'object') return null;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
  const union: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (union) return exampleOf(union.find((s) => !isNull(s)) ?? union[0], requiredOnly);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => exampleOf(s, requiredOnly)));
  const type = Array.isArray(schema.type) ? (schema.type.find((t: string) => t !== 'null') ?? 'null') : schema.type;
  switch (type ?? (schema.properties ? 'object' : undefined)) {
    case 'object': {
      const required = new Set<string>(schema.required ?? []);
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries<Schema>(schema.properties ?? {})) {
        if (!requiredOnly || required.has(name)) out[name] = exampleOf(prop, requiredOnly);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items, requiredOnly));
    case 'string':
      return stringSample(schema);
    case 'integer':
    case 'number':
      return numberSample(schema);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}

/** A D2 error of this status (or range, "4XX"), with its catalogue message; INVALID_INPUT names a field. */
function errorExample(status: string): unknown {
  const wanted = /^4xx$/i.test(status) ? 400 : /^5xx$/i.test(status) ? 500 : Number(status);
  const preferred: Record<number, string> = { 400: 'INVALID_INPUT', 500: 'INTERNAL_ERROR' };
  const code = preferred[wanted] ?? [...errorCatalogue].find(([, def]) => def.status === wanted)?.[0];
  if (!code) return undefined;
  const body = { status: wanted, code, message: errorCatalogue.get(code)!.message };
  return code === 'INVALID_INPUT' ? { ...body, details: { fields: [{ field: 'limit', in: 'query', message: 'must be <= 100' }] } } : body;
}

interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: unknown;
}

function fill(media: Media | undefined, value: () => unknown) {
  if (!media?.schema || media.example !== undefined || media.examples !== undefined) return;
  media.example = value();
}

/** Fills the missing examples of every operation under `prefix` (the API; not /dashboard). */
export function addExamples<T extends object>(doc: T, prefix: string): T {
  const paths = (doc as { paths?: Record<string, Record<string, any> | undefined> }).paths ?? {};
  for (const [path, operations] of Object.entries(paths)) {
    if (!path.startsWith(prefix) || !operations) continue;
    for (const op of Object.values(operations)) {
      for (const param of op.parameters ?? []) {
        if (param.required && param.example === undefined && param.examples === undefined) param.example = exampleOf(param.schema);
      }
      for (const media of Object.values<Media>(op.requestBody?.content ?? {})) fill(media, () => exampleOf(media.schema, true));
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) {
        const isError = /^[45]/.test(status);
        for (const media of Object.values<Media>(response.content ?? {}))
          fill(media, () => (isError ? errorExample(status) : undefined) ?? exampleOf(media.schema));
      }
    }
  }
  return doc;
}

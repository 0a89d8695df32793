import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldProblem } from '../common/errors.js';
import { customFormats, formatMessages } from '../common/schemas.js';

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

function makeAjv(coerce: boolean): Ajv {
  // Bodies are not coerced: "100" is not a number. Query strings and paths are text, so their
  // numbers and booleans are coerced. Unknown fields are refused, not silently dropped.
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
    strict: false,
  });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  for (const [name, check] of Object.entries(customFormats)) ajv.addFormat(name, { type: 'string', validate: check });
  return ajv;
}

const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

/**
 * Where a NUL character (U+0000) sits in a value, as an Ajv instance path, or undefined. PostgreSQL
 * text cannot hold NUL (the query would fail with a 500), so every input refuses it up front.
 * Iterative: a deeply nested body must not exhaust the stack.
 */
export function nulCharacterPath(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, at] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return at;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${at}/${i}`]));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const path = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (k.includes('\u0000')) return path;
        stack.push([item, path]);
      }
    }
  }
  return undefined;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Compiles a route's schema on its first request rather than at start: a server with a hundred
 * routes starts in a fraction of the time, and routes nobody calls cost nothing. Every schema is
 * still compiled by the test suite (the fuzz harness, test/fuzz, calls every route).
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  let compiled: ReturnType<Ajv['compile']> | undefined;
  const checked: Validate = (data) => {
    const validate = (compiled ??= ajv.compile(schema as object));
    const at = nulCharacterPath(data);
    if (at !== undefined) {
      checked.errors = [{ instancePath: at, schemaPath: '#', keyword: 'nul', params: {}, message: 'must not contain the NUL character (U+0000)' }];
      return false;
    }
    const ok = validate(data) as boolean;
    checked.errors = validate.errors;
    return ok;
  };
  return checked as ReturnType<FastifySchemaCompiler<unknown>>;
};

const where: Record<string, FieldProblem['in']> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

function fieldPath(instancePath: string): string {
  return instancePath
    .replace(/^\//, '')
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function join(base: string, name: string): string {
  return base ? `${base}.${name}` : name;
}

/** Turns Ajv errors into the field list of INVALID_INPUT, one readable line per field. */
export function fieldProblems(errors: ErrorObject[], context: string | undefined): FieldProblem[] {
  const location = where[context ?? 'body'] ?? 'body';
  const out: FieldProblem[] = [];
  const seen = new Set<string>();
  // anyOf/oneOf produce one error per branch plus a summary; the summary alone is clearer.
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  for (const e of errors) {
    let field = fieldPath(e.instancePath);
    let message: string;
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && unionPaths.has(e.instancePath) && e.keyword !== 'required' && e.keyword !== 'additionalProperties')
      continue;
    switch (e.keyword) {
      case 'required':
        field = join(field, String(e.params.missingProperty));
        message = 'is required';
        break;
      case 'additionalProperties':
        field = join(field, String(e.params.additionalProperty));
        message = 'is not a known field';
        break;
      case 'format':
        message = formatMessages[String(e.params.format)] ?? `must be a valid ${e.params.format}`;
        break;
      case 'enum':
        message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
        break;
      case 'const':
        message = `must be ${JSON.stringify(e.params.allowedValue)}`;
        break;
      case 'anyOf':
      case 'oneOf':
        message = 'does not match any allowed form';
        break;
      case 'type':
        message = `must be ${e.params.type === 'integer' ? 'an integer' : `of type ${e.params.type}`}`;
        break;
      default:
        message = e.message ?? 'is invalid';
    }
    const key = `${field}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ field: field || '(root)', in: location, message });
  }
  return out;
}

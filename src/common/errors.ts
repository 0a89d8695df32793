/**
 * The error shape of every response (D2): `{status, code, message, details?}`. Each module
 * declares its codes with defineErrors(); the registry is the catalogue docs/errors.md lists.
 */
import { absent } from './absent.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  toBody(): ErrorBody {
    const message = clipText(this.message, MAX_ERROR_MESSAGE_CHARS);
    return this.details === undefined
      ? { status: this.status, code: this.code, message }
      : // A detail without a value is left out, as in every answer (D11).
        { status: this.status, code: this.code, message, details: absent(boundedDetails(this.details)) };
  }
}

/**
 * Bounds of every error answer (rule 7). Whatever an input makes an error say, its answer stays a
 * few kilobytes: a refusal costs the server no more to send, to record for an Idempotency-Key
 * replay or to log than the request cost to read, and can never outgrow what a string can hold.
 */
export const MAX_ERROR_MESSAGE_CHARS = 1000;
/** Items kept of any list in `details` (the field problems of INVALID_INPUT first of all). */
export const MAX_DETAIL_ITEMS = 50;
/** Characters kept of any text in `details`. */
export const MAX_DETAIL_TEXT_CHARS = 500;
/** Members kept of any object in `details`, and how deep it may nest. */
const MAX_DETAIL_MEMBERS = 50;
const MAX_DETAIL_DEPTH = 6;

function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function bounded(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return clipText(value, MAX_DETAIL_TEXT_CHARS);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DETAIL_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, MAX_DETAIL_ITEMS).map((v) => bounded(v, depth + 1));
  // Values that are not plain objects (a Date) serialise as they are.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (kept++ >= MAX_DETAIL_MEMBERS) break;
    out[key] = bounded((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/**
 * `details` within the bounds above. A list of field problems longer than MAX_DETAIL_ITEMS keeps
 * its first ones and says how many more there were (`omittedFields`), so a client still sees that
 * the request had more problems than it was shown.
 */
export function boundedDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out = bounded(details, 0) as Record<string, unknown>;
  const fields = details.fields;
  if (Array.isArray(fields) && fields.length > MAX_DETAIL_ITEMS) out.omittedFields = fields.length - MAX_DETAIL_ITEMS;
  return out;
}

export interface ErrorBody {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface ErrorDefinition {
  status: number;
  message: string;
}

/** Every code declared anywhere, for the catalogue. */
export const errorCatalogue = new Map<string, ErrorDefinition>();

type Factories<T> = { [K in keyof T]: (details?: Record<string, unknown>, message?: string) => ApiError };

export function defineErrors<T extends Record<string, ErrorDefinition>>(defs: T): Factories<T> {
  const out = {} as Record<string, (details?: Record<string, unknown>, message?: string) => ApiError>;
  for (const [code, def] of Object.entries(defs)) {
    const known = errorCatalogue.get(code);
    if (known && known.status !== def.status) throw new Error(`error code ${code} declared twice with different statuses`);
    errorCatalogue.set(code, def);
    out[code] = (details, message) => new ApiError(def.status, code, message ?? def.message, details);
  }
  return out as Factories<T>;
}

/** A field-level problem of a request, as listed in INVALID_INPUT details. */
export interface FieldProblem {
  field: string;
  in: 'body' | 'query' | 'path' | 'header';
  message: string;
}

export const commonErrors = defineErrors({
  INVALID_INPUT: { status: 400, message: 'The request is invalid; see details.fields' },
  UNAUTHORIZED: { status: 401, message: 'Missing or invalid credentials' },
  FORBIDDEN: { status: 403, message: 'This token is not allowed to do that' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such route' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this route' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { status: 409, message: 'A request with this Idempotency-Key is still being processed; retry shortly' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send request bodies as application/json' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This Idempotency-Key was used with a different request' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the time in Retry-After' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side; the request had no effect unless its effect is visible' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is not ready; retry shortly' },
  DATABASE_UNAVAILABLE: {
    status: 503,
    message: 'The database cannot be reached or did not answer in time; retry after the time in Retry-After, with the same Idempotency-Key',
  },
  STORAGE_FULL: { status: 503, message: 'The database has no space left to store this write; reads still work; retry after the time in Retry-After' },
});

/** A 400 INVALID_INPUT naming the fields. */
export function invalidInput(fields: FieldProblem[], message?: string): ApiError {
  return commonErrors.INVALID_INPUT({ fields }, message);
}

/** A 400 INVALID_INPUT for one body field. */
export function invalidField(field: string, message: string): ApiError {
  return invalidInput([{ field, in: 'body', message }], `${field}: ${message}`);
}

/**
 * Absent, not null (D11). An optional member without a value is left out of a response, as the
 * vendor SDK's types expect (optional, non-nullable members); only the members the spec itself
 * shows as null keep a null. Every view passes its object through `absent()`, so the rule lives
 * here, once; the response schemas declare those members `Type.Optional`, and webhook bodies
 * carry the same views.
 */

/** The members the spec shows as null, by resource: each stays in the response with null. */
export const SPEC_NULL_MEMBERS = {
  /** "customerId: the owning customer; null when the account belongs to the platform" */
  ExternalAccount: ['customerId'],
} as const;

// `any` (a parsed JSON member) and `unknown` are kept as they are.
type NullKeys<T> = { [K in keyof T]-?: unknown extends T[K] ? never : null extends T[K] ? K : never }[keyof T];
type Flat<T> = { [K in keyof T]: T[K] } & {};

/**
 * T with its nullable members optional and non-null, except those named in Keep. The type is
 * shallow (a nested object typed with nulls goes through absent() itself); the stripping is deep.
 */
export type Absent<T, Keep extends keyof T = never> = Flat<
  { [K in Exclude<keyof T, Exclude<NullKeys<T>, Keep>>]: T[K] } & { [K in Exclude<NullKeys<T>, Keep>]?: Exclude<T[K], null> }
>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined) out[k] = strip(v);
  return out;
}

/**
 * The view without its null and undefined members, at every depth (stored JSON such as a
 * source, a refund or an accountInfo included). `keepNull` names top-level members the spec
 * shows as null (SPEC_NULL_MEMBERS): they stay, null or not.
 */
export function absent<T extends object, K extends keyof T = never>(view: T, keepNull: readonly K[] = []): Absent<T, K> {
  const out = strip(view) as Record<string, unknown>;
  const source = view as Record<string, unknown>;
  for (const key of keepNull) {
    const k = key as string;
    if (k in source) out[k] = source[k] === null || source[k] === undefined ? null : out[k];
  }
  return out as Absent<T, K>;
}

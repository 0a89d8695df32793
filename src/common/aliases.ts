import { invalidInput } from './errors.js';

/**
 * Other names of one request field (the vendor SDK's and CLI's, docs/vendor-clients.md). Each
 * route schema lists an alias explicitly, so unknown fields are still refused; this picks the
 * value given under either name. Both names with different values are refused, naming the alias.
 */
export function oneOfSpellings<T>(
  given: Record<string, unknown>,
  canonical: string,
  alias: string,
  where: 'body' | 'query',
  same: (a: T, b: T) => boolean = (a, b) => JSON.stringify(a) === JSON.stringify(b),
): T | undefined {
  const a = given[canonical] as T | undefined;
  const b = given[alias] as T | undefined;
  if (a !== undefined && b !== undefined && !same(a, b)) {
    throw invalidInput(
      [{ field: alias, in: where, message: `differs from ${canonical}, which names the same value; give one` }],
      `${alias}: differs from ${canonical}`,
    );
  }
  return a ?? b;
}

/** The value given under the canonical name or any of several aliases (all that are given must agree). */
export function oneOfNames<T>(given: Record<string, unknown>, canonical: string, aliases: string[], where: 'body' | 'query'): T | undefined {
  let name = canonical;
  let value = given[canonical] as T | undefined;
  for (const alias of aliases) {
    const v = given[alias] as T | undefined;
    if (v === undefined) continue;
    if (value !== undefined && JSON.stringify(value) !== JSON.stringify(v)) {
      throw invalidInput(
        [{ field: alias, in: where, message: `differs from ${name}, which names the same value; give one` }],
        `${alias}: differs from ${name}`,
      );
    }
    if (value === undefined) name = alias;
    value = v;
  }
  return value;
}

/** Two ISO 8601 date-times naming the same instant. */
export const sameInstant = (a: string, b: string) => new Date(a).getTime() === new Date(b).getTime();

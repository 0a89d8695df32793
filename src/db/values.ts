/** Conversions between JS values and the portable column encodings of db/schema.ts. */

export function toDbBool(v: boolean): number {
  return v ? 1 : 0;
}

export function fromDbBool(v: number | bigint | boolean | null | undefined): boolean {
  return v === true || v === 1 || v === 1n;
}

/** Reads a 64-bit integer column (bigint on both drivers; number where a driver returns int4). */
export function toBigInt(v: number | bigint | string | null | undefined): bigint {
  if (v === null || v === undefined) return 0n;
  return typeof v === 'bigint' ? v : BigInt(v);
}

export function toNumber(v: number | bigint | string | null | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

export function jsonOrNull<T>(text: string | null | undefined): T | null {
  return text ? (JSON.parse(text) as T) : null;
}

/** Whether an error is a unique-constraint violation, on either dialect. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string } | null;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

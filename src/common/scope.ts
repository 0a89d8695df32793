/** Who is calling: every query is scoped by this (rule 4). */
export type Environment = 'SANDBOX' | 'PRODUCTION';
export const ENVIRONMENTS: readonly Environment[] = ['SANDBOX', 'PRODUCTION'];

export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';
export const PERMISSIONS: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

export interface Scope {
  platformId: string;
  environment: Environment;
}

/**
 * Whether a row belongs to the scope. Look-ups by id read by primary key alone and check the
 * scope here: with the scope in the WHERE clause, a planner without statistics (a new or freshly
 * loaded PostgreSQL table; SQLite for several ids) may walk a (platform_id, environment, …) index
 * with the id as a filter, reading every row of the platform.
 */
export function inScope(row: { platform_id: string; environment: string }, scope: Scope): boolean {
  return row.platform_id === scope.platformId && row.environment === scope.environment;
}

export interface AuthContext extends Scope {
  tokenId: string;
  clientId: string;
  permissions: readonly Permission[];
}

/**
 * Whether granted permissions allow an action needing `needed` (D3). Writing implies reading:
 * any token may read its platform's data; TRANSACT and MANAGE are needed for their writes.
 */
export function allows(granted: readonly Permission[], needed: Permission): boolean {
  return needed === 'VIEW' ? granted.length > 0 : granted.includes(needed);
}

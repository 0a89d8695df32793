/** Who is calling: every query is scoped by this (rule 4). */
export type Environment = 'SANDBOX' | 'PRODUCTION';
export const ENVIRONMENTS: readonly Environment[] = ['SANDBOX', 'PRODUCTION'];

export type Permission = 'VIEW' | 'TRANSACT' | 'MANAGE';
export const PERMISSIONS: readonly Permission[] = ['VIEW', 'TRANSACT', 'MANAGE'];

export interface Scope {
  platformId: string;
  environment: Environment;
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

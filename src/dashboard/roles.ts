import type { Environment, Permission } from '../common/scope.js';

/**
 * Dashboard roles and the API permissions (D3) a signed-in user holds with each:
 * ADMIN everything everywhere; DEVELOPER everything in the sandbox and reading in production;
 * VIEWER reading only.
 */
export const ROLES = ['ADMIN', 'DEVELOPER', 'VIEWER'] as const;
export type Role = (typeof ROLES)[number];

export function permissionsOf(role: Role, environment: Environment): Permission[] {
  switch (role) {
    case 'ADMIN':
      return ['VIEW', 'TRANSACT', 'MANAGE'];
    case 'DEVELOPER':
      return environment === 'SANDBOX' ? ['VIEW', 'TRANSACT', 'MANAGE'] : ['VIEW'];
    case 'VIEWER':
      return ['VIEW'];
  }
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

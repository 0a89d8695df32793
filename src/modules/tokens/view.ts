import type { Environment, Permission } from '../../common/scope.js';
import type { TokenRow } from './repository.js';

/** A token as it is read back: never its secret (only the answer to POST /tokens carries that). */
export function tokenView(row: TokenRow) {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions.split(',') as Permission[],
    environment: row.environment as Environment,
    clientId: row.client_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    // Omitted, not null, for a token that never expires (D11).
    ...(row.expires_at ? { expiresAt: row.expires_at } : {}),
  };
}

import type { Environment, Permission } from '../../common/scope.js';
import type { TokenRow } from './repository.js';

export function tokenView(row: TokenRow, clientSecret?: string) {
  return {
    id: row.id,
    name: row.name,
    permissions: row.permissions.split(',') as Permission[],
    environment: row.environment as Environment,
    clientId: row.client_id,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

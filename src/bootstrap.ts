import fs from 'node:fs';
import path from 'node:path';
import { PERMISSIONS } from './common/scope.js';
import type { Container } from './container.js';

export interface BootstrapCredentials {
  platformId: string;
  clientId: string;
  clientSecret: string;
  environment: 'SANDBOX';
  /** The first dashboard admin of the platform (sign in at /dashboard/). */
  dashboardEmail: string;
  dashboardPassword: string;
}

/**
 * D10: the first start on an empty database creates a platform and a SANDBOX token with every
 * permission, and the platform's first dashboard ADMIN (CORRIDOR_BOOTSTRAP_ADMIN_EMAIL, default
 * admin@localhost; password from CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD or generated), and writes them to credentials.json (mode 0600) in the data directory. Several
 * nodes starting at once create one: the marker row is inserted in the same transaction.
 */
export async function bootstrap(container: Container): Promise<BootstrapCredentials | undefined> {
  const { db, config, services } = container;
  const credentials = await db.tx(async (trx) => {
    const marker = await trx.selectFrom('system_settings').select('value').where('key', '=', 'bootstrapped_at').executeTakeFirst();
    if (marker || (await services.platforms.count()) > 0) return undefined;
    await trx.insertInto('system_settings').values({ key: 'bootstrapped_at', value: container.clock.now().toISOString() }).execute();
    const platform = await services.platforms.create('Default platform');
    const { row, clientSecret } = await services.tokens.issue({
      platformId: platform.id,
      environment: 'SANDBOX',
      name: 'Bootstrap token',
      permissions: PERMISSIONS,
      clientId: config.bootstrapClientId,
      clientSecret: config.bootstrapClientSecret,
    });
    const admin = await container.dashboard.createUser({
      platformId: platform.id,
      email: config.bootstrapAdminEmail,
      role: 'ADMIN',
      password: config.bootstrapAdminPassword,
    });
    return {
      platformId: platform.id,
      clientId: row.client_id,
      clientSecret,
      environment: 'SANDBOX' as const,
      dashboardEmail: admin.user.email,
      dashboardPassword: admin.password,
    };
  });
  if (credentials) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const file = path.join(config.dataDir, 'credentials.json');
    fs.writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  return credentials;
}

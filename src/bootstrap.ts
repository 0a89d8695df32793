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

/**
 * What the first start prints about the credentials it made. The secret and the password go only
 * to a terminal (a person reading it once); with stdout piped into a log collector the lines say
 * where credentials.json is, so no secret lands in a log store.
 */
export function firstStartLines(credentials: BootstrapCredentials, opts: { terminal: boolean; dataDir: string; base: string }): string[] {
  const file = path.join(opts.dataDir, 'credentials.json');
  if (!opts.terminal) {
    return [
      '',
      'First start: created a platform, a SANDBOX token with every permission and a dashboard ADMIN.',
      `  platformId:   ${credentials.platformId}`,
      `  clientId:     ${credentials.clientId}`,
      `  The client secret and the dashboard password are in ${file} (readable only by this user; they are`,
      '  not printed because this output is not a terminal). Delete the file once they are kept elsewhere:',
      '  npx corridor credentials delete',
    ];
  }
  return [
    '',
    'First start: created a platform and a SANDBOX token with every permission.',
    `  platformId:   ${credentials.platformId}`,
    `  clientId:     ${credentials.clientId}`,
    `  clientSecret: ${credentials.clientSecret}`,
    '',
    '  Dashboard sign-in (ADMIN of this platform):',
    `  email:        ${credentials.dashboardEmail}`,
    `  password:     ${credentials.dashboardPassword}`,
    `  (also saved to ${file}, readable only by you; the secret and the password are not shown again;`,
    '  delete the file once they are kept elsewhere: npx corridor credentials delete)',
    '',
    `  curl -u '${credentials.clientId}:${credentials.clientSecret}' ${opts.base}/customers`,
  ];
}

/** `npx corridor credentials delete`: removes credentials.json; false when there was none. */
export function deleteCredentialsFile(dataDir: string): { file: string; deleted: boolean } {
  const file = path.join(dataDir, 'credentials.json');
  try {
    fs.rmSync(file);
    return { file, deleted: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file, deleted: false };
    throw e;
  }
}

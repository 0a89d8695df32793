import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { freshDatabase } from './helpers/context.js';

async function firstStart(env: Record<string, string> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-boot-'));
  const { db, drop } = await freshDatabase();
  const container = await createContainer(loadConfig({ DATA_DIR: dataDir, ...env }), { db });
  const credentials = await bootstrap(container);
  afterAll(async () => {
    await container.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { container, credentials, dataDir };
}

describe('bootstrap creates the first dashboard admin (D10)', () => {
  it('generates the password, saves it in credentials.json, and it signs in as ADMIN of the platform', async () => {
    const { container, credentials, dataDir } = await firstStart();
    expect(credentials).toMatchObject({ dashboardEmail: 'admin@localhost' });
    expect(credentials!.dashboardPassword.length).toBeGreaterThanOrEqual(24);
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, 'credentials.json'), 'utf8'));
    expect(saved).toMatchObject({ dashboardEmail: 'admin@localhost', dashboardPassword: credentials!.dashboardPassword, platformId: credentials!.platformId });
    const signedIn = await container.dashboard.signIn('admin@localhost', credentials!.dashboardPassword);
    expect(signedIn.user).toMatchObject({ role: 'ADMIN', platform_id: credentials!.platformId });
    const row = await container.db.executor().selectFrom('dashboard_users').select('password_hash').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(credentials!.dashboardPassword);
    // A second start creates nothing.
    expect(await bootstrap(container)).toBeUndefined();
  });

  it('takes the email and password from CORRIDOR_BOOTSTRAP_ADMIN_EMAIL / _PASSWORD', async () => {
    const { container, credentials } = await firstStart({
      CORRIDOR_BOOTSTRAP_ADMIN_EMAIL: 'Ops@Example.com',
      CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD: 'a fixed password for ci',
    });
    expect(credentials).toMatchObject({ dashboardEmail: 'ops@example.com', dashboardPassword: 'a fixed password for ci' });
    expect((await container.dashboard.signIn('ops@example.com', 'a fixed password for ci')).user.role).toBe('ADMIN');
  });

  it('refuses a short bootstrap password or a malformed email', () => {
    expect(() => loadConfig({ CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD: 'short' })).toThrow(/CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD/);
    expect(() => loadConfig({ CORRIDOR_BOOTSTRAP_ADMIN_EMAIL: 'not an email' })).toThrow(/CORRIDOR_BOOTSTRAP_ADMIN_EMAIL/);
  });
});

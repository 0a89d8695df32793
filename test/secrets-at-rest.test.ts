/**
 * Secrets at rest: webhook private keys and KYC document bytes are stored sealed with the
 * operator's key-encryption key; rows written before that still read; a rotation seals every row
 * with the current key; the first start prints secrets only to a terminal; the CLI deletes
 * credentials.json and rotates the embedded key.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_PREFIX } from '../src/app.js';
import { firstStartLines } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { createContainer } from '../src/container.js';
import { verifySignatureHeader } from '../src/events/signing.js';
import { loadSecrets } from '../src/secrets/kek.js';
import { resealAll } from '../src/secrets/rotate.js';
import { call, testContext, TEST_KEK } from './helpers/context.js';
import { createCustomer } from './helpers/factories.js';
import { fixture, uploadDocument } from './fixtures/multipart.js';
import { cli, serverEnvironment } from './helpers/server.js';

const PNG = fixture('tiny.png');

describe('secrets at rest', async () => {
  const ctx = await testContext();
  const db = () => ctx.container.db.executor();
  const passport = (holder: string) => ({ documentHolder: holder, documentType: 'PASSPORT', country: 'GB', side: 'FRONT' });
  const download = (id: string) =>
    ctx.app.inject({ method: 'GET', url: `${API_PREFIX}/documents/${id}/content`, headers: { authorization: ctx.platform.auth } });

  it('stores document bytes sealed, and answers the original bytes', async () => {
    const customer = await createCustomer(ctx);
    const res = await uploadDocument(ctx, passport(customer.id), [{ fileName: 'passport.png', contentType: 'image/png', data: PNG }]);
    expect(res.status).toBe(201);
    const row = await db().selectFrom('documents').select('content').where('id', '=', res.body.id).executeTakeFirstOrThrow();
    const stored = Buffer.from(row.content);
    expect(stored.subarray(0, 4).toString('latin1')).toBe('CRDE');
    expect(stored.includes(PNG.subarray(0, 16))).toBe(false);
    expect((await download(res.body.id)).rawPayload.equals(PNG)).toBe(true);
  });

  it('stores the webhook private key sealed; signatures still verify with the public key', async () => {
    const config = await call(ctx, 'GET', '/config');
    const row = await db()
      .selectFrom('webhook_keys')
      .select('private_key_pem')
      .where('platform_id', '=', ctx.platform.platformId)
      .where('environment', '=', 'SANDBOX')
      .executeTakeFirstOrThrow();
    expect(row.private_key_pem).toMatch(/^enc:v1:/);
    expect(row.private_key_pem).not.toContain('PRIVATE KEY');
    const signer = await ctx.container.webhooks.keys.signer({ platformId: ctx.platform.platformId, environment: 'SANDBOX' });
    const header = signer.header('{"a":1}', 1_700_000_000);
    expect(verifySignatureHeader(config.body.webhookPublicKey, header, '{"a":1}', { nowSeconds: 1_700_000_000 })).toEqual({ ok: true });
  });

  it('reads rows written before encryption, and a rotation seals them and moves every row to a new key', async () => {
    // A document and a signing key as an older version stored them: plain.
    const customer = await createCustomer(ctx);
    const legacy = await uploadDocument(ctx, passport(customer.id), [{ fileName: 'old.png', contentType: 'image/png', data: PNG }]);
    await ctx.container.db.tx((trx) => trx.updateTable('documents').set({ content: PNG }).where('id', '=', legacy.body.id).execute());
    expect((await download(legacy.body.id)).rawPayload.equals(PNG)).toBe(true);

    // The operator introduces a new key, keeping the old one to open with, and rotates.
    const newKek = randomBytes(32).toString('base64');
    const rotating = loadSecrets(loadConfig({ DATA_DIR: '/nonexistent', CORRIDOR_KEK: newKek, CORRIDOR_KEK_PREVIOUS: TEST_KEK }));
    const report = await resealAll(ctx.container.db, rotating);
    expect(report.documents.sealed).toBeGreaterThanOrEqual(2);
    expect(report.webhookKeys.sealed).toBeGreaterThanOrEqual(1);
    expect((await resealAll(ctx.container.db, rotating)).documents.sealed).toBe(0); // nothing left

    // A node with only the new key reads everything; one with only the old key reads nothing.
    const sandbox = { platformId: ctx.platform.platformId, environment: 'SANDBOX' as const };
    const onlyNew = await createContainer(loadConfig({ DATA_DIR: '/nonexistent', CORRIDOR_KEK: newKek }), { db: ctx.container.db });
    expect((await onlyNew.services.documents.content(sandbox, legacy.body.id)).bytes.equals(PNG)).toBe(true);
    await expect(onlyNew.webhooks.keys.signer({ platformId: ctx.platform.platformId, environment: 'SANDBOX' })).resolves.toBeDefined();
    await expect(ctx.container.services.documents.content(sandbox, legacy.body.id)).rejects.toThrow(/unknown key-encryption key/);
    onlyNew.fx.stop(); // not onlyNew.close(): the database belongs to the test context
  });
});

describe('first start and credentials.json', () => {
  const credentials = {
    platformId: 'Platform:1',
    clientId: 'corr_test_abc',
    clientSecret: 'cs_very_secret',
    environment: 'SANDBOX' as const,
    dashboardEmail: 'admin@localhost',
    dashboardPassword: 'pw-very-secret',
  };

  it('prints the secret and the password only to a terminal; otherwise says where credentials.json is', () => {
    const piped = firstStartLines(credentials, { terminal: false, dataDir: '/srv/corridor', base: 'http://x' }).join('\n');
    expect(piped).not.toContain('cs_very_secret');
    expect(piped).not.toContain('pw-very-secret');
    expect(piped).toContain('/srv/corridor/credentials.json');
    expect(piped).toContain('npx corridor credentials delete');
    const terminal = firstStartLines(credentials, { terminal: true, dataDir: '/srv/corridor', base: 'http://x' }).join('\n');
    expect(terminal).toContain('cs_very_secret');
    expect(terminal).toContain('pw-very-secret');
  });

  it('npx corridor credentials delete and keys rotate-kek --generate', async () => {
    const { env, dataDir, cleanup } = await serverEnvironment();
    try {
      // A data directory as a first start leaves it: a generated key, credentials.json, a sealed key.
      const container = await createContainer(loadConfig(env));
      const platform = await container.services.platforms.create('Rotating');
      const scope = { platformId: platform.id, environment: 'SANDBOX' as const };
      const publicKey = await container.webhooks.keys.publicKeyPem(scope);
      await container.close();
      const kekFile = path.join(dataDir, 'kek.key');
      const before = fs.readFileSync(kekFile, 'utf8');
      fs.writeFileSync(path.join(dataDir, 'credentials.json'), '{}', { mode: 0o600 });

      const deleted = cli(['credentials', 'delete'], env);
      expect(deleted.stdout).toBe(`deleted ${path.join(dataDir, 'credentials.json')}\n`);
      expect(fs.existsSync(path.join(dataDir, 'credentials.json'))).toBe(false);
      expect(cli(['credentials', 'delete'], env).stdout).toMatch(/^no /);

      const rotated = cli(['keys', 'rotate-kek', '--generate', '--json'], env);
      expect(rotated.stderr).toBe('');
      expect(JSON.parse(rotated.stdout)).toMatchObject({ webhookKeys: { checked: 1, sealed: 1 } });
      expect(fs.readFileSync(kekFile, 'utf8')).not.toBe(before);
      expect(fs.readdirSync(dataDir).filter((f) => f.startsWith('kek'))).toEqual(['kek.key']);
      const after = await createContainer(loadConfig(env));
      const signer = await after.webhooks.keys.signer(scope);
      expect(signer).toBeDefined();
      expect(await after.webhooks.keys.publicKeyPem(scope)).toBe(publicKey);
      await after.close();
    } finally {
      await cleanup();
    }
  });
});

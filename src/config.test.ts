import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs the embedded sandbox with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 8080, sqliteSynchronous: 'FULL', sandboxTimeScale: 1, databaseUrl: undefined });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('lists every problem at once', () => {
    expect(() => loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', SANDBOX_TIME_SCALE: '0', CORRIDOR_BOOTSTRAP_CLIENT_ID: 'only-id-given' })).toThrowError(ConfigError);
    try {
      loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', SANDBOX_TIME_SCALE: '0', CORRIDOR_BOOTSTRAP_CLIENT_ID: 'only-id-given' });
    } catch (e) {
      const msg = (e as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('SANDBOX_TIME_SCALE');
      expect(msg).toContain('CORRIDOR_BOOTSTRAP_CLIENT_SECRET');
    }
  });

  it('allows private webhook addresses by default only when the server listens on loopback only', () => {
    for (const HOST of ['127.0.0.1', '::1', '[::1]', 'localhost', '127.0.0.2']) expect(loadConfig({ HOST }).webhookAllowPrivateAddresses).toBe(true);
    expect(loadConfig({}).webhookAllowPrivateAddresses).toBe(true); // HOST defaults to 127.0.0.1
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5', 'corridor.internal']) expect(loadConfig({ HOST }).webhookAllowPrivateAddresses).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'true' }).webhookAllowPrivateAddresses).toBe(true);
    expect(loadConfig({ HOST: '127.0.0.1', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' }).webhookAllowPrivateAddresses).toBe(false);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'yes' })).toThrowError(/WEBHOOK_ALLOW_PRIVATE_ADDRESSES/);
  });
});

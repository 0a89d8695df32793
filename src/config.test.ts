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
});

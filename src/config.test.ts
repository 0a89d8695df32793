import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs the embedded sandbox with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 8080, sqliteSynchronous: 'FULL', sandboxTimeScale: 1, databaseUrl: undefined });
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('lists every problem at once', () => {
    expect(() => loadConfig({ PORT: '99999', DATABASE_URL: 'mysql://x', SANDBOX_TIME_SCALE: '0', CORRIDOR_BOOTSTRAP_CLIENT_ID: 'only-id-given' })).toThrowError(
      ConfigError,
    );
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

  it('reads the operations settings with their defaults, and refuses values out of range', () => {
    const c = loadConfig({});
    expect(c.retention).toEqual({ webhookDays: 30, lookupDays: 7, batchSize: 500, intervalMs: 600_000 });
    expect(c.overload).toEqual({ maxEventLoopDelayMs: 1000, maxEventLoopUtilization: 0, maxHeapUsedBytes: 0, maxRssBytes: 0, retryAfterSeconds: 10 });
    const set = loadConfig({
      RETENTION_WEBHOOK_DAYS: '0',
      RETENTION_BATCH_SIZE: '100',
      OVERLOAD_MAX_EVENT_LOOP_UTILIZATION_PERCENT: '95',
      OVERLOAD_MAX_RSS_MB: '2048',
    });
    expect(set.retention.webhookDays).toBe(0);
    expect(set.retention.batchSize).toBe(100);
    expect(set.overload.maxEventLoopUtilization).toBe(0.95);
    expect(set.overload.maxRssBytes).toBe(2048 * 1024 * 1024);
    expect(() => loadConfig({ RETENTION_BATCH_SIZE: '0' })).toThrowError(/RETENTION_BATCH_SIZE/);
    expect(() => loadConfig({ OVERLOAD_RETRY_AFTER_SECONDS: 'soon' })).toThrowError(/OVERLOAD_RETRY_AFTER_SECONDS/);
  });

  it('reads the HTTP timeouts and the metrics token', () => {
    expect(loadConfig({}).timeouts).toEqual({ requestMs: 60_000, connectionMs: 120_000, keepAliveMs: 72_000 });
    expect(loadConfig({}).metricsToken).toBeUndefined();
    const c = loadConfig({ REQUEST_TIMEOUT_MS: '0', KEEP_ALIVE_TIMEOUT_MS: '65000', METRICS_TOKEN: 'a-long-enough-token' });
    expect(c.timeouts).toMatchObject({ requestMs: 0, keepAliveMs: 65_000 });
    expect(c.metricsToken).toBe('a-long-enough-token');
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrowError(/METRICS_TOKEN/);
    expect(() => loadConfig({ KEEP_ALIVE_TIMEOUT_MS: '10' })).toThrowError(/KEEP_ALIVE_TIMEOUT_MS/);
  });

  it('reads the PostgreSQL pool and timeouts and the jobs attempt limit, refusing values out of range', () => {
    // Every wait bounded by default (docs/reliability.md, "Bounds").
    expect(loadConfig({})).toMatchObject({
      pg: {
        poolSize: 10,
        statementTimeoutMs: 15_000,
        idleInTransactionTimeoutMs: 10_000,
        lockTimeoutMs: 5_000,
        queryTimeoutMs: 20_000,
        connectTimeoutMs: 5_000,
        keepAliveInitialDelayMs: 10_000,
      },
      jobMaxAttempts: 25,
    });
    expect(
      loadConfig({
        PG_POOL_SIZE: '40',
        PG_STATEMENT_TIMEOUT_MS: '30000',
        PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '60000',
        PG_LOCK_TIMEOUT_MS: '1000',
        PG_QUERY_TIMEOUT_MS: '40000',
        PG_CONNECT_TIMEOUT_MS: '2000',
        PG_KEEPALIVE_INITIAL_DELAY_MS: '0',
        JOB_MAX_ATTEMPTS: '5',
      }),
    ).toMatchObject({
      pg: {
        poolSize: 40,
        statementTimeoutMs: 30_000,
        idleInTransactionTimeoutMs: 60_000,
        lockTimeoutMs: 1_000,
        queryTimeoutMs: 40_000,
        connectTimeoutMs: 2_000,
        keepAliveInitialDelayMs: 0,
      },
      jobMaxAttempts: 5,
    });
    // The client's wait must outlast the server's limits, or a slow statement would cut its connection.
    expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: '30000' })).toThrowError(/PG_QUERY_TIMEOUT_MS/);
    expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: '0' })).toThrowError(/PG_QUERY_TIMEOUT_MS/);
    expect(loadConfig({ PG_STATEMENT_TIMEOUT_MS: '0', PG_QUERY_TIMEOUT_MS: '0' }).pg.queryTimeoutMs).toBe(0);
    expect(() => loadConfig({ PG_POOL_SIZE: '0' })).toThrowError(/PG_POOL_SIZE/);
    expect(() => loadConfig({ PG_STATEMENT_TIMEOUT_MS: '-1' })).toThrowError(/PG_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: 'soon' })).toThrowError(/PG_IDLE_IN_TRANSACTION_TIMEOUT_MS/);
    expect(() => loadConfig({ JOB_MAX_ATTEMPTS: '0' })).toThrowError(/JOB_MAX_ATTEMPTS/);
  });

  it('KYC_ATTESTATION is PLATFORM unless the operator keeps it', () => {
    expect(loadConfig({}).kycAttestation).toBe('PLATFORM');
    expect(loadConfig({ KYC_ATTESTATION: 'OPERATOR' }).kycAttestation).toBe('OPERATOR');
    expect(() => loadConfig({ KYC_ATTESTATION: 'operator' })).toThrowError(/KYC_ATTESTATION/);
  });

  it('checks OTEL_EXPORTER_OTLP_ENDPOINT is a URL', () => {
    expect(loadConfig({}).otlpEndpoint).toBeUndefined();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).otlpEndpoint).toBe('http://collector:4318');
    expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrowError(/OTEL_EXPORTER_OTLP_ENDPOINT/);
  });
});

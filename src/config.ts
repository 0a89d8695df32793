import path from 'node:path';
import { decodeKek } from './secrets/kek.js';
import { parseDomainAddresses, type DomainAddress } from './modules/uma/domain-map.js';

/** Every setting of the service, read from the environment once. With nothing set, an embedded sandbox runs. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** postgres://… to run on PostgreSQL; unset means the embedded SQLite database in dataDir. */
  databaseUrl?: string;
  /** SQLite durability: FULL (default) fsyncs every commit; NORMAL trades the last commits on power loss for speed. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /**
   * PostgreSQL: connections per process, and a bound on every wait (docs/reliability.md, "Bounds";
   * 0: none): server side on one statement, on a transaction left idle and on a row lock; client
   * side on an answer (a silent network), on getting a connection, and TCP keep-alive.
   */
  pg: {
    poolSize: number;
    statementTimeoutMs: number;
    idleInTransactionTimeoutMs: number;
    lockTimeoutMs: number;
    queryTimeoutMs: number;
    connectTimeoutMs: number;
    keepAliveInitialDelayMs: number;
  };
  /** Attempts a failing job gets before it is dead-lettered for an operator (`npx corridor jobs dead`). */
  jobMaxAttempts: number;
  /** Who may set a customer's kycStatus in PRODUCTION: the platform (PATCH, audited) or only the operator (CLI). */
  kycAttestation: 'PLATFORM' | 'OPERATOR';
  logLevel: string;
  /** Divides every sandbox delay (D9), so tests can run the 30 s and 6 min patterns in moments. */
  sandboxTimeScale: number;
  bootstrapClientId?: string;
  bootstrapClientSecret?: string;
  /** The first dashboard admin (D10); the password is generated when unset. */
  bootstrapAdminEmail: string;
  bootstrapAdminPassword?: string;
  /** How long a dashboard sign-in lasts. */
  dashboardSessionTtlMs: number;
  /** Dashboard sign-in attempts one client address may make per window (0 turns the limit off). */
  dashboardSignInLimitPerAddress: number;
  /** Dashboard sign-in attempts for one email per window, from any address (0 turns the limit off). */
  dashboardSignInLimitPerAccount: number;
  dashboardSignInWindowMs: number;
  /** Password hashes (argon2, ~100 ms of a thread-pool thread each) run at once; a few more may wait. */
  dashboardHashConcurrency: number;
  /** How long a verified credential is trusted without asking the database again. */
  authCacheTtlMs: number;
  /** How long a platform's configuration read for a payment is reused; PATCH /config refreshes it at once on its own node. */
  configCacheTtlMs: number;
  bodyLimitBytes: number;
  /** Base domain under which each platform's default UMA domain is made. */
  umaBaseDomain: string;
  /** UMA_DOMAIN_ADDRESSES: where UMA domains without public DNS are reached (development, tests); src/modules/uma/domain-map.ts. */
  umaDomainAddresses: DomainAddress[];
  /** UMA_COUNTERPARTY_ALLOWLIST: in PRODUCTION, the only UMA domains this Corridor pays and is paid by; unset: any. */
  umaCounterpartyAllowlist?: string[];
  /** Address printed at start (for the docs link). */
  publicUrl: string;
  /** Run background workers in this process (webhook delivery, expiries, sandbox timers). */
  workers: boolean;
  /**
   * Let webhooks reach loopback and private addresses (receivers on the same machine or an internal
   * network); never cloud metadata. Default: true only when HOST is a loopback address.
   */
  webhookAllowPrivateAddresses: boolean;
  /** Webhook deliveries this node runs at once (each may wait up to 10 s on a slow receiver). */
  webhookConcurrency: number;
  /** Of those, at most this many for one platform and environment (its endpoint). */
  webhookEndpointConcurrency: number;
  /** Failed attempts in a row that open an endpoint's circuit, and how long it stays open first. */
  webhookCircuit: { failures: number; openMs: number };
  /** JSON fee schedule (docs/pricing.md); unset: the default fees. */
  feesFile?: string;
  /** BANKS_FILE: the partner banks PRODUCTION pays through (docs/production.md); unset: none. */
  banksFile?: string;
  /** PRODUCTION_MANUAL_RAIL: payouts no bank carries wait for an operator's `payout settle|fail` instead of being refused. */
  productionManualRail: boolean;
  /** PRODUCTION rates: a JSON document in a file (re-read when it changes) or at a URL (polled). */
  ratesFile?: string;
  ratesUrl?: string;
  /** Authorization header sent to RATES_URL (a rate provider's key); never logged. */
  ratesAuthorization?: string;
  /** Refuse a RATES_URL document that moves any rate by more than this percentage from the last accepted one. */
  ratesMaxChangePercent?: number;
  ratesPollIntervalMs: number;
  /** Quotes are refused (503 RATES_STALE) when the rates document is older than this. */
  ratesMaxAgeMs: number;
  /** Key-encryption key (base64 of 32 bytes) for secrets at rest; see src/secrets/kek.ts. */
  kek?: string;
  /** A file holding the key-encryption key (a mounted secret). */
  kekFile?: string;
  /** Earlier key-encryption keys, only to open values during a rotation. */
  kekPrevious?: string[];
  /** Failed authentications one client address may make per window before it gets 429 (0 turns the limit off). */
  authFailureLimit: number;
  authFailureWindowMs: number;
  /**
   * Whether to believe X-Forwarded-For / X-Forwarded-Proto (behind a load balancer): false, true,
   * a number of proxy hops, or a comma-separated list of proxy addresses/CIDRs.
   */
  trustProxy: boolean | number | string;
  /** Operations (docs/operations.md): retention windows, overload shedding, timeouts, /metrics access. */
  retention: { webhookDays: number; lookupDays: number; batchSize: number; intervalMs: number };
  /** Load shedding limits; 0 turns a limit off. Event-loop utilisation is a fraction (0.98). */
  overload: { maxEventLoopDelayMs: number; maxEventLoopUtilization: number; maxHeapUsedBytes: number; maxRssBytes: number; retryAfterSeconds: number };
  /** HTTP server timeouts: receiving a whole request, an idle socket, an idle keep-alive connection (0: none). */
  timeouts: { requestMs: number; connectionMs: number; keepAliveMs: number };
  /** When set, GET /metrics needs `Authorization: Bearer <this>`. */
  metricsToken?: string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: when set, OpenTelemetry spans are exported there (src/tracing). */
  otlpEndpoint?: string;
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return n;
}

/** TRUST_PROXY: unset/false, true, a hop count, or proxy addresses/CIDRs separated by commas. */
function trustProxy(raw: string | undefined, problems: string[]): boolean | number | string {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,2}$/.test(value)) return Number(value);
  if (/^[0-9A-Fa-f.:/]+(\s*,\s*[0-9A-Fa-f.:/]+)*$/.test(value)) return value;
  problems.push('TRUST_PROXY must be true, false, a number of proxy hops, or comma-separated proxy addresses');
  return false;
}

/** True when HOST binds the loopback interface only (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const host = env.HOST || '127.0.0.1';
  const port = integer(env, 'PORT', 8080, 0, 65535, problems);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const sync = (env.SQLITE_SYNCHRONOUS || 'FULL').toUpperCase();
  if (sync !== 'FULL' && sync !== 'NORMAL') problems.push('SQLITE_SYNCHRONOUS must be FULL or NORMAL');
  const scale = env.SANDBOX_TIME_SCALE ? Number(env.SANDBOX_TIME_SCALE) : 1;
  if (!(scale >= 1 && scale <= 1_000_000)) problems.push('SANDBOX_TIME_SCALE must be a number from 1 to 1000000');
  const id = env.CORRIDOR_BOOTSTRAP_CLIENT_ID || undefined;
  const secret = env.CORRIDOR_BOOTSTRAP_CLIENT_SECRET || undefined;
  if ((id === undefined) !== (secret === undefined)) problems.push('set both CORRIDOR_BOOTSTRAP_CLIENT_ID and CORRIDOR_BOOTSTRAP_CLIENT_SECRET, or neither');
  if (id !== undefined && !/^[A-Za-z0-9_.-]{8,128}$/.test(id)) problems.push('CORRIDOR_BOOTSTRAP_CLIENT_ID must be 8-128 characters of A-Z a-z 0-9 _ . -');
  if (secret !== undefined && secret.length < 24) problems.push('CORRIDOR_BOOTSTRAP_CLIENT_SECRET must be at least 24 characters');
  const adminEmail = (env.CORRIDOR_BOOTSTRAP_ADMIN_EMAIL || 'admin@localhost').trim().toLowerCase();
  if (!/^[^\s@]{1,64}@[^\s@]{1,253}$/.test(adminEmail)) problems.push('CORRIDOR_BOOTSTRAP_ADMIN_EMAIL must be an email address');
  const adminPassword = env.CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && (adminPassword.length < 12 || adminPassword.length > 256))
    problems.push('CORRIDOR_BOOTSTRAP_ADMIN_PASSWORD must be 12 to 256 characters');
  // A server reachable only from its own machine (the laptop case) may call receivers there too;
  // one listening on a network interface is hosted, and must not be made to call inside it.
  const allowPrivate = env.WEBHOOK_ALLOW_PRIVATE_ADDRESSES || String(isLoopbackHost(host));
  if (allowPrivate !== 'true' && allowPrivate !== 'false') problems.push('WEBHOOK_ALLOW_PRIVATE_ADDRESSES must be true or false');
  const ratesFile = env.RATES_FILE || undefined;
  const ratesUrl = env.RATES_URL || undefined;
  if (ratesFile && ratesUrl) problems.push('set RATES_FILE or RATES_URL, not both');
  // Production prices come from RATES_URL: plain http could be rewritten by anyone on the path.
  if (ratesUrl && !/^https:\/\//i.test(ratesUrl)) problems.push('RATES_URL must be an https:// URL');
  const ratesAuthorization = env.RATES_AUTHORIZATION || undefined;
  if (ratesAuthorization !== undefined && (ratesAuthorization.length > 4096 || /[\r\n\0]/.test(ratesAuthorization)))
    problems.push('RATES_AUTHORIZATION must be one line of at most 4096 characters');
  const maxChange = env.RATES_MAX_CHANGE_PERCENT || undefined;
  const ratesMaxChangePercent = maxChange === undefined ? undefined : Number(maxChange);
  if (maxChange !== undefined && (!/^\d{1,4}(\.\d{1,4})?$/.test(maxChange) || !(Number(maxChange) > 0) || Number(maxChange) > 1000)) {
    problems.push(`RATES_MAX_CHANGE_PERCENT must be a number above 0 and at most 1000 (got "${maxChange}")`);
  }
  const kek = env.CORRIDOR_KEK || undefined;
  if (kek !== undefined && !decodeKek(kek)) problems.push('CORRIDOR_KEK must be base64 of 32 bytes (openssl rand -base64 32)');
  const kekFile = env.CORRIDOR_KEK_FILE ? path.resolve(env.CORRIDOR_KEK_FILE) : undefined;
  if (kek && kekFile) problems.push('set CORRIDOR_KEK or CORRIDOR_KEK_FILE, not both');
  const kekPrevious = env.CORRIDOR_KEK_PREVIOUS
    ? env.CORRIDOR_KEK_PREVIOUS.split(',')
        .map((k) => k.trim())
        .filter(Boolean)
    : undefined;
  if (kekPrevious?.some((k) => !decodeKek(k))) problems.push('CORRIDOR_KEK_PREVIOUS must be base64 keys of 32 bytes, separated by commas');
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(metricsToken))
    problems.push('METRICS_TOKEN must be 16 to 256 printable characters without spaces');
  const otlpEndpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined;
  if (otlpEndpoint !== undefined && !/^https?:\/\/[^\s]+$/.test(otlpEndpoint)) problems.push('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL');
  const kycAttestation = env.KYC_ATTESTATION || 'PLATFORM';
  const umaDomainAddresses = parseDomainAddresses(env.UMA_DOMAIN_ADDRESSES, problems);
  const umaAllowlist = env.UMA_COUNTERPARTY_ALLOWLIST
    ? env.UMA_COUNTERPARTY_ALLOWLIST.split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean)
    : undefined;
  if (umaAllowlist?.some((d) => !/^[a-z0-9.-]{1,253}(:[0-9]{1,5})?$/.test(d)))
    problems.push('UMA_COUNTERPARTY_ALLOWLIST must be UMA domains separated by commas');
  if (kycAttestation !== 'PLATFORM' && kycAttestation !== 'OPERATOR') problems.push('KYC_ATTESTATION must be PLATFORM or OPERATOR');
  const config: Config = {
    host,
    port,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    sqliteSynchronous: sync as Config['sqliteSynchronous'],
    pg: {
      poolSize: integer(env, 'PG_POOL_SIZE', 10, 1, 1000, problems),
      statementTimeoutMs: integer(env, 'PG_STATEMENT_TIMEOUT_MS', 15_000, 0, 86_400_000, problems),
      idleInTransactionTimeoutMs: integer(env, 'PG_IDLE_IN_TRANSACTION_TIMEOUT_MS', 10_000, 0, 86_400_000, problems),
      lockTimeoutMs: integer(env, 'PG_LOCK_TIMEOUT_MS', 5_000, 0, 86_400_000, problems),
      queryTimeoutMs: integer(env, 'PG_QUERY_TIMEOUT_MS', 20_000, 0, 86_400_000, problems),
      connectTimeoutMs: integer(env, 'PG_CONNECT_TIMEOUT_MS', 5_000, 0, 3_600_000, problems),
      keepAliveInitialDelayMs: integer(env, 'PG_KEEPALIVE_INITIAL_DELAY_MS', 10_000, 0, 3_600_000, problems),
    },
    jobMaxAttempts: integer(env, 'JOB_MAX_ATTEMPTS', 25, 1, 1_000_000, problems),
    kycAttestation: kycAttestation as Config['kycAttestation'],
    logLevel: env.LOG_LEVEL || 'info',
    sandboxTimeScale: scale,
    bootstrapClientId: id,
    bootstrapClientSecret: secret,
    bootstrapAdminEmail: adminEmail,
    bootstrapAdminPassword: adminPassword,
    dashboardSessionTtlMs: integer(env, 'DASHBOARD_SESSION_HOURS', 12, 1, 720, problems) * 3_600_000,
    dashboardSignInLimitPerAddress: integer(env, 'DASHBOARD_SIGN_IN_LIMIT_PER_ADDRESS', 20, 0, 1_000_000, problems),
    dashboardSignInLimitPerAccount: integer(env, 'DASHBOARD_SIGN_IN_LIMIT_PER_ACCOUNT', 10, 0, 1_000_000, problems),
    dashboardSignInWindowMs: integer(env, 'DASHBOARD_SIGN_IN_WINDOW_SECONDS', 60, 1, 86_400, problems) * 1000,
    dashboardHashConcurrency: integer(env, 'DASHBOARD_HASH_CONCURRENCY', 2, 1, 64, problems),
    authCacheTtlMs: integer(env, 'AUTH_CACHE_TTL_MS', 5000, 0, 60_000, problems),
    configCacheTtlMs: integer(env, 'CONFIG_CACHE_TTL_MS', 1000, 0, 60_000, problems),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024, problems),
    umaBaseDomain: env.UMA_BASE_DOMAIN || 'uma.localhost',
    umaDomainAddresses,
    umaCounterpartyAllowlist: umaAllowlist,
    publicUrl: env.PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    workers: env.WORKERS !== 'false',
    webhookAllowPrivateAddresses: allowPrivate === 'true',
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 128, 1, 1024, problems),
    webhookEndpointConcurrency: integer(env, 'WEBHOOK_ENDPOINT_CONCURRENCY', 64, 1, 1024, problems),
    webhookCircuit: {
      failures: integer(env, 'WEBHOOK_CIRCUIT_FAILURES', 5, 1, 1000, problems),
      openMs: integer(env, 'WEBHOOK_CIRCUIT_OPEN_SECONDS', 30, 1, 3600, problems) * 1000,
    },
    feesFile: env.FEES_FILE ? path.resolve(env.FEES_FILE) : undefined,
    banksFile: env.BANKS_FILE ? path.resolve(env.BANKS_FILE) : undefined,
    productionManualRail: env.PRODUCTION_MANUAL_RAIL === 'true',
    ratesFile: ratesFile ? path.resolve(ratesFile) : undefined,
    ratesUrl,
    ratesAuthorization,
    ratesMaxChangePercent,
    ratesPollIntervalMs: integer(env, 'RATES_POLL_INTERVAL_MS', 60_000, 1000, 86_400_000, problems),
    ratesMaxAgeMs: integer(env, 'RATES_MAX_AGE_MS', 600_000, 1000, 7 * 86_400_000, problems),
    kek,
    kekFile,
    kekPrevious,
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 20, 0, 1_000_000, problems),
    authFailureWindowMs: integer(env, 'AUTH_FAILURE_WINDOW_SECONDS', 60, 1, 86_400, problems) * 1000,
    trustProxy: trustProxy(env.TRUST_PROXY, problems),
    retention: {
      webhookDays: integer(env, 'RETENTION_WEBHOOK_DAYS', 30, 0, 3650, problems),
      lookupDays: integer(env, 'RETENTION_LOOKUP_DAYS', 7, 0, 3650, problems),
      batchSize: integer(env, 'RETENTION_BATCH_SIZE', 500, 1, 10_000, problems),
      intervalMs: integer(env, 'RETENTION_INTERVAL_SECONDS', 600, 1, 86_400, problems) * 1000,
    },
    overload: {
      maxEventLoopDelayMs: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', 1000, 0, 60_000, problems),
      maxEventLoopUtilization: integer(env, 'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION_PERCENT', 0, 0, 100, problems) / 100,
      maxHeapUsedBytes: integer(env, 'OVERLOAD_MAX_HEAP_USED_MB', 0, 0, 1_048_576, problems) * 1024 * 1024,
      maxRssBytes: integer(env, 'OVERLOAD_MAX_RSS_MB', 0, 0, 1_048_576, problems) * 1024 * 1024,
      retryAfterSeconds: integer(env, 'OVERLOAD_RETRY_AFTER_SECONDS', 10, 1, 3600, problems),
    },
    timeouts: {
      requestMs: integer(env, 'REQUEST_TIMEOUT_MS', 60_000, 0, 3_600_000, problems),
      connectionMs: integer(env, 'CONNECTION_TIMEOUT_MS', 120_000, 0, 3_600_000, problems),
      keepAliveMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 3_600_000, problems),
    },
    metricsToken,
    otlpEndpoint,
  };
  // The client's wait for an answer is for a silent network; a slow statement is the server's to end, cleanly.
  const { queryTimeoutMs, statementTimeoutMs, lockTimeoutMs } = config.pg;
  if (queryTimeoutMs > 0 && (statementTimeoutMs === 0 || lockTimeoutMs === 0 || queryTimeoutMs <= Math.max(statementTimeoutMs, lockTimeoutMs)))
    problems.push('PG_QUERY_TIMEOUT_MS must be longer than PG_STATEMENT_TIMEOUT_MS and PG_LOCK_TIMEOUT_MS, which must then be set (or 0 to turn it off)');
  if (problems.length) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}

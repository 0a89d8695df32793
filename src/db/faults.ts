// Which database errors mean "the database cannot be reached or cannot answer now", as opposed to a
// refusal of the request or a bug: the API answers them 503 DATABASE_UNAVAILABLE with Retry-After
// (src/http/errors.ts), and the client retries with its Idempotency-Key (docs/reliability.md).

/** Node's socket errors, and PostgreSQL's SQLSTATEs for a connection lost, a server going away, or a wait cut short. */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // connection_exception and its subclasses
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // admin_shutdown, crash_shutdown, cannot_connect_now (a restart), too_many_connections
  '57P01',
  '57P02',
  '57P03',
  '53300',
  // query_canceled (statement_timeout, a cancel), lock_not_available (lock_timeout), idle_in_transaction_session_timeout
  '57014',
  '55P03',
  '25P03',
  // serialization_failure, deadlock_detected: still failing after tx() ran them again
  '40001',
  '40P01',
]);

/** node-postgres' own errors for a connection that ended, timed out or could not be made. */
const MESSAGES = /Connection terminated|Query read timeout|timeout exceeded when trying to connect|not queryable|Client was closed|Connection ended/i;

/** Whether `error` says the database is unreachable or could not answer in time: worth a retry, not a bug. */
export function databaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === 'string' && CODES.has(code)) || (typeof message === 'string' && MESSAGES.test(message));
}

/**
 * Whether `error` is a write refused for lack of disk space: SQLite's SQLITE_FULL (the database or
 * its log could not grow), ENOSPC from flushing the log, PostgreSQL's disk_full (53100).
 */
export function storageFull(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code } = error as { code?: unknown };
  return code === 'SQLITE_FULL' || code === 'ENOSPC' || code === '53100';
}

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

/** Errors that say the database did not answer at all in time, or refused to be reached. */
const UNREACHED = /Query read timeout|timeout exceeded when trying to connect|connection timeout/i;
const UNREACHED_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** The error of work refused at once because the database was just found unreachable (503 DATABASE_UNAVAILABLE). */
export class DatabaseUnreachable extends Error {
  /** sqlclient_unable_to_establish_sqlconnection */
  readonly code = '08001';
  constructor(cause: unknown) {
    super(`the database could not be reached a moment ago (${(cause as Error)?.message ?? cause}); not tried again yet`);
    this.name = 'DatabaseUnreachable';
  }
}

/**
 * What a process knows of the database's reachability. Once an answer or a connection timed out,
 * or a connection was refused, new work fails at once for `holdMs` instead of waiting as long
 * again: a request meets at most one such wait, whatever number of steps it has (its reads, its
 * transaction and the transaction's retries, the Idempotency-Key's check). After `holdMs` the next
 * work tries again, so the process recovers by itself.
 */
export function reachability(holdMs = 1000) {
  let until = 0;
  let last: unknown;
  return {
    /** Throws DatabaseUnreachable while the last failure to reach the database is recent. */
    check(): void {
      if (Date.now() < until) throw new DatabaseUnreachable(last);
    },
    /** Notes an error: one that says the database was not reached starts the hold. */
    saw(error: unknown): void {
      // Work refused by the hold itself says nothing new of the database: it must not extend it.
      if (typeof error !== 'object' || error === null || error instanceof DatabaseUnreachable) return;
      const { code, message } = error as { code?: unknown; message?: unknown };
      if ((typeof code === 'string' && UNREACHED_CODES.has(code)) || (typeof message === 'string' && UNREACHED.test(message))) {
        until = Date.now() + holdMs;
        last = error;
      }
    },
  };
}

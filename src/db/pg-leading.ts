// Transaction control that travels with the statement after it. A batch's `begin; savepoint member`
// and the `release savepoint member; savepoint member` between members were each a round trip of
// their own, and on one host a round trip costs both processes a wake-up: adding one per payment
// took a fifth off the payment rate. The control is written into the connection's socket but held
// there (corked) until the next statement is written behind it: one write, one wake-up of the
// database, which runs both in order (the client is in pipeline mode, so it sends the statement
// without waiting for the control's answer).
import type pg from 'pg';
import type { DbStats } from './database.js';

/** A transaction's client whose control may lead the next statement. */
export interface LeadingClient {
  /** Queues `text` to be written with the next statement; settle() gives its outcome. */
  lead(text: string): void;
  /** The client's query: a statement sent now carries the control held before it. */
  query: pg.PoolClient['query'];
  /**
   * Sends held control on its own if no statement took it, and waits for it: throws its error.
   * A statement that followed a failed control fails too (the transaction is aborted), so callers
   * settle before they look at a statement's error: the control's error is the one that counts.
   */
  settle(): Promise<void>;
}

export function leadingClient(client: pg.PoolClient, stats: DbStats): LeadingClient {
  const socket = client.connection.stream;
  let held = false;
  let pending: Promise<unknown> | undefined;
  const letGo = () => {
    if (!held) return;
    held = false;
    socket.uncork();
  };
  return {
    lead(text) {
      if (pending) throw new Error('control is already waiting for a statement');
      socket.cork();
      held = true;
      pending = client.query(text);
      pending.catch(() => undefined); // observed by settle()
    },
    query: ((...args: Parameters<pg.PoolClient['query']>) => {
      try {
        return (client.query as (...a: unknown[]) => unknown)(...args);
      } finally {
        letGo();
      }
    }) as pg.PoolClient['query'],
    async settle() {
      const control = pending;
      if (!control) return;
      pending = undefined;
      if (held) {
        // Nothing followed: the control is a round trip of its own.
        stats.statements++;
        letGo();
      }
      await control;
    },
  };
}

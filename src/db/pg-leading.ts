// A transaction's writes, held until an answer is needed. On one host a round trip costs both
// processes a wake-up, far more than the statement itself: adding one per payment took a fifth off
// the payment rate. So what needs no answer yet — transaction control, and writes no caller waits
// for (pg-appends.ts) — is written into the connection's socket but held there (corked), and goes
// out in one write with the next statement whose answer someone awaits, or when the batch lets go
// to hear how its members did. The database runs it all in order (the client is in pipeline mode,
// so it sends each statement without waiting for the answer to the one before).
import type pg from 'pg';
import type { DbStats } from './database.js';

/** A transaction's client whose held writes lead the next awaited statement. */
export interface LeadingClient {
  /** Holds `text` (transaction control) to be written with what follows; its answer is the promise's. */
  lead(text: string): Promise<unknown>;
  /** Holds a statement to be written with what follows (no one waits for its answer yet). */
  send(config: pg.QueryConfig): Promise<pg.QueryResult>;
  /** The client's query: sends it now, with whatever was held before it. */
  query: pg.PoolClient['query'];
  /** Writes what is held, if anything. */
  letGo(): void;
}

export function leadingClient(client: pg.PoolClient, stats: DbStats): LeadingClient {
  const socket = client.connection.stream;
  let held = false;
  const hold = () => {
    if (held) return;
    held = true;
    socket.cork();
  };
  const letGo = () => {
    if (!held) return;
    held = false;
    // One write: one round trip, however many statements it carries.
    stats.statements++;
    socket.uncork();
  };
  const observed = <T>(p: Promise<T>) => {
    p.catch(() => undefined); // awaited by whoever settles the batch
    return p;
  };
  return {
    lead(text) {
      hold();
      return observed(client.query(text));
    },
    send(config) {
      hold();
      return observed(client.query(config));
    },
    query: ((...args: Parameters<pg.PoolClient['query']>) => {
      hold();
      try {
        return (client.query as (...a: unknown[]) => unknown)(...args);
      } finally {
        letGo();
      }
    }) as pg.PoolClient['query'],
    letGo,
  };
}

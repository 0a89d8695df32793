// Reads outside a transaction travel together. The compiled statements asked for in one turn of the
// event loop (a payment's source and destination accounts, the reads of the other requests that
// arrived with it) go out at its end on one pooled client, in one write: the client is in pipeline
// mode, so it sends them without waiting for each answer, and PostgreSQL runs them in order on one
// wake-up. Before, each took a client and a round trip of its own.
import type pg from 'pg';
import type { DbStats } from './database.js';
import type { Statement } from './statements.js';
import { leadingClient } from './pg-leading.js';
import type { reachability } from './faults.js';

/**
 * Whether an error ended its client's connection: the server's FATAL answer (a terminated backend,
 * a shutdown) arrives before the socket closes; once it has, pg marks the client (the flag pg-pool reads too).
 */
export function connectionLost(client: pg.PoolClient, error: unknown): boolean {
  const severity = (error as { severity?: string } | null)?.severity;
  return severity === 'FATAL' || severity === 'PANIC' || (client as unknown as { _queryable?: boolean })._queryable === false;
}

/** Reads in one write at most: bounds how long the last waits behind the others. */
const MAX_READS = 32;
/** A statement that only reads, and so may run again. */
const READ = /^\s*select\b/i;

interface Read {
  s: Statement;
  params: readonly unknown[];
  resolve: (result: pg.QueryResult) => void;
  reject: (e: unknown) => void;
  /** Sent again once already, after its connection ended. */
  again?: boolean;
}

/** `send(s, params)`: the statement's result, its write shared with the reads asked for in the same turn. */
export function readGatherer(pool: pg.Pool, stats: DbStats, reach: ReturnType<typeof reachability>) {
  let gathered: Read[] = [];

  async function write(reads: Read[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      reach.check();
      client = await pool.connect();
    } catch (e) {
      reach.saw(e);
      for (const read of reads) read.reject(e);
      return;
    }
    // Held and written together, counted as one round trip.
    const leading = leadingClient(client, stats);
    const results = reads.map((r) => leading.send({ name: r.s.name, text: r.s.postgres, values: r.params as unknown[] }));
    leading.letGo();
    let failed: Error | undefined;
    await Promise.all(
      results.map((result, i) =>
        result.then(reads[i].resolve, (e: Error) => {
          failed ??= e;
          reach.saw(e);
          // A read changes nothing: one whose connection ended goes again, once, on another.
          if (connectionLost(client, e) && !reads[i].again && READ.test(reads[i].s.postgres)) gather({ ...reads[i], again: true });
          else reads[i].reject(e);
        }),
      ),
    );
    // As pg's own pool.query does: a client that saw an error is not trusted again.
    client.release(failed);
  }

  function go() {
    const reads = gathered;
    gathered = [];
    for (let i = 0; i < reads.length; i += MAX_READS) void write(reads.slice(i, i + MAX_READS));
  }

  function gather(read: Read) {
    if (gathered.length === 0) setImmediate(go);
    gathered.push(read);
  }

  return {
    send(s: Statement, params: readonly unknown[]): Promise<pg.QueryResult> {
      return new Promise((resolve, reject) => gather({ s, params, resolve, reject }));
    },
  };
}

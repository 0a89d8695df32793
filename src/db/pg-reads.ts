// Reads outside a transaction travel together. The compiled statements asked for in one turn of the
// event loop (a payment's source and destination accounts, the reads of the other requests that
// arrived with it) go out at its end on one pooled client, in one write: the client is in pipeline
// mode, so it sends them without waiting for each answer, and PostgreSQL runs them in order on one
// wake-up. Before, each took a client and a round trip of its own.
import type pg from 'pg';
import type { DbStats } from './database.js';
import type { Statement } from './statements.js';

/** Reads in one write at most: bounds how long the last waits behind the others. */
const MAX_READS = 32;

interface Read {
  s: Statement;
  params: readonly unknown[];
  resolve: (result: pg.QueryResult) => void;
  reject: (e: unknown) => void;
}

/** `send(s, params)`: the statement's result, its write shared with the reads asked for in the same turn. */
export function readGatherer(pool: pg.Pool, stats: DbStats) {
  let gathered: Read[] = [];

  async function write(reads: Read[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (e) {
      for (const read of reads) read.reject(e);
      return;
    }
    stats.statements++;
    const socket = client.connection.stream;
    socket.cork();
    const results = reads.map((r) => client.query({ name: r.s.name, text: r.s.postgres, values: r.params as unknown[] }));
    socket.uncork();
    let failed: Error | undefined;
    await Promise.all(
      results.map((result, i) =>
        result.then(reads[i].resolve, (e: Error) => {
          failed ??= e;
          reads[i].reject(e);
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

  return {
    send(s: Statement, params: readonly unknown[]): Promise<pg.QueryResult> {
      return new Promise((resolve, reject) => {
        if (gathered.length === 0) setImmediate(go);
        gathered.push({ s, params, resolve, reject });
      });
    },
  };
}

/**
 * A database transaction that does some work and then stays open, its locks held and its writes
 * not yet committed, until the test releases it: for tests of what a request running meanwhile
 * sees and does.
 */
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.js';

export interface HeldTransaction {
  /**
   * Resolves once `request` waits for this transaction's locks (PostgreSQL) or has settled without
   * waiting. SQLite writes one transaction at a time: a write request cannot run yet, so at once.
   */
  blocking(request: Promise<unknown>): Promise<void>;
  /** Commits the transaction (what `work` did becomes visible) and resolves when it has. */
  release(): Promise<void>;
}

export async function holdTransaction(db: Database, work: () => Promise<unknown>): Promise<HeldTransaction> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let worked!: (pid: number | null) => void;
  const holding = new Promise<number | null>((resolve) => (worked = resolve));
  const done = db.tx(async (trx) => {
    const pid = db.dialect === 'postgres' ? Number((await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid) : null;
    await work();
    worked(pid);
    await gate;
  });
  // A `work` that throws ends the transaction before it is held: that error, not a wait forever.
  const pid = await Promise.race([holding, done.then(() => null)]);

  async function blocked(): Promise<boolean> {
    const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`.execute(db.admin);
    return waiting.rows[0]!.n > 0;
  }

  return {
    async blocking(request) {
      if (pid === null) return;
      let settled = false;
      void request.then(
        () => (settled = true),
        () => (settled = true),
      );
      while (!settled && !(await blocked())) await new Promise((resolve) => setTimeout(resolve, 10));
    },
    async release() {
      open();
      await done;
    },
  };
}

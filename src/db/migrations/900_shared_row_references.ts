import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * No declared foreign key to a row every write of a platform shares (docs/ledger.md, "No hot
 * rows"), on PostgreSQL: the platform's own row, and the ledger accounts a transfer or a delta
 * names (a platform's system accounts are in every payment). PostgreSQL checks such a key by
 * locking the parent row FOR KEY SHARE for each inserted row: a lock-only write of the parent's
 * tuple on every insert, a shared lock (a MultiXact) once two transactions hold it at the same
 * time, and a wait behind anything that locks the parent for update. Without them PostgreSQL spends
 * a tenth less CPU per payment (docs/decisions.md, "Foreign keys to shared rows").
 *
 * What the keys promised still holds: a platform id comes from the credentials that authenticated
 * the request and a platform is never deleted; `ledger verify` reports a transfer or a delta whose
 * account is missing. SQLite locks no rows, so it keeps the keys, and the test suite's run on it
 * keeps checking every reference the code writes.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  const shared = await sql<{ child: string; name: string }>`
    select c.conrelid::regclass::text as child, c.conname as name
    from pg_constraint c
    where c.contype = 'f' and c.connamespace = current_schema()::regnamespace
      and (c.confrelid = 'platforms'::regclass
        or (c.confrelid = 'ledger_accounts'::regclass and c.conrelid in ('ledger_transfers'::regclass, 'ledger_deltas'::regclass)))
    order by 1, 2`.execute(db);
  for (const key of shared.rows) await sql`alter table ${sql.id(key.child)} drop constraint ${sql.id(key.name)}`.execute(db);
}

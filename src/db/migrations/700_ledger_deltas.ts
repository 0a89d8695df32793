import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Movements of system accounts not yet folded into their running totals (docs/ledger.md): a
 * payment inserts a row here instead of updating the account row every payment of the platform
 * would wait on; the fold (src/ledger/fold.ts) adds them up in batches. An account's totals are
 * its row plus its rows here.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('ledger_deltas')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('debits_pending', 'bigint', (c) => c.notNull())
    .addColumn('debits_posted', 'bigint', (c) => c.notNull())
    .addColumn('credits_pending', 'bigint', (c) => c.notNull())
    .addColumn('credits_posted', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_deltas_account').on('ledger_deltas').columns(['account_id']).execute();
}

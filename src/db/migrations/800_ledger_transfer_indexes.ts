import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Fewer index entries per transfer (three per payment on the instant rail). Nothing reads transfers
 * by debit or credit account (`ledger verify` aggregates the whole table, and an account's totals
 * are its row and its deltas), so those two indexes go. The index that lets a pending transfer
 * resolve once only holds resolutions: a posted or pending transfer has no `pending_id`, and the
 * look-ups by `pending_id` name one, so the partial index serves them too.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('ledger_transfers_debit').execute();
  await db.schema.dropIndex('ledger_transfers_credit').execute();
  await db.schema.dropIndex('ledger_transfers_resolution').execute();
  await db.schema.createIndex('ledger_transfers_resolution').unique().on('ledger_transfers').column('pending_id').where('pending_id', 'is not', null).execute();
}

import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * PRODUCTION bank rails (src/rails/bank): what goes to a partner bank and what comes back.
 *
 * bank_payouts: one row per payment carried by a bank file, from its reservation (QUEUED) to its
 * outcome; `reference` is the short id the bank carries back (NACHA individual id, ISO EndToEndId).
 * bank_files: every file built for a bank, its bytes kept (the archive: a backup of the database
 * holds it), its hash, and where it stands (BUILT → UPLOADED → ACCEPTED | REJECTED, or CANCELLED).
 * bank_inbound_files: every file read from a bank's inbound folder, once per name and content;
 * a content is applied once (a copy under another name is kept as DUPLICATE).
 * bank_statement_entries: every booked entry a bank reported (camt.053/054), once per bank reference,
 * with what it was matched to. bank_balances: the closing balances the bank's statements gave.
 * bank_exceptions: breaks an operator must decide (unmatched credits, balance differences, files
 * refused, payouts the bank never reported), with their age.
 * transactions.failure_detail: the bank's code of a rejection or return (JSON), shown as failureDetail.
 * No foreign key to platforms (see migration 900); a bank's rows span every platform.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';
  await db.schema
    .createTable('bank_payouts')
    .addColumn('transaction_id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull().unique())
    .addColumn('counterparty', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text')
    .addColumn('trace_number', 'text')
    .addColumn('reason_code', 'text')
    .addColumn('queued_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_payouts_queue').on('bank_payouts').columns(['bank_id', 'format', 'status', 'queued_at']).execute();
  await db.schema.createIndex('bank_payouts_file').on('bank_payouts').columns(['file_id']).execute();

  await db.schema
    .createTable('bank_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('format', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('window_at', 'text', (c) => c.notNull())
    .addColumn('effective_date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('entry_count', 'integer', (c) => c.notNull())
    .addColumn('total_amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('built_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .addColumn('acknowledged_at', 'text')
    .addUniqueConstraint('bank_files_name', ['bank_id', 'name'])
    .execute();

  await db.schema
    .createTable('bank_inbound_files')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('kind', 'text')
    .addColumn('content', blob, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('problem', 'text')
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_inbound_files_name', ['bank_id', 'name', 'sha256'])
    .execute();
  // A content is applied once, whatever it is called: its copies are kept as DUPLICATE.
  await sql`create unique index bank_inbound_files_applied on bank_inbound_files (bank_id, sha256) where status <> 'DUPLICATE'`.execute(db);

  await db.schema
    .createTable('bank_statement_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('bank_reference', 'text', (c) => c.notNull())
    .addColumn('inbound_file_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('booking_date', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('matched_kind', 'text')
    .addColumn('matched_id', 'text')
    .addColumn('platform_id', 'text')
    .addColumn('environment', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_statement_entries_ref', ['bank_id', 'bank_reference'])
    .execute();

  await db.schema
    .createTable('bank_balances')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('statement_id', 'text', (c) => c.notNull())
    .addColumn('balance_date', 'text', (c) => c.notNull())
    .addColumn('bank_amount', 'bigint', (c) => c.notNull())
    .addColumn('ledger_amount', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('bank_balances_statement', ['bank_id', 'statement_id'])
    .execute();

  await db.schema
    .createTable('bank_exceptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('bank_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('currency', 'text')
    .addColumn('amount', 'bigint')
    .addColumn('reference', 'text')
    .addColumn('subject_id', 'text')
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution', 'text')
    .execute();
  // A bank's own code for a failure (R03, AC04…), kept beside the spec's failureReason.
  await db.schema.alterTable('transactions').addColumn('failure_detail', 'text').execute();
  await db.schema.createIndex('bank_exceptions_open').on('bank_exceptions').columns(['status', 'created_at']).execute();
}

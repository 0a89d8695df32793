import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * bank_credentials: the SFTP client key of each partner bank (src/rails/bank/credentials.ts),
 * imported by the operator (`npx corridor bank key import`) so that it lives sealed under the KEK
 * in the database, like webhook and UMA keys, instead of in a file beside BANKS_FILE. One key per
 * bank: an import replaces the previous one. The fingerprint of the public half is kept in the clear
 * to show which key a bank must have, without opening the private one.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('bank_credentials')
    .addColumn('bank_id', 'text', (c) => c.primaryKey())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('public_key_sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

import { Migrator, sql, type Kysely, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/** Brings the schema up to date. Safe to run from several processes at once (Kysely locks). */
export async function migrate(database: Database): Promise<string[]> {
  const dialect = database.dialect;
  const provider: MigrationProvider = {
    async getMigrations() {
      return Object.fromEntries(Object.entries(migrations).map(([name, m]) => [name, { up: (db: Kysely<any>) => m.up(db, dialect) }]));
    },
  };
  const db = database.admin as Kysely<any>;
  // Kysely looks for its own tables in any schema unless told which one; name the schema this
  // connection works in, so two deployments (or test runs) in one PostgreSQL database never mix.
  const migrationTableSchema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0].s : undefined;
  const migrator = new Migrator({ db, provider, migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

/**
 * Brings the schema up to date: the migrations not yet recorded in `kysely_migration` (the table
 * earlier versions kept through Kysely's migrator, same columns) run in name order, all in one
 * transaction with their records. Several processes may start at once: on PostgreSQL they take
 * turns on an advisory lock of the current schema, on SQLite the write lock serialises them. Only
 * the current schema is read, never the catalogue of every schema: a PostgreSQL database shared
 * by many deployments or test runs (created and dropped meanwhile) neither slows nor breaks a start.
 */
export async function migrate(database: Database): Promise<string[]> {
  const dialect = database.dialect;
  const admin = database.admin as Kysely<any>;
  if (await upToDate(admin, dialect)) return [];
  return admin.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(current_schema()))`.execute(trx);
    await sql`create table if not exists kysely_migration (name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(trx);
    const done = await recorded(trx);
    const ran: string[] = [];
    for (const name of Object.keys(migrations).sort()) {
      if (done.has(name)) continue;
      await migrations[name].up(trx, dialect);
      await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(trx);
      ran.push(name);
    }
    return ran;
  });
}

async function recorded(db: Kysely<any>): Promise<Set<string>> {
  return new Set((await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name));
}

/** Every start of an existing database: all migrations recorded, known with two small reads. */
async function upToDate(db: Kysely<any>, dialect: Database['dialect']): Promise<boolean> {
  const exists =
    dialect === 'postgres'
      ? (await sql<{ t: string | null }>`select to_regclass('kysely_migration')::text as t`.execute(db)).rows[0].t !== null
      : Number(
          (await sql<{ n: number | bigint }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db)).rows[0].n,
        ) > 0;
  if (!exists) return false;
  const done = await recorded(db);
  return Object.keys(migrations).every((name) => done.has(name));
}

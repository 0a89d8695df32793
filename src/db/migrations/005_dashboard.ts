import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

// Dashboard users (people who sign in to /dashboard) and their sessions.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('dashboard_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('failed_attempts', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('last_sign_in_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The email alone identifies a person at sign-in, so it is unique across the service (like a
  // token's client id), not per platform.
  await db.schema.createIndex('dashboard_users_email').unique().on('dashboard_users').column('email').execute();
  await db.schema.createIndex('dashboard_users_platform').on('dashboard_users').columns(['platform_id', 'id']).execute();

  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('platform_id', 'text', (c) => c.notNull().references('platforms.id'))
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('dashboard_users.id'))
    // hex SHA-256 of the cookie's random token; the token itself is never stored
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('dashboard_sessions_token').unique().on('dashboard_sessions').column('token_hash').execute();
  await db.schema.createIndex('dashboard_sessions_user').on('dashboard_sessions').columns(['user_id', 'id']).execute();
}

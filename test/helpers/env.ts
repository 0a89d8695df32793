/** Which database the storage tests run on (set per vitest project), and where PostgreSQL is. */
export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const dialect = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';

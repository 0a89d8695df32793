import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';
import * as m001 from './001_foundation.js';

/** Every migration in order. Names sort; a migration never changes once released. */
export const migrations: Record<string, { up(db: Kysely<any>, dialect: Dialect): Promise<void> }> = {
  '001_foundation': m001,
};

import { sql } from 'kysely';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { Database } from '../db/database.js';
import type { AuditLogTable } from '../db/schema.js';
import { toNumber } from '../db/values.js';

/** OPERATOR: a CLI command; USER: a dashboard user; TOKEN: a platform's API credential (its client id). */
export type ActorType = 'OPERATOR' | 'USER' | 'TOKEN';
export type Outcome = 'SUCCEEDED' | 'FAILED';

export interface AuditEntry {
  actorType: ActorType;
  actor: string;
  action: string;
  target?: string | null;
  source?: string | null;
  platformId?: string | null;
  environment?: string | null;
  outcome: Outcome;
  statusCode?: number | null;
  details?: Record<string, unknown> | null;
}

export interface AuditRecord {
  id: string;
  createdAt: string;
  actorType: ActorType;
  actor: string;
  action: string;
  target: string | null;
  source: string | null;
  platformId: string | null;
  environment: string | null;
  outcome: Outcome;
  statusCode: number | null;
  details: Record<string, unknown> | null;
}

export interface AuditFilter {
  platformId?: string;
  actor?: string;
  /** matches actions starting with this text (`token` finds `token create` and `token revoke`) */
  action?: string;
  since?: string;
  until?: string;
  /** the id of the last entry of the previous page: entries older than it */
  before?: string;
  limit: number;
}

const MAX_TEXT = 500;
const clip = (v: string | null | undefined) => (v == null ? null : v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT)}…` : v);

function view(row: AuditLogTable): AuditRecord {
  return {
    id: row.id,
    createdAt: row.created_at,
    actorType: row.actor_type as ActorType,
    actor: row.actor,
    action: row.action,
    target: row.target,
    source: row.source,
    platformId: row.platform_id,
    environment: row.environment,
    outcome: row.outcome as Outcome,
    statusCode: row.status_code == null ? null : toNumber(row.status_code),
    details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
  };
}

/**
 * The audit log: rows are only ever added (and listed), never changed. `clock` is real time,
 * never a platform's sandbox clock: an entry's time is a fact about the operator's world.
 */
export function createAuditLog(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  return {
    async record(entry: AuditEntry): Promise<AuditRecord> {
      const row: AuditLogTable = {
        id: newId('Audit'),
        created_at: clock.now().toISOString(),
        actor_type: entry.actorType,
        actor: clip(entry.actor) ?? '',
        action: clip(entry.action) ?? '',
        target: clip(entry.target),
        source: clip(entry.source),
        platform_id: entry.platformId ?? null,
        environment: entry.environment ?? null,
        outcome: entry.outcome,
        status_code: entry.statusCode ?? null,
        details: entry.details ? JSON.stringify(entry.details).slice(0, 4000) : null,
      };
      await db.tx((trx) => trx.insertInto('audit_log').values(row).execute());
      return view(row);
    },

    /** Newest first. */
    async list(filter: AuditFilter): Promise<AuditRecord[]> {
      let q = db.executor().selectFrom('audit_log').selectAll();
      if (filter.platformId !== undefined) q = q.where('platform_id', '=', filter.platformId);
      if (filter.actor !== undefined) q = q.where('actor', '=', filter.actor);
      if (filter.action !== undefined) q = q.where(sql<string>`substr(action, 1, ${filter.action.length})`, '=', filter.action);
      if (filter.since !== undefined) q = q.where('created_at', '>=', filter.since);
      if (filter.until !== undefined) q = q.where('created_at', '<=', filter.until);
      if (filter.before !== undefined) q = q.where('id', '<', filter.before);
      const rows = await q.orderBy('id', 'desc').limit(filter.limit).execute();
      return rows.map(view);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;

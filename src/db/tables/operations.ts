/** Row types: the audit log (conventions in db/schema.ts). */
export interface AuditLogTable {
  /** Audit:<uuid v7>, so newest first walks the key */
  id: string;
  created_at: string;
  /** OPERATOR (a CLI command) | USER (a dashboard user) */
  actor_type: string;
  /** `<os user>@<host>` for the CLI; the user's email for the dashboard */
  actor: string;
  /** a CLI command (`token revoke`) or a route (`POST /2025-10-13/customers`) */
  action: string;
  target: string | null;
  /** the client address, or `cli@<host>` */
  source: string | null;
  platform_id: string | null;
  environment: string | null;
  /** SUCCEEDED | FAILED */
  outcome: string;
  status_code: number | bigint | null;
  /** JSON: the command's options (secrets removed), the user id, a failure message */
  details: string | null;
}

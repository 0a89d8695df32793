/** Row types: dashboard users and sessions (conventions in db/schema.ts). */
/** A person who signs in to the dashboard; belongs to one platform, works in either environment. */
export interface DashboardUsersTable {
  id: string;
  platform_id: string;
  /** lower case; unique across the service (it alone identifies the person at sign-in) */
  email: string;
  /** argon2id PHC string */
  password_hash: string;
  /** ADMIN | DEVELOPER | VIEWER */
  role: string;
  /** wrong passwords since the last successful sign-in */
  failed_attempts: number | bigint;
  /** no sign-in is tried before this time (backoff after repeated wrong passwords) */
  locked_until: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  /** set by an operator (`npx corridor user disable`): no sign-in, no session (migration 101) */
  disabled_at?: string | null;
}

/** A signed-in dashboard session; the cookie carries a random token, only its hash is kept. */
export interface DashboardSessionsTable {
  id: string;
  platform_id: string;
  /** the environment the dashboard currently shows: SANDBOX | PRODUCTION */
  environment: string;
  user_id: string;
  /** hex SHA-256 of the session token */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../common/scope.js';
import type { DashboardService, SignedIn } from './service.js';
import { dashboardErrors } from './errors.js';

export const SESSION_COOKIE = 'corridor_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session cookie's value. Cookies are parsed here, on demand: an API request carries none, so no hook parses them for every request. */
export function sessionToken(req: FastifyRequest): string | undefined {
  const header = req.headers.cookie;
  const value = header ? req.server.parseCookie(header)[SESSION_COOKIE] : undefined;
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function publicOrigin(publicUrl: string): string | undefined {
  try {
    return new URL(publicUrl).origin;
  } catch {
    return undefined;
  }
}

/** Whether the request's Origin is this server: the configured PUBLIC_URL or the Host it was sent to. */
export function sameOrigin(req: FastifyRequest, publicUrl: string): boolean {
  const origin = req.headers.origin;
  if (typeof origin !== 'string') return false;
  return origin === publicOrigin(publicUrl) || origin === `${req.protocol}://${req.host}`;
}

/** A write made with the session cookie must carry the session's X-CSRF-Token and a same-origin Origin. */
export function requireCsrf(dashboard: DashboardService, req: FastifyRequest, token: string, publicUrl: string): void {
  const header = req.headers['x-csrf-token'];
  const presented = typeof header === 'string' ? header : undefined;
  if (!sameOrigin(req, publicUrl) || !dashboard.csrfMatches(token, presented)) throw dashboardErrors.CSRF_TOKEN_INVALID();
}

/**
 * API authentication for requests without an Authorization header: the dashboard's session
 * cookie acts as (its platform, its current environment, its user's role permissions).
 * Undefined when there is no live session; a write without CSRF proof throws 403.
 */
export async function authenticateSession(dashboard: DashboardService, req: FastifyRequest, publicUrl: string): Promise<AuthContext | undefined> {
  const token = sessionToken(req);
  if (!token) return undefined;
  const found: SignedIn | undefined = await dashboard.session(token);
  if (!found) return undefined;
  if (!SAFE_METHODS.has(req.method)) requireCsrf(dashboard, req, token, publicUrl);
  return dashboard.authContext(found);
}

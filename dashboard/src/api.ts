/** The dashboard talks to the same API as every integrator, authenticated by its session cookie. */
export const API = '/2025-10-13';
export const SESSION_API = '/dashboard/api/session';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

let csrfToken = '';
let onSignedOut: () => void = () => undefined;

export function setCsrfToken(token: string) {
  csrfToken = token;
}

/** Called when the API answers 401: the session ended (signed out elsewhere, expired). */
export function whenSignedOut(fn: () => void) {
  onSignedOut = fn;
}

/** A random Idempotency-Key (crypto.getRandomValues works on plain http too, unlike randomUUID). */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `dash-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function queryString(query?: Query): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : '';
}

export async function request<T>(method: string, path: string, opts: { body?: unknown; query?: Query; idempotencyKey?: string } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  if (method === 'POST' && path.startsWith('/') && !path.startsWith('/dashboard/')) headers['idempotency-key'] = opts.idempotencyKey ?? newIdempotencyKey();
  const url = `${path.startsWith('/dashboard/') ? '' : API}${path}${queryString(opts.query)}`;
  let res: Response;
  try {
    res = await fetch(url, { method, headers, credentials: 'same-origin', body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  } catch {
    throw new ApiError(0, 'NETWORK_ERROR', 'The server could not be reached. Check your connection and try again.');
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const err = new ApiError(res.status, body?.code ?? 'HTTP_ERROR', body?.message ?? `The server answered ${res.status}`, body?.details);
    if (res.status === 401 && !path.startsWith(SESSION_API)) onSignedOut();
    throw err;
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  del: <T>(path: string) => request<T>('DELETE', path),
};

/** The route does not exist on this server (a feature of a later version): not an error of the user's. */
export function isNotAvailable(e: unknown): boolean {
  return e instanceof ApiError && e.status === 404 && e.code === 'ROUTE_NOT_FOUND';
}

/** A readable sentence for an error, with the fields of INVALID_INPUT. */
export function describeError(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const fields = e.details?.fields as Array<{ field: string; message: string }> | undefined;
  if (fields?.length) return fields.map((f) => `${f.field} ${f.message}`).join('; ');
  return e.message;
}

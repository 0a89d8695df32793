import { createHmac, timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import { invalidInput } from './errors.js';

/**
 * Cursor pagination (D6): newest first by id (uuid v7 is time-ordered), an opaque cursor that
 * names the last id seen, signed so a cursor we never issued — or one issued for other filters —
 * is refused instead of silently returning a wrong page.
 */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  nextCursor?: string;
  totalCount: number;
}

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size, 1 to 100' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'nextCursor of the previous page' })),
};

export function PageSchema<T extends object>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    hasMore: Type.Boolean(),
    nextCursor: Type.Optional(Type.String()),
    totalCount: Type.Integer(),
  });
}

const MAX_REMEMBERED_SCOPE = 256;

export class Cursors {
  /**
   * Signatures of recent scopes: a list and its filters repeat page after page, and each HMAC was 2%
   * of a list request's CPU. Only short scopes are kept (filters come from the query string), so the
   * memory stays small whatever clients send.
   */
  private readonly scopes = new Map<string, string>();

  constructor(private readonly secret: string) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url').slice(0, 22);
  }

  private signScope(scope: string): string {
    let signature = this.scopes.get(scope);
    if (signature === undefined) {
      signature = this.sign(scope);
      if (scope.length > MAX_REMEMBERED_SCOPE) return signature;
      if (this.scopes.size >= 1000) this.scopes.delete(this.scopes.keys().next().value as string);
      this.scopes.set(scope, signature);
    }
    return signature;
  }

  encode(lastId: string, scope: string): string {
    const payload = Buffer.from(JSON.stringify({ id: lastId, s: this.signScope(scope) })).toString('base64url');
    return `${payload}.${this.sign(payload)}`;
  }

  /** The last id the cursor names; 400 if the cursor is forged, mangled or from other filters. */
  decode(cursor: string, scope: string): string {
    const bad = () => invalidInput([{ field: 'cursor', in: 'query', message: 'is not a cursor issued for this list and these filters' }]);
    const [payload, mac] = cursor.split('.');
    if (!payload || !mac) throw bad();
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw bad();
    let parsed: { id?: unknown; s?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    if (typeof parsed.id !== 'string' || parsed.s !== this.signScope(scope)) throw bad();
    return parsed.id;
  }
}

/**
 * Runs one page of a list. `fetch(afterId, n)` returns up to n rows with id < afterId (or the
 * newest when afterId is undefined), newest first; `count()` counts all rows under the filters.
 * `scope` identifies the list and its filters so a cursor only works where it was issued.
 */
export async function paginate<Row extends { id: string }, Out>(opts: {
  cursors: Cursors;
  request: PageRequest;
  scope: string;
  fetch: (afterId: string | undefined, n: number) => Promise<Row[]>;
  count: () => Promise<number>;
  view: (row: Row) => Out;
}): Promise<Page<Out>> {
  const limit = opts.request.limit ?? 20;
  const afterId = opts.request.cursor ? opts.cursors.decode(opts.request.cursor, opts.scope) : undefined;
  const [rows, totalCount] = await Promise.all([opts.fetch(afterId, limit + 1), opts.count()]);
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const page: Page<Out> = { data: pageRows.map(opts.view), hasMore, totalCount };
  if (hasMore) page.nextCursor = opts.cursors.encode(pageRows[pageRows.length - 1].id, opts.scope);
  return page;
}

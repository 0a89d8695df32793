import type { Executor } from '../../db/database.js';
import type { DocumentsTable } from '../../db/schema.js';
import type { Scope } from '../../common/scope.js';

export type DocumentRow = DocumentsTable;
export type DocumentMeta = Omit<DocumentRow, 'content'>;

/** Every column but the bytes: lists and metadata reads never load file contents. */
export const META_COLUMNS = [
  'id',
  'platform_id',
  'environment',
  'document_holder',
  'customer_id',
  'document_type',
  'country',
  'side',
  'document_number',
  'file_name',
  'content_type',
  'size_bytes',
  'sha256',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof DocumentMeta>;

export interface DocumentFilters {
  documentHolder?: string;
}

export const documentRepository = {
  insert(db: Executor, row: DocumentRow) {
    return db.insertInto('documents').values(row).execute();
  },

  scoped(db: Executor, scope: Scope) {
    return db.selectFrom('documents').where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment);
  },

  findMeta(db: Executor, scope: Scope, id: string): Promise<DocumentMeta | undefined> {
    return this.scoped(db, scope).select(META_COLUMNS).where('id', '=', id).executeTakeFirst();
  },

  findContent(db: Executor, scope: Scope, id: string) {
    return this.scoped(db, scope).select(['file_name', 'content_type', 'sha256', 'content']).where('id', '=', id).executeTakeFirst();
  },

  filtered(db: Executor, scope: Scope, f: DocumentFilters) {
    let q = this.scoped(db, scope);
    if (f.documentHolder) q = q.where('document_holder', '=', f.documentHolder);
    return q;
  },

  remove(db: Executor, scope: Scope, id: string) {
    return db.deleteFrom('documents').where('id', '=', id).where('platform_id', '=', scope.platformId).where('environment', '=', scope.environment).execute();
  },
};

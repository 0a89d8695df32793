import { absent } from '../../common/absent.js';
import { toNumber } from '../../db/values.js';
import type { DocumentMeta } from './repository.js';
import type { DocumentType } from './schemas.js';

/** Document row (without its bytes) → API Document. */
export function documentView(row: DocumentMeta) {
  return absent({
    id: row.id,
    documentHolder: row.document_holder,
    documentType: row.document_type as DocumentType,
    country: row.country,
    fileName: row.file_name,
    side: row.side as 'FRONT' | 'BACK' | null,
    documentNumber: row.document_number,
    contentType: row.content_type,
    sizeBytes: toNumber(row.size_bytes),
    sha256: row.sha256,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

export type Document = ReturnType<typeof documentView>;

import type { Clock } from '../../common/clock.js';
import { commonErrors, invalidField } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { paginate, type Cursors, type PageRequest } from '../../common/pagination.js';
import type { Scope } from '../../common/scope.js';
import type { Database, Executor } from '../../db/database.js';
import { toNumber } from '../../db/values.js';
import type { OwnerService } from '../beneficial-owners/service.js';
import { customerErrors } from '../customers/errors.js';
import { customerRepository, type CustomerRow } from '../customers/repository.js';
import type { CustomerService } from '../customers/service.js';
import { detectKind, MAX_FILE_BYTES, safeFileName, type FileKind } from './content.js';
import { documentErrors } from './errors.js';
import { documentRepository, META_COLUMNS, type DocumentFilters, type DocumentRow } from './repository.js';
import { COMPANY_DOCUMENT_TYPES, TWO_SIDED_TYPES, type DocumentUpload } from './schemas.js';
import type { UploadedFile } from './upload.js';
import type { Sealer } from '../../secrets/envelope.js';
import { documentView } from './view.js';

/** Documents one holder can keep: enough for every side of every kind, bounded storage. */
export const MAX_DOCUMENTS_PER_HOLDER = 100;

export interface DocumentServiceDeps {
  db: Database;
  clock: Clock;
  cursors: Cursors;
  customers: CustomerService;
  beneficialOwners: OwnerService;
  /** Seals file bytes at rest with the key-encryption key. */
  secrets: Sealer;
}

/** What a document's stored bytes are sealed to: its own row (src/secrets/envelope.ts). */
export const documentContext = (id: string) => `documents|${id}`;

export function createDocumentService(deps: DocumentServiceDeps) {
  const { db, clock, customers, beneficialOwners } = deps;

  /**
   * The customer a holder is or belongs to; 404 when the holder is not in the caller's scope.
   * Writes need a live customer (410 once deleted); reads keep working, documents being the record.
   */
  async function holderCustomer(ex: Executor, scope: Scope, holder: string, forWrite: boolean): Promise<{ customer: CustomerRow; isOwner: boolean }> {
    const isOwner = holder.startsWith('BeneficialOwner:');
    const customerId = isOwner ? (await beneficialOwners.find(ex, scope, holder)).customer_id : holder;
    if (forWrite) {
      // Uploads for one customer take turns on PostgreSQL, so the per-holder cap holds under concurrency.
      await db.lockRow('customers', { id: customerId, platform_id: scope.platformId, environment: scope.environment });
      return { customer: await customers.getLive(scope, customerId), isOwner };
    }
    const customer = await customerRepository.find(db, scope, customerId);
    if (!customer) throw customerErrors.CUSTOMER_NOT_FOUND({ customerId });
    return { customer, isOwner };
  }

  /** Checks of the file and of the form that need no database, so a bad upload costs nothing. */
  function checkUpload(form: DocumentUpload, file: UploadedFile | undefined): { kind: FileKind; file: UploadedFile } {
    if (!file) throw invalidField('file', 'is required: a file part named "file"');
    if (file.bytes.length === 0) throw invalidField('file', 'is empty');
    if (file.bytes.length > MAX_FILE_BYTES) throw commonErrors.PAYLOAD_TOO_LARGE({ field: 'file', maxFileBytes: MAX_FILE_BYTES });
    const kind = detectKind(file.bytes);
    if (!kind) throw invalidField('file', 'must be a PDF, JPEG or PNG file; its content is none of these (the name and declared type are not used)');
    const twoSided = TWO_SIDED_TYPES.includes(form.documentType);
    if (twoSided && !form.side) throw invalidField('side', `is required for ${form.documentType}: FRONT or BACK`);
    if (!twoSided && form.side === 'BACK') throw invalidField('side', `must be FRONT or omitted for ${form.documentType}, which has one side`);
    return { kind, file };
  }

  return {
    async upload(scope: Scope, form: DocumentUpload, upload: UploadedFile | undefined) {
      const { kind, file } = checkUpload(form, upload);
      return db.tx(async (trx) => {
        const { customer, isOwner } = await holderCustomer(trx, scope, form.documentHolder, true);
        if ((COMPANY_DOCUMENT_TYPES as readonly string[]).includes(form.documentType) && (isOwner || customer.customer_type !== 'BUSINESS')) {
          throw invalidField('documentType', `${form.documentType} is a company document; its holder must be a BUSINESS customer`);
        }
        const held = await documentRepository
          .filtered(trx, scope, { documentHolder: form.documentHolder })
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        if (toNumber(held.n as bigint) >= MAX_DOCUMENTS_PER_HOLDER)
          throw documentErrors.DOCUMENT_LIMIT_REACHED({ documentHolder: form.documentHolder, limit: MAX_DOCUMENTS_PER_HOLDER });
        const now = clock.now().toISOString();
        const id = newId('Document');
        const row: DocumentRow = {
          id,
          platform_id: scope.platformId,
          environment: scope.environment,
          document_holder: form.documentHolder,
          customer_id: customer.id,
          document_type: form.documentType,
          country: form.country,
          side: form.side ?? null,
          document_number: form.documentNumber ?? null,
          file_name: safeFileName(file.fileName, kind),
          content_type: kind.contentType,
          size_bytes: file.bytes.length,
          sha256: file.sha256,
          content: deps.secrets.sealBytes(file.bytes, documentContext(id)),
          created_at: now,
          updated_at: now,
        };
        await documentRepository.insert(trx, row);
        const { content: _bytes, ...meta } = row;
        return documentView(meta);
      });
    },

    async get(scope: Scope, id: string) {
      const row = await documentRepository.findMeta(db.executor(), scope, id);
      if (!row) throw documentErrors.DOCUMENT_NOT_FOUND({ documentId: id });
      return documentView(row);
    },

    /** The bytes with what the response needs to describe them. */
    async content(scope: Scope, id: string) {
      const row = await documentRepository.findContent(db.executor(), scope, id);
      if (!row) throw documentErrors.DOCUMENT_NOT_FOUND({ documentId: id });
      return { fileName: row.file_name, contentType: row.content_type, sha256: row.sha256, bytes: deps.secrets.openBytes(row.content, documentContext(id)) };
    },

    /** Deletes the document and its bytes for good; answers what was deleted. */
    async remove(scope: Scope, id: string) {
      return db.tx(async (trx) => {
        const row = await documentRepository.findMeta(trx, scope, id);
        if (!row) throw documentErrors.DOCUMENT_NOT_FOUND({ documentId: id });
        await documentRepository.remove(trx, scope, id);
        return documentView(row);
      });
    },

    async list(scope: Scope, filters: DocumentFilters, page: PageRequest) {
      const ex = db.executor();
      if (filters.documentHolder) await holderCustomer(ex, scope, filters.documentHolder, false);
      return paginate({
        cursors: deps.cursors,
        request: page,
        scope: `documents|${scope.platformId}|${scope.environment}|${filters.documentHolder ?? ''}`,
        fetch: (after, n) => {
          let q = documentRepository.filtered(ex, scope, filters).select(META_COLUMNS);
          if (after) q = q.where('id', '<', after);
          return q.orderBy('id', 'desc').limit(n).execute();
        },
        count: async () =>
          toNumber(
            (
              await documentRepository
                .filtered(ex, scope, filters)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n as bigint,
          ),
        view: documentView,
      });
    },
  };
}

export type DocumentService = ReturnType<typeof createDocumentService>;

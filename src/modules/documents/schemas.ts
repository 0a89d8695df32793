import { Type, type Static } from 'typebox';
import { PageQuery, PageSchema } from '../../common/pagination.js';
import { CountryCode, DateTime, Text } from '../../common/schemas.js';
import { idPattern } from '../../common/ids.js';

/** Identity documents of a person (a customer or a beneficial owner). */
export const PERSON_DOCUMENT_TYPES = ['PASSPORT', 'NATIONAL_ID', 'DRIVERS_LICENSE', 'RESIDENCE_PERMIT', 'PROOF_OF_ADDRESS', 'SELFIE'] as const;
/** Documents of a company: only a BUSINESS customer can hold them. */
export const COMPANY_DOCUMENT_TYPES = [
  'CERTIFICATE_OF_INCORPORATION',
  'COMPANY_REGISTRATION',
  'ARTICLES_OF_ASSOCIATION',
  'SHAREHOLDER_REGISTER',
  'TAX_REGISTRATION',
] as const;
export const DOCUMENT_TYPES = [...PERSON_DOCUMENT_TYPES, ...COMPANY_DOCUMENT_TYPES, 'BANK_STATEMENT', 'OTHER'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

/** Cards with two printed sides: each side is its own upload and says which it is. */
export const TWO_SIDED_TYPES: readonly DocumentType[] = ['NATIONAL_ID', 'DRIVERS_LICENSE', 'RESIDENCE_PERMIT'];
export const SIDES = ['FRONT', 'BACK'] as const;

const holderPattern = `${idPattern('Customer')}|${idPattern('BeneficialOwner')}`;
const DocumentHolder = Type.String({ pattern: holderPattern, description: 'A Customer or BeneficialOwner id' });

/**
 * The multipart form of POST /documents. The upload hook reads the form into these fields; the
 * file part is given to the schema (and to the idempotency hash) as the SHA-256 of its bytes.
 */
export const DocumentUploadForm = Type.Object(
  {
    documentHolder: DocumentHolder,
    documentType: Type.Enum(DOCUMENT_TYPES),
    country: CountryCode,
    side: Type.Optional(Type.Enum(SIDES, { description: `Required for ${TWO_SIDED_TYPES.join(', ')}; otherwise FRONT or omitted` })),
    documentNumber: Type.Optional(Text(64, { pattern: '^[A-Za-z0-9][A-Za-z0-9 ./-]*$' })),
    file: Type.String({ format: 'binary', description: 'The file: PDF, JPEG or PNG (recognised by its content), at most 10 MiB' }),
  },
  { additionalProperties: false },
);
export type DocumentUpload = Static<typeof DocumentUploadForm>;

export const DocumentSchema = Type.Object({
  id: Type.String({ examples: ['Document:019a6f1e-8f3c-7cc1-9d6e-2b8f0c2a4e11'] }),
  documentHolder: Type.String(),
  documentType: Type.Enum(DOCUMENT_TYPES),
  country: Type.Optional(Type.String()),
  fileName: Type.String(),
  side: Type.Optional(Type.Enum(SIDES)),
  documentNumber: Type.Optional(Type.String()),
  contentType: Type.String({ description: 'application/pdf, image/jpeg or image/png, detected from the bytes' }),
  sizeBytes: Type.Integer(),
  sha256: Type.String({ description: 'Hex SHA-256 of the file; also the ETag of its content' }),
  createdAt: DateTime,
  updatedAt: DateTime,
});

export const DocumentIdParams = Type.Object({ documentId: Type.String({ pattern: idPattern('Document'), description: 'Document:<id>' }) });

export const DocumentListQuery = Type.Object({ documentHolder: Type.Optional(DocumentHolder), ...PageQuery }, { additionalProperties: false });

export const DocumentPage = PageSchema(DocumentSchema);

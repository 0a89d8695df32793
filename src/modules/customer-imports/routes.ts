import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Container } from '../../container.js';
import { ApiError, commonErrors, invalidField, invalidInput } from '../../common/errors.js';
import type { App } from '../../http/types.js';
import { CustomerCsvForm, ImportAcceptedSchema, ImportJobParams, ImportJobSchema } from './schemas.js';
import { customerImportsOf, MAX_CSV_BYTES, MAX_CSV_ROWS } from './service.js';

/** One file part named "file", nothing else; nothing beyond MAX_CSV_BYTES is buffered. */
const limits = { fileSize: MAX_CSV_BYTES, files: 1, fields: 0, parts: 1, fieldNameSize: 64, headerPairs: 20 };
const FORM_OVERHEAD_BYTES = 16 * 1024;

interface CsvFile {
  bytes: Buffer;
  fileName?: string;
  sha256: string;
}
const files = new WeakMap<FastifyRequest, CsvFile>();

function tooLarge(): ApiError {
  return commonErrors.PAYLOAD_TOO_LARGE(
    { field: 'file', maxFileBytes: MAX_CSV_BYTES },
    `The CSV file is larger than ${MAX_CSV_BYTES} bytes (2 MiB); split it into several uploads`,
  );
}

/**
 * preValidation: reads the form before validation, so the idempotency hash of req.body covers
 * the file through its SHA-256 (the same file with the same key is the same job).
 */
async function readCsv(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart())
    throw commonErrors.UNSUPPORTED_MEDIA_TYPE({ expected: 'multipart/form-data' }, 'Send the CSV as multipart/form-data with a part named "file"');
  if (Number(req.headers['content-length'] ?? 0) > MAX_CSV_BYTES + FORM_OVERHEAD_BYTES) throw tooLarge();
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file') throw invalidInput([{ field: part.fieldname, in: 'body', message: 'is not a known field; send only the file part "file"' }]);
      if (part.fieldname !== 'file')
        throw invalidInput([{ field: part.fieldname, in: 'body', message: 'is not a known field; the file part is named "file"' }]);
      const bytes = await part.toBuffer();
      files.set(req, { bytes, fileName: part.filename || undefined, sha256: createHash('sha256').update(bytes).digest('hex') });
    }
  } catch (e) {
    req.raw.unpipe();
    req.raw.resume();
    if (e instanceof ApiError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw invalidField('file', 'send exactly one part: the file "file"');
    throw invalidInput([{ field: '(body)', in: 'body', message: `is not valid multipart/form-data (${(e as Error).message})` }]);
  }
  const file = files.get(req);
  if (!file) throw invalidInput([{ field: 'file', in: 'body', message: 'is required (a file part named "file")' }]);
  req.body = { file: file.sha256 };
}

export function customerImportRoutes(app: App, container: Container) {
  const imports = customerImportsOf(container);
  const tags = ['Customers'];

  app.register(async (instance) => {
    const uploads = instance as unknown as App;
    await uploads.register(multipart, { limits, throwFileSizeLimit: true });
    uploads.post(
      '/customers/bulk/csv',
      {
        config: { permission: 'MANAGE' },
        preValidation: readCsv,
        schema: {
          tags,
          summary: 'Upload customers as a CSV file (multipart/form-data); answers a job to follow',
          description: `One file part named "file": CSV (RFC 4180, UTF-8) with a header line, at most ${MAX_CSV_BYTES / 1024 / 1024} MiB and ${MAX_CSV_ROWS} rows. Columns: platformCustomerId and customerType (required), umaAddress, fullName, birthDate, nationality, region, currencies, addressLine1, addressLine2, city, state, postalCode, country, businessLegalName, businessRegistrationNumber, businessTaxId; platformAccountId, description and email are accepted and not stored. Each row is created as by POST /customers; rows refused are reported per row by GET /customers/bulk/jobs/{jobId}. An Idempotency-Key replay is recognised by the file's SHA-256.`,
          consumes: ['multipart/form-data'],
          body: CustomerCsvForm,
          response: { 202: ImportAcceptedSchema },
        },
      },
      async (req, reply) => {
        reply.code(202);
        return imports.upload(req.auth, files.get(req)!);
      },
    );
  });

  app.get(
    '/customers/bulk/jobs/:jobId',
    {
      config: { permission: 'VIEW' },
      schema: {
        tags,
        summary: 'A bulk customer import: status, counts and the result or error of each row',
        params: ImportJobParams,
        response: { 200: ImportJobSchema },
      },
    },
    async (req) => imports.get(req.auth, req.params.jobId),
  );
}

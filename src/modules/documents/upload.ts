import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError, commonErrors, invalidField, invalidInput } from '../../common/errors.js';
import { MAX_FILE_BYTES } from './content.js';

/** The file part of an upload, read into memory (bounded by MAX_FILE_BYTES). */
export interface UploadedFile {
  bytes: Buffer;
  fileName: string | undefined;
  sha256: string;
}

/** Room for the text fields and the part headers around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
export const MAX_FORM_BYTES = MAX_FILE_BYTES + FORM_OVERHEAD_BYTES;

/** Busboy limits: one file, a handful of short fields, nothing beyond MAX_FILE_BYTES buffered. */
export const multipartLimits = { fileSize: MAX_FILE_BYTES, files: 1, fields: 8, parts: 9, fieldSize: 1024, fieldNameSize: 64, headerPairs: 20 };

const files = new WeakMap<FastifyRequest, UploadedFile>();

/** The file the upload hook read for this request. */
export function uploadedFile(req: FastifyRequest): UploadedFile | undefined {
  return files.get(req);
}

function tooLarge(): ApiError {
  return commonErrors.PAYLOAD_TOO_LARGE({ field: 'file', maxFileBytes: MAX_FILE_BYTES }, `The file is larger than ${MAX_FILE_BYTES} bytes (10 MiB)`);
}

/** Multipart and busboy failures as D2 errors: they are all problems of the request. */
function toUploadError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const code = (e as { code?: string }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return invalidField('file', 'send exactly one file part');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalidInput([{ field: '(body)', in: 'body', message: `has too many form fields; send at most ${multipartLimits.fields}` }]);
    case 'FST_PROTO_VIOLATION':
      return invalidInput([{ field: '(body)', in: 'body', message: 'uses a reserved field name' }]);
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalidInput([{ field: '(body)', in: 'body', message: 'has a field declared as JSON that is not valid JSON' }]);
  }
  return invalidInput([{ field: '(body)', in: 'body', message: `is not valid multipart/form-data (${(e as Error).message})` }]);
}

/**
 * preValidation hook of POST /documents: reads the multipart form before validation, so the route
 * schema checks the text fields like any body (unknown fields refused) and the idempotency hash of
 * req.body covers the file through its SHA-256. The file bytes stay beside the request.
 */
export async function readUpload(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart()) throw commonErrors.UNSUPPORTED_MEDIA_TYPE({ expected: 'multipart/form-data' }, 'Send documents as multipart/form-data');
  // Refuse a declared oversized body before reading any of it.
  if (Number(req.headers['content-length'] ?? 0) > MAX_FORM_BYTES) throw tooLarge();
  const body: Record<string, string> = {};
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname in body) throw invalidInput([{ field: part.fieldname, in: 'body', message: 'is given more than once' }]);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        body[part.fieldname] = sha256;
        if (part.fieldname === 'file') files.set(req, { bytes, fileName: part.filename || undefined, sha256 });
      } else {
        if (part.fieldname in body) throw invalidInput([{ field: part.fieldname, in: 'body', message: 'is given more than once' }]);
        if (part.fieldname === 'file') throw invalidField('file', 'must be a file part (Content-Disposition with a filename)');
        if (part.valueTruncated) throw invalidInput([{ field: part.fieldname, in: 'body', message: `is longer than ${multipartLimits.fieldSize} bytes` }]);
        body[part.fieldname] = String(part.value);
      }
    }
  } catch (e) {
    // Stop parsing and let the rest of the body drain, so the answer goes out at once.
    req.raw.unpipe();
    req.raw.resume();
    throw toUploadError(e);
  }
  req.body = body;
}

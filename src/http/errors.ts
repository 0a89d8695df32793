import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, commonErrors, invalidInput } from '../common/errors.js';
import { databaseUnavailable, storageFull } from '../db/faults.js';
import { fieldProblems } from './validation.js';

/** Seconds a client is asked to wait before retrying a request the database could not take. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Every failure leaves as the D2 error body. A thrown non-ApiError is a bug: 500, logged. */
export function toApiError(err: FastifyError | ApiError | Error): ApiError {
  if (err instanceof ApiError) return err;
  const fe = err as FastifyError;
  if (fe.validation) return invalidInput(fieldProblems(fe.validation as never, fe.validationContext));
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return commonErrors.UNSUPPORTED_MEDIA_TYPE();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return commonErrors.PAYLOAD_TOO_LARGE();
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return invalidInput([{ field: '(body)', in: 'body', message: 'is empty; send a JSON object' }]);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return invalidInput([{ field: 'Content-Length', in: 'header', message: 'does not match the body' }]);
  }
  if (fe.statusCode === 400) {
    // JSON syntax errors and prototype-poisoning attempts land here.
    return invalidInput([{ field: '(body)', in: 'body', message: 'is not valid JSON' }]);
  }
  if (fe.statusCode === 429) return commonErrors.RATE_LIMITED();
  // Not a bug: the database is unreachable, slow to answer, or out of space (docs/reliability.md).
  if (storageFull(err)) return commonErrors.STORAGE_FULL();
  if (databaseUnavailable(err)) return commonErrors.DATABASE_UNAVAILABLE();
  return commonErrors.INTERNAL_ERROR();
}

export function errorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  const apiError = toApiError(err);
  if (apiError.status >= 500) req.log.error({ err }, 'request failed');
  if (apiError.code === 'DATABASE_UNAVAILABLE' || apiError.code === 'STORAGE_FULL') reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  if (apiError.code === 'PAYLOAD_TOO_LARGE' && !req.raw.complete) {
    // Fastify would close the connection with the rest of the body unread: the kernel then resets
    // it, and the reset can discard the 413 before the client, still sending, reads it. Instead
    // the rest is read and dropped (within REQUEST_TIMEOUT_MS), and the connection stays usable.
    reply.removeHeader('connection');
    req.raw.resume();
  }
  reply.code(apiError.status).send(apiError.toBody());
}

import { defineErrors } from '../../common/errors.js';

export const documentErrors = defineErrors({
  DOCUMENT_NOT_FOUND: { status: 404, message: 'No document with this id' },
  DOCUMENT_LIMIT_REACHED: { status: 409, message: 'This holder already has the maximum number of documents; delete one first' },
});

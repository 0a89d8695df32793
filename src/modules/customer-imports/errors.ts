import { defineErrors } from '../../common/errors.js';

export const customerImportErrors = defineErrors({
  BULK_UPLOAD_JOB_NOT_FOUND: { status: 404, message: 'No bulk customer import job with this id' },
});

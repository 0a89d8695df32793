import { defineErrors } from '../../common/errors.js';

export const externalAccountErrors = defineErrors({
  EXTERNAL_ACCOUNT_NOT_FOUND: { status: 404, message: 'No external account with this id' },
});

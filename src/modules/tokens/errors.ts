import { defineErrors } from '../../common/errors.js';

export const tokenErrors = defineErrors({
  TOKEN_NOT_FOUND: { status: 404, message: 'No active token with this id' },
  PERMISSION_NOT_GRANTABLE: { status: 403, message: 'A token cannot grant permissions its creator does not have' },
});

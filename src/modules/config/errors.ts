import { defineErrors } from '../../common/errors.js';

export const configErrors = defineErrors({
  UMA_DOMAIN_TAKEN: { status: 409, message: 'This UMA domain is already used by another platform' },
});

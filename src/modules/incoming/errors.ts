import { defineErrors } from '../../common/errors.js';

export const incomingErrors = defineErrors({
  TRANSACTION_NOT_AWAITING_APPROVAL: {
    status: 409,
    message: 'The transaction is not an incoming payment waiting for approval (it was answered, timed out, or never asked for approval)',
  },
});

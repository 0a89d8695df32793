import { defineErrors } from '../../common/errors.js';

/** Codes of the sandbox's test helpers and clock. */
export const sandboxErrors = defineErrors({
  TRANSACTION_NOT_COMPLETED: { status: 409, message: 'The transaction is not a COMPLETED outgoing payment, so it cannot be returned' },
  TRANSACTION_NOT_ON_RAIL: {
    status: 409,
    message: 'The transaction does not travel on the sandbox rail (a UMA payment settles with its receiver’s answer), so a test helper cannot settle it',
  },
});

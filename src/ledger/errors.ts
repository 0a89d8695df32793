import { defineErrors } from '../common/errors.js';

export const ledgerErrors = defineErrors({
  INSUFFICIENT_FUNDS: { status: 400, message: 'The account does not hold enough available funds for this' },
  BALANCE_LIMIT_EXCEEDED: { status: 400, message: 'This would take a balance beyond 9007199254740991 minor units, the largest amount JSON carries exactly' },
  PENDING_TRANSFER_RESOLVED: { status: 409, message: 'This pending transfer was already posted or voided' },
});

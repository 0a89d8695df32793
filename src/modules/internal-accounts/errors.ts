import { defineErrors } from '../../common/errors.js';

export const internalAccountErrors = defineErrors({
  INTERNAL_ACCOUNT_NOT_FOUND: { status: 404, message: 'No internal account with this id' },
  INTERNAL_ACCOUNT_INACTIVE: { status: 400, message: "This internal account's currency is no longer enabled for its customer" },
  INTERNAL_ACCOUNT_NOT_EMPTY: { status: 400, message: 'A currency whose internal account holds a balance cannot be removed; see details' },
});

import { defineErrors } from '../../common/errors.js';

export const customerErrors = defineErrors({
  CUSTOMER_NOT_FOUND: { status: 404, message: 'No customer with this id' },
  CUSTOMER_DELETED: { status: 410, message: 'This customer was deleted' },
  PLATFORM_CUSTOMER_ID_EXISTS: { status: 409, message: 'A customer with this platformCustomerId already exists' },
  UMA_ADDRESS_EXISTS: { status: 409, message: 'This UMA address is already taken' },
  CURRENCY_COMBINATION_NOT_ALLOWED: { status: 400, message: 'These currencies cannot be enabled on one customer; see details' },
});

import { defineErrors } from '../../common/errors.js';

export const customerErrors = defineErrors({
  CUSTOMER_NOT_FOUND: { status: 404, message: 'No customer with this id' },
  CUSTOMER_DELETED: { status: 410, message: 'This customer was deleted' },
  PLATFORM_CUSTOMER_ID_EXISTS: { status: 409, message: 'A customer with this platformCustomerId already exists' },
  UMA_ADDRESS_EXISTS: { status: 409, message: 'This UMA address is already taken' },
  CUSTOMER_NOT_VERIFIED: {
    status: 400,
    message: 'In PRODUCTION money moves only for customers whose kycStatus is APPROVED (KYB for businesses); see details',
  },
  KYC_ATTESTED_BY_OPERATOR: {
    status: 403,
    message: "This server's operator attests kycStatus in PRODUCTION (KYC_ATTESTATION=OPERATOR); it cannot be changed through the API",
  },
  CURRENCY_COMBINATION_NOT_ALLOWED: { status: 400, message: 'These currencies cannot be enabled on one customer; see details' },
});

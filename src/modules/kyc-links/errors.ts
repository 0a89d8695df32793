import { defineErrors } from '../../common/errors.js';

export const kycLinkErrors = defineErrors({
  HOSTED_KYC_NOT_AVAILABLE: {
    status: 400,
    message:
      'Corridor hosts no KYC flow in PRODUCTION: verify the customer with your KYC provider, then attest kycStatus (PATCH /customers/{customerId}, or the operator under KYC_ATTESTATION=OPERATOR)',
  },
});

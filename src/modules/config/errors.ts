import { defineErrors } from '../../common/errors.js';

export const configErrors = defineErrors({
  UMA_DOMAIN_TAKEN: { status: 409, message: 'This UMA domain is already used by another platform' },
  NO_UMA_DOMAIN_CLAIM: { status: 409, message: 'No umaDomain is waiting for proof; ask for one with PATCH /config first' },
  UMA_DOMAIN_NOT_PROVEN: {
    status: 409,
    message:
      'The UMA domain is not proven yet: publish the token at wellKnownUrl or in the DNS TXT record, then verify again; details.tried says what was found',
  },
});

import { defineErrors } from '../../common/errors.js';

export const ownerErrors = defineErrors({
  BENEFICIAL_OWNER_NOT_FOUND: { status: 404, message: 'No beneficial owner with this id' },
  OWNERSHIP_EXCEEDS_100: { status: 400, message: 'The UBO ownership percentages of this business would add up to more than 100; see details' },
  BENEFICIAL_OWNER_LIMIT_REACHED: { status: 409, message: 'This business already has the maximum number of beneficial owners' },
});

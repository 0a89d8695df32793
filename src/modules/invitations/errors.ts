import { defineErrors } from '../../common/errors.js';

// The vendor's codes and statuses (its OpenAPI answers 400 for a claim or cancel that the
// invitation's state does not allow, and 403 to a platform cancelling another's invitation).
export const invitationErrors = defineErrors({
  INVITATION_NOT_FOUND: { status: 404, message: 'No invitation with this code' },
  INVITATION_ALREADY_CLAIMED: { status: 400, message: 'This invitation has already been claimed' },
  INVITATION_CANCELLED: { status: 400, message: 'This invitation has been cancelled' },
  INVITATION_EXPIRED: { status: 400, message: 'This invitation has expired and can no longer be claimed or cancelled' },
  INVITATION_NOT_INVITER: { status: 403, message: 'Only the platform that created this invitation can cancel it' },
});

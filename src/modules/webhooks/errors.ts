import { defineErrors } from '../../common/errors.js';

export const webhookErrors = defineErrors({
  DELIVERY_NOT_FOUND: { status: 404, message: 'No webhook delivery with this id' },
  DELIVERY_PENDING: { status: 409, message: 'This delivery is still being attempted; resend it once it is DELIVERED, FAILED or NO_ENDPOINT' },
  WEBHOOK_ENDPOINT_NOT_CONFIGURED: { status: 409, message: 'No webhookEndpoint is configured; set one with PATCH /config first' },
});

import { defineErrors } from '../common/errors.js';

export const dashboardErrors = defineErrors({
  INVALID_CREDENTIALS: { status: 401, message: 'Wrong email or password' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'A dashboard write needs the X-CSRF-Token of its session and a same-origin Origin header' },
  DASHBOARD_USER_EXISTS: { status: 409, message: 'A dashboard user with this email already exists' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many wrong passwords; try again after the time in Retry-After' },
  TOO_MANY_SIGN_INS: { status: 429, message: 'Too many sign-in attempts from this address or for this account; try again after the time in Retry-After' },
  SIGN_IN_BUSY: { status: 503, message: 'Too many sign-ins are being checked right now; try again after the time in Retry-After' },
});

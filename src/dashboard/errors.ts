import { defineErrors } from '../common/errors.js';

export const dashboardErrors = defineErrors({
  INVALID_CREDENTIALS: { status: 401, message: 'Wrong email or password' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'A dashboard write needs the X-CSRF-Token of its session and a same-origin Origin header' },
  DASHBOARD_USER_EXISTS: { status: 409, message: 'A dashboard user with this email already exists' },
  TOO_MANY_ATTEMPTS: { status: 429, message: 'Too many wrong passwords; try again after the time in Retry-After' },
});

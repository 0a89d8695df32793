import { defineErrors } from '../../common/errors.js';

export const quoteErrors = defineErrors({
  QUOTE_NOT_FOUND: { status: 404, message: 'No quote with this id' },
  QUOTE_NOT_PENDING: { status: 409, message: 'The quote is no longer PENDING: it was already executed or funded, or it failed' },
  QUOTE_EXPIRED: { status: 400, message: 'The quote expired; create a new quote with the same parameters and execute that one' },
  QUOTE_REQUIRES_FUNDING: { status: 400, message: 'This quote is funded by a payment to its paymentInstructions (REALTIME_FUNDING); do not execute it' },
  QUOTE_NOT_REALTIME_FUNDED: { status: 400, message: 'This quote is funded from an account; execute it instead of sending a payment' },
  QUOTE_ACCOUNT_INACTIVE: {
    status: 400,
    message: 'An external account of this quote was deactivated after the quote was created; create a new quote with an ACTIVE account',
  },
  AMOUNT_TOO_SMALL: { status: 400, message: 'The amount does not cover the fees and deliver at least one minor unit; see details.minimumAmount' },
  AMOUNT_TOO_LARGE: { status: 400, message: 'The amount exceeds 9000000000000000 on one side of the quote; see details.maximumAmount' },
  RATES_STALE: { status: 503, message: 'Exchange rates are out of date, so no quote can be priced; retry shortly' },
  RATE_UNAVAILABLE: { status: 503, message: 'No exchange rate is available for this currency pair; retry shortly' },
});

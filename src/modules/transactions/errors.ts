import { defineErrors } from '../../common/errors.js';

export const transactionErrors = defineErrors({
  TRANSACTION_NOT_FOUND: { status: 404, message: 'No transaction with this id' },
  TRANSACTION_NOT_PROCESSING: { status: 409, message: 'The transaction is not PROCESSING, so it cannot be settled or failed' },
});

/** Rules shared by quotes and transfers: the platform's per-currency settings (PATCH /config). */
export const paymentRuleErrors = defineErrors({
  CURRENCY_NOT_ENABLED: { status: 400, message: 'The platform has disabled this currency (GET /config, currencies)' },
  AMOUNT_OUTSIDE_LIMITS: { status: 400, message: "The amount is outside the platform's minimum or maximum for this currency; see details" },
});

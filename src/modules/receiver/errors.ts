import { defineErrors } from '../../common/errors.js';

export const receiverErrors = defineErrors({
  UMA_ADDRESS_NOT_FOUND: { status: 404, message: 'No customer has this UMA address' },
  LOOKUP_REQUEST_FAILED: { status: 400, message: "The receiver's UMA provider could not be asked about this address; see details.reason" },
  PAY_REQUEST_FAILED: {
    status: 400,
    message: "The receiver's UMA provider refused the pay request, or answered one that does not pay what was quoted; see details.reason",
  },
  LOOKUP_NOT_FOUND: { status: 404, message: 'No receiver lookup with this id' },
  LOOKUP_EXPIRED: { status: 400, message: 'The receiver lookup expired; look the receiver up again and quote with the new lookupId' },
  MISSING_MANDATORY_USER_INFO: { status: 400, message: 'Information the counterparty requires is missing; details.missingFields names it' },
});

/** 400 MISSING_MANDATORY_USER_INFO naming the object and the keys it lacks. */
export function missingUserInfo(field: string, missingFields: string[]) {
  return receiverErrors.MISSING_MANDATORY_USER_INFO({ field, missingFields }, `${field} must contain ${missingFields.join(', ')}`);
}

/** The required keys absent (or empty) in info. */
export function missingKeys(required: readonly string[], info: Record<string, unknown> | undefined): string[] {
  return required.filter((k) => info?.[k] === undefined || info[k] === null || info[k] === '');
}

/**
 * Errors answered to counterparties on the UMA endpoints. They are UMA implementations, not API
 * clients: the body is the LNURL error shape the protocol uses (`{status: "ERROR", reason}`),
 * with the UMA error code beside it, and the status code the protocol's error table gives.
 */
export type UmaWireCode =
  | 'USER_NOT_FOUND'
  | 'INVALID_REQUEST_FORMAT'
  | 'MISSING_REQUIRED_UMA_PARAMETERS'
  | 'INVALID_SIGNATURE'
  | 'INVALID_NONCE'
  | 'INVALID_TIMESTAMP'
  | 'UNSUPPORTED_UMA_VERSION'
  | 'COUNTERPARTY_NOT_ALLOWED'
  | 'COUNTERPARTY_PUBKEY_FETCH_ERROR'
  | 'INVALID_CURRENCY'
  | 'AMOUNT_OUT_OF_RANGE'
  | 'MISSING_PAYER_DATA'
  | 'MISSING_PAYEE_DATA'
  | 'PAYMENT_REJECTED'
  | 'INVALID_INVOICE'
  | 'INVOICE_EXPIRED'
  | 'INTERNAL_ERROR';

const STATUS: Record<UmaWireCode, number> = {
  USER_NOT_FOUND: 404,
  INVALID_REQUEST_FORMAT: 400,
  MISSING_REQUIRED_UMA_PARAMETERS: 400,
  INVALID_SIGNATURE: 401,
  INVALID_NONCE: 400,
  INVALID_TIMESTAMP: 400,
  UNSUPPORTED_UMA_VERSION: 412,
  COUNTERPARTY_NOT_ALLOWED: 403,
  COUNTERPARTY_PUBKEY_FETCH_ERROR: 424,
  INVALID_CURRENCY: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  MISSING_PAYER_DATA: 400,
  MISSING_PAYEE_DATA: 400,
  PAYMENT_REJECTED: 403,
  INVALID_INVOICE: 400,
  INVOICE_EXPIRED: 400,
  INTERNAL_ERROR: 500,
};

export class UmaWireError extends Error {
  readonly status: number;
  constructor(
    readonly code: UmaWireCode,
    reason: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(reason);
    this.status = STATUS[code];
  }

  toBody() {
    return { status: 'ERROR', reason: this.message, code: this.code, ...this.extra };
  }
}

/**
 * NACHA (ACH) files for USD payouts to US bank accounts: build what goes to the partner bank,
 * validate it before upload, parse what comes back (returns, notifications of change), and the
 * acknowledgement format between the bank (or its simulator) and the ingest. Pure functions: no
 * clock, no file system, no network.
 */

export {
  buildNachaFile,
  type NachaBatchInput,
  type NachaBuildResult,
  type NachaEntryInput,
  type NachaFileInput,
  type NachaTotals,
  type NachaTransactionCode,
} from './build.js';
export { parseNachaFile, nachaChanges, nachaReturns, type NachaChangeItem, type NachaReturnItem } from './parse.js';
export { validateNachaFile } from './validate.js';
export { CHANGE_CODE_LIST, RETURN_CODE_LIST, changeCodeInfo, returnCodeInfo, type ChangeCodeInfo, type ReturnCodeInfo } from './codes.js';
export {
  NACHA_ACK_MAGIC,
  buildNachaAck,
  nachaAckSubject,
  parseNachaAck,
  type NachaAck,
  type NachaAckEntryRejection,
  type NachaAckFileSummary,
  type NachaAckReason,
} from './ack.js';
export { NachaError, type NachaProblem, type NachaRule } from './errors.js';
export { abaCheckDigit, isValidRoutingNumber, toNachaText } from './fields.js';
export type * from './types.js';

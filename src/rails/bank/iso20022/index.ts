/**
 * ISO 20022 files for the bank rails: pain.001 payouts out, pain.002 status reports and camt.053 /
 * camt.054 account reports in (and out, for the bank simulator). Builders refuse bad input with an
 * IsoInputError naming the field; parsers refuse a bad file whole with an IsoParseError; every file
 * can be checked against the official XSD with validateXml.
 */
export { IsoInputError, IsoParseError, type IsoParseErrorCode } from './errors.js';
export { ISO_MESSAGES, detectIsoMessage, namespaceOf, type IsoMessageId } from './messages.js';
export { currencyDecimals, formatAmount, parseAmount } from './amounts.js';
export { toEpcText } from './epc.js';
export { validateXml, schemaPath, type XmlValidationResult } from './validate.js';
export { buildPain001, type AccountIdentification, type Pain001Input, type Pain001Payment, type Pain001Profile } from './pain001.js';
export { buildPain002, type Pain002GroupStatus, type Pain002Input, type Pain002Transaction, type Pain002TransactionStatus } from './pain002.js';
export {
  buildCamt053,
  buildCamt054,
  type BankTransactionCode,
  type Camt053Input,
  type Camt054Input,
  type CamtAccountInput,
  type CamtBalanceInput,
  type CamtEntryInput,
  type CamtPartyInput,
  type CamtTransactionInput,
  type CreditDebit,
  type EntryStatus,
} from './camt.js';
export { parsePain001, type Pain001Account, type Pain001File, type Pain001PaymentInformation, type Pain001Transaction } from './parse-pain001.js';
export { parsePain002, type Pain002Report, type Pain002TransactionStatusReport } from './parse-pain002.js';
export {
  parseCamt053,
  parseCamt054,
  type CamtAccount,
  type CamtBalance,
  type CamtEntry,
  type CamtReport,
  type CamtStatement,
  type CamtTransaction,
} from './parse-camt.js';

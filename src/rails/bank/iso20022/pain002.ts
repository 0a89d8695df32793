/**
 * pain.002.001.10 CustomerPaymentStatusReport: the bank's answer to a pain.001, written here for the
 * bank simulator (and read by parse-pain002.ts for the real bank's answers).
 */
import { IsoInputError } from './errors.js';
import { checkBic, checkCode, checkDateTime, checkId } from './fields.js';
import { fitText, startDocument } from './xml-write.js';

/** Group (file or payment information) status: accepted after technical checks, settled, rejected, partly accepted… */
export type Pain002GroupStatus = 'RCVD' | 'ACTC' | 'ACCP' | 'ACSP' | 'ACSC' | 'ACCC' | 'ACWC' | 'PDNG' | 'PART' | 'RJCT';
export type Pain002TransactionStatus = 'ACTC' | 'ACCP' | 'ACSP' | 'ACSC' | 'ACCC' | 'ACWC' | 'PDNG' | 'RJCT';

export interface Pain002Input {
  messageId: string;
  createdAt: string;
  /** The bank that reports (GrpHdr/DbtrAgt), if it says so. */
  debtorAgentBic?: string;
  originalMessageId: string;
  /** Default pain.001.001.09. */
  originalMessageNameId?: string;
  originalCreatedAt?: string;
  originalNumberOfTransactions?: number;
  groupStatus?: Pain002GroupStatus;
  /** Why the whole file was rejected (e.g. FF01 invalid file format, DU01 duplicate message id). */
  groupReason?: { code: string; text?: string };
  transactions: readonly Pain002Transaction[];
}

export interface Pain002Transaction {
  /** The PmtInfId of the pain.001 group the payment was in. */
  originalPaymentInformationId: string;
  originalEndToEndId: string;
  originalInstructionId?: string;
  status: Pain002TransactionStatus;
  /** An ISO external status reason code: AC01 wrong account number, AC04 closed account, AC06 blocked, AM04 insufficient funds, MS03 not specified, RC01 bad BIC… */
  reasonCode?: string;
  reasonText?: string;
  accountServicerReference?: string;
}

// StsRsnInf/AddtlInf is Max105Text, repeatable: a longer text is cut into several.
const ADDITIONAL_INFO_MAX = 105;

function chunks(text: string): string[] {
  const chars = [...text];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += ADDITIONAL_INFO_MAX) out.push(chars.slice(i, i + ADDITIONAL_INFO_MAX).join(''));
  return out;
}

export function buildPain002(input: Pain002Input): string {
  const messageId = checkId('messageId', input.messageId);
  const createdAt = checkDateTime('createdAt', input.createdAt);
  const bic = input.debtorAgentBic === undefined ? undefined : checkBic('debtorAgentBic', input.debtorAgentBic);
  const originalMessageId = checkId('originalMessageId', input.originalMessageId);
  const originalName = checkId('originalMessageNameId', input.originalMessageNameId ?? 'pain.001.001.09');
  const originalCreatedAt = input.originalCreatedAt === undefined ? undefined : checkDateTime('originalCreatedAt', input.originalCreatedAt);
  const count = input.originalNumberOfTransactions;
  if (count !== undefined && (!Number.isSafeInteger(count) || count < 0)) throw new IsoInputError('originalNumberOfTransactions', `not a count: ${count}`);
  const groupStatus = input.groupStatus === undefined ? undefined : checkCode('groupStatus', input.groupStatus);
  if (!Array.isArray(input.transactions)) throw new IsoInputError('transactions', 'required (may be empty when the whole file is rejected)');
  if (groupStatus === undefined && input.transactions.length === 0) throw new IsoInputError('groupStatus', 'required when no transaction is reported');

  const w = startDocument('pain.002.001.10');
  w.open('GrpHdr').leaf('MsgId', messageId).leaf('CreDtTm', createdAt);
  if (bic !== undefined) w.path(['DbtrAgt', 'FinInstnId', 'BICFI'], bic);
  w.close();
  w.open('OrgnlGrpInfAndSts').leaf('OrgnlMsgId', originalMessageId).leaf('OrgnlMsgNmId', originalName);
  if (originalCreatedAt !== undefined) w.leaf('OrgnlCreDtTm', originalCreatedAt);
  if (count !== undefined) w.leaf('OrgnlNbOfTxs', String(count));
  if (groupStatus !== undefined) w.leaf('GrpSts', groupStatus);
  if (input.groupReason !== undefined) writeReason(w, 'groupReason', input.groupReason.code, input.groupReason.text);
  w.close();

  // One OrgnlPmtInfAndSts per original payment information id, in order of first appearance.
  const groups = new Map<string, { at: number; tx: Pain002Transaction }[]>();
  input.transactions.forEach((tx, at) => {
    const id = checkId(`transactions[${at}].originalPaymentInformationId`, tx.originalPaymentInformationId);
    const list = groups.get(id) ?? [];
    list.push({ at, tx });
    groups.set(id, list);
  });
  for (const [id, list] of groups) {
    w.open('OrgnlPmtInfAndSts').leaf('OrgnlPmtInfId', id);
    for (const { at, tx } of list) {
      const field = `transactions[${at}]`;
      w.open('TxInfAndSts');
      if (tx.originalInstructionId !== undefined) w.leaf('OrgnlInstrId', checkId(`${field}.originalInstructionId`, tx.originalInstructionId));
      w.leaf('OrgnlEndToEndId', checkId(`${field}.originalEndToEndId`, tx.originalEndToEndId));
      w.leaf('TxSts', checkCode(`${field}.status`, tx.status));
      if (tx.reasonCode !== undefined || tx.reasonText !== undefined) writeReason(w, field, tx.reasonCode, tx.reasonText);
      if (tx.accountServicerReference !== undefined) w.leaf('AcctSvcrRef', checkId(`${field}.accountServicerReference`, tx.accountServicerReference));
      w.close();
    }
    w.close();
  }
  return w.end();
}

function writeReason(w: ReturnType<typeof startDocument>, field: string, code: string | undefined, text: string | undefined): void {
  w.open('StsRsnInf');
  if (code !== undefined) w.path(['Rsn', 'Cd'], checkCode(`${field}.reasonCode`, code));
  if (text !== undefined) for (const part of chunks(fitText(`${field}.reasonText`, text, 10 * ADDITIONAL_INFO_MAX, 'UNICODE', false))) w.leaf('AddtlInf', part);
  w.close();
}

/**
 * Reads a pain.002.001.10 status report: which of our payments the bank accepted, settled or
 * rejected, and why.
 */
import { IsoParseError } from './errors.js';
import { readIsoDocument, type XmlNode } from './xml-read.js';

export interface Pain002Report {
  messageId: string;
  createdAt: string;
  /** The MsgId of the pain.001 this answers. */
  originalMessageId: string;
  originalMessageNameId: string;
  /** GrpSts (ACCP, ACSC, RJCT, PART…), when the bank states one for the whole file. */
  groupStatus?: string;
  groupReasonCode?: string;
  groupReasonText?: string;
  transactions: Pain002TransactionStatusReport[];
}

export interface Pain002TransactionStatusReport {
  originalPaymentInformationId?: string;
  originalEndToEndId: string;
  originalInstructionId?: string;
  /** TxSts (ACCP, ACSC, RJCT…); a transaction without its own status has its group's. */
  status: string;
  /** StsRsnInf/Rsn/Cd, e.g. AC01, AC04, AM04; or the proprietary reason (Rsn/Prtry) when the bank uses one. */
  reasonCode?: string;
  /** StsRsnInf/AddtlInf, joined. */
  reasonText?: string;
  accountServicerReference?: string;
}

function reason(node: XmlNode): { code?: string; text?: string } {
  const info = node.first('StsRsnInf');
  if (!info) return {};
  const texts = info.all('AddtlInf').flatMap((n) => (n.value === undefined ? [] : [n.value]));
  return { code: info.text('Rsn/Cd') ?? info.text('Rsn/Prtry'), text: texts.length > 0 ? texts.join('') : undefined };
}

/** Throws IsoParseError when the file is not a readable pain.002.001.10. */
export function parsePain002(xml: string): Pain002Report {
  const { body } = readIsoDocument(xml, ['pain.002.001.10']);
  const group = body.require('OrgnlGrpInfAndSts');
  const groupStatus = group.text('GrpSts');
  const groupReason = reason(group);
  const transactions: Pain002TransactionStatusReport[] = [];
  for (const info of body.all('OrgnlPmtInfAndSts')) {
    const infoStatus = info.text('PmtInfSts') ?? groupStatus;
    const infoReason = reason(info);
    for (const tx of info.all('TxInfAndSts')) {
      const status = tx.text('TxSts') ?? infoStatus;
      if (status === undefined) throw new IsoParseError('MISSING_ELEMENT', 'a transaction without a status (TxSts), in a group without one', tx.path);
      const own = reason(tx);
      const txReason = own.code !== undefined || own.text !== undefined ? own : infoReason;
      transactions.push({
        originalPaymentInformationId: info.text('OrgnlPmtInfId'),
        originalEndToEndId: tx.requireText('OrgnlEndToEndId'),
        originalInstructionId: tx.text('OrgnlInstrId'),
        status,
        reasonCode: txReason.code,
        reasonText: txReason.text,
        accountServicerReference: tx.text('AcctSvcrRef'),
      });
    }
  }
  return {
    messageId: body.requireText('GrpHdr/MsgId'),
    createdAt: body.requireText('GrpHdr/CreDtTm'),
    originalMessageId: group.requireText('OrgnlMsgId'),
    originalMessageNameId: group.requireText('OrgnlMsgNmId'),
    groupStatus,
    groupReasonCode: groupReason.code,
    groupReasonText: groupReason.text,
    transactions,
  };
}

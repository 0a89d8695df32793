/**
 * Reads camt.053 statements and camt.054 notifications, in version .08 and in the .02 many banks
 * still send. The two versions differ in a few shapes (an entry's status is `Sts` or `Sts/Cd`, a
 * related party `Dbtr/Nm` or `Dbtr/Pty/Nm`, a transaction's amount `AmtDtls/TxAmt/Amt` or `Amt`);
 * each is read whichever way it comes.
 */
import { IsoParseError } from './errors.js';
import type { IsoMessageId } from './messages.js';
import { readAmount, readDate, readIsoDocument, type XmlNode } from './xml-read.js';

export interface CamtAccount {
  iban?: string;
  /** The account number when it is not an IBAN (Othr/Id). */
  otherId?: string;
  /** Acct/Ccy, or the currency of its balances or entries when the bank leaves it out. */
  currency: string;
}

export interface CamtBalance {
  /** Signed minor units: a debit (overdrawn) balance is negative. */
  amount: bigint;
  currency: string;
  date: string;
}

/** One transaction of an entry (NtryDtls/TxDtls): a single payment, or one of a batch. */
export interface CamtTransaction {
  /** This transaction's amount when the bank states it (batch entries). */
  amount?: bigint;
  currency?: string;
  endToEndId?: string;
  messageId?: string;
  paymentInformationId?: string;
  instructionId?: string;
  accountServicerReference?: string;
  /** RmtInf/Strd/CdtrRefInf/Ref. */
  creditorReference?: string;
  /** RmtInf/Ustrd, joined with a space when there are several. */
  remittanceInformation?: string;
  debtorName?: string;
  debtorAccount?: { iban?: string; otherId?: string };
  creditorName?: string;
  creditorAccount?: { iban?: string; otherId?: string };
  returnReasonCode?: string;
  returnReasonText?: string;
}

export interface CamtEntry {
  /** Minor units, positive; `direction` says which way. */
  amount: bigint;
  currency: string;
  direction: 'CREDIT' | 'DEBIT';
  /** BOOK, PDNG, INFO (or the bank's proprietary status). */
  status: string;
  /** BookgDt, or the value date when the bank gives no booking date. */
  bookingDate: string;
  valueDate?: string;
  /** AcctSvcrRef (or NtryRef when the bank gives no AcctSvcrRef): the id a notification and the day's statement share. */
  bankReference: string;
  entryReference?: string;
  /** RvslInd: this entry reverses an earlier one. */
  reversal: boolean;
  /** "PMNT/RCDT/ESCT" (domain/family/sub-family), or the proprietary code. */
  bankTransactionCode?: string;
  /** Of the first transaction of the entry: */
  endToEndId?: string;
  messageId?: string;
  /** The reference money in is matched by: the structured creditor reference, else the unstructured remittance text. */
  reference?: string;
  creditorReference?: string;
  remittanceInformation?: string;
  /** The other side: the debtor of a credit, the creditor of a debit. */
  counterpartyName?: string;
  counterpartyAccount?: { iban?: string; otherId?: string };
  returnReasonCode?: string;
  returnReasonText?: string;
  /** AddtlNtryInf: free text some banks put the remittance information in. */
  additionalInformation?: string;
  /** Every transaction of the entry (several for a batch booking). */
  transactions: CamtTransaction[];
}

export interface CamtStatement {
  /** Stmt/Id or Ntfctn/Id. */
  id: string;
  electronicSequenceNumber?: string;
  createdAt?: string;
  account: CamtAccount;
  /** OPBD (or PRCD, the previous day's closing, which some banks send instead). camt.053 only. */
  openingBalance?: CamtBalance;
  /** CLBD. camt.053 only. */
  closingBalance?: CamtBalance;
  entries: CamtEntry[];
}

/** A camt file: the fields of its first statement (or notification), and all of them in `statements`. */
export interface CamtReport extends CamtStatement {
  message: IsoMessageId;
  messageId: string;
  statements: CamtStatement[];
}

/** Throws IsoParseError when the file is not a readable camt.053 (.08 or .02). */
export function parseCamt053(xml: string): CamtReport {
  return parseCamt(xml, ['camt.053.001.08', 'camt.053.001.02'], 'Stmt');
}

/** Throws IsoParseError when the file is not a readable camt.054 (.08 or .02). */
export function parseCamt054(xml: string): CamtReport {
  return parseCamt(xml, ['camt.054.001.08', 'camt.054.001.02'], 'Ntfctn');
}

function parseCamt(xml: string, accepted: IsoMessageId[], element: 'Stmt' | 'Ntfctn'): CamtReport {
  const { message, body } = readIsoDocument(xml, accepted);
  const statements = body.all(element).map(readStatement);
  if (statements.length === 0) throw new IsoParseError('MISSING_ELEMENT', `${element} is missing`, body.path);
  return { ...statements[0]!, message, messageId: body.requireText('GrpHdr/MsgId'), statements };
}

function readAccountId(node: XmlNode | undefined): { iban?: string; otherId?: string } | undefined {
  if (!node) return undefined;
  const iban = node.text('Id/IBAN');
  const otherId = node.text('Id/Othr/Id');
  return iban === undefined && otherId === undefined ? undefined : { iban, otherId };
}

function readStatement(node: XmlNode): CamtStatement {
  const acct = node.require('Acct');
  const id = readAccountId(acct);
  if (!id) throw new IsoParseError('MISSING_ELEMENT', 'Id/IBAN or Id/Othr/Id is missing', acct.path);
  const balances = node.all('Bal');
  const currency = acct.text('Ccy') ?? balances[0]?.first('Amt')?.attribute('Ccy') ?? node.first('Ntry/Amt')?.attribute('Ccy');
  if (currency === undefined) throw new IsoParseError('MISSING_ELEMENT', 'the account currency (Acct/Ccy) is missing and no amount states it', acct.path);
  const balance = (...codes: string[]) => {
    for (const code of codes) {
      const found = balances.find((b) => (b.text('Tp/CdOrPrtry/Cd') ?? b.text('Tp/CdOrPrtry/Prtry')) === code);
      if (found) return readBalance(found);
    }
    return undefined;
  };
  return {
    id: node.requireText('Id'),
    electronicSequenceNumber: node.text('ElctrncSeqNb'),
    createdAt: node.text('CreDtTm'),
    account: { ...id, currency },
    openingBalance: balance('OPBD', 'PRCD'),
    closingBalance: balance('CLBD'),
    entries: node.all('Ntry').map(readEntry),
  };
}

function readDirection(node: XmlNode): 'CREDIT' | 'DEBIT' {
  const indicator = node.requireText('CdtDbtInd');
  if (indicator === 'CRDT') return 'CREDIT';
  if (indicator === 'DBIT') return 'DEBIT';
  throw new IsoParseError('BAD_VALUE', `CdtDbtInd is ${JSON.stringify(indicator)}, not CRDT or DBIT`, node.path);
}

function readBalance(node: XmlNode): CamtBalance {
  const { amount, currency } = readAmount(node.require('Amt'));
  const date = readDate(node.require('Dt'));
  if (date === undefined) throw new IsoParseError('MISSING_ELEMENT', 'Dt is empty', node.path);
  return { amount: readDirection(node) === 'DEBIT' ? -amount : amount, currency, date };
}

function partyName(node: XmlNode, role: 'Dbtr' | 'Cdtr'): string | undefined {
  // .08: Dbtr/Pty/Nm (or an agent); .02: Dbtr/Nm.
  return node.text(`RltdPties/${role}/Pty/Nm`) ?? node.text(`RltdPties/${role}/Nm`) ?? node.text(`RltdPties/${role}/Agt/FinInstnId/Nm`);
}

function readTransaction(node: XmlNode): CamtTransaction {
  const amountNode = node.first('Amt') ?? node.first('AmtDtls/TxAmt/Amt');
  const amount = amountNode ? readAmount(amountNode) : undefined;
  const ustrd = node.all('RmtInf/Ustrd').flatMap((n) => (n.value === undefined ? [] : [n.value]));
  return {
    amount: amount?.amount,
    currency: amount?.currency,
    endToEndId: node.text('Refs/EndToEndId'),
    messageId: node.text('Refs/MsgId'),
    paymentInformationId: node.text('Refs/PmtInfId'),
    instructionId: node.text('Refs/InstrId'),
    accountServicerReference: node.text('Refs/AcctSvcrRef'),
    creditorReference: node.text('RmtInf/Strd/CdtrRefInf/Ref'),
    remittanceInformation: ustrd.length > 0 ? ustrd.join(' ') : undefined,
    debtorName: partyName(node, 'Dbtr'),
    debtorAccount: readAccountId(node.first('RltdPties/DbtrAcct')),
    creditorName: partyName(node, 'Cdtr'),
    creditorAccount: readAccountId(node.first('RltdPties/CdtrAcct')),
    returnReasonCode: node.text('RtrInf/Rsn/Cd') ?? node.text('RtrInf/Rsn/Prtry'),
    returnReasonText: joined(node.all('RtrInf/AddtlInf')),
  };
}

function joined(nodes: XmlNode[]): string | undefined {
  const texts = nodes.flatMap((n) => (n.value === undefined ? [] : [n.value]));
  return texts.length > 0 ? texts.join(' ') : undefined;
}

function readEntry(node: XmlNode): CamtEntry {
  const { amount, currency } = readAmount(node.require('Amt'));
  const direction = readDirection(node);
  const status = node.text('Sts/Cd') ?? node.text('Sts/Prtry') ?? node.text('Sts');
  if (status === undefined) throw new IsoParseError('MISSING_ELEMENT', 'Sts is missing', node.path);
  const valueDate = readDate(node.first('ValDt'));
  const bookingDate = readDate(node.first('BookgDt')) ?? valueDate;
  if (bookingDate === undefined) throw new IsoParseError('MISSING_ELEMENT', 'the entry has neither a booking date nor a value date', node.path);
  const transactions = node.all('NtryDtls/TxDtls').map(readTransaction);
  const first = transactions[0];
  const bankReference = node.text('AcctSvcrRef') ?? node.text('NtryRef') ?? first?.accountServicerReference;
  if (bankReference === undefined) throw new IsoParseError('MISSING_ELEMENT', 'the entry has no bank reference (AcctSvcrRef or NtryRef)', node.path);
  const domain = node.first('BkTxCd/Domn');
  const bankTransactionCode = domain
    ? [domain.text('Cd'), domain.text('Fmly/Cd'), domain.text('Fmly/SubFmlyCd')].filter((c) => c !== undefined).join('/')
    : node.text('BkTxCd/Prtry/Cd');
  const [counterpartyName, counterpartyAccount] =
    direction === 'CREDIT'
      ? [first?.debtorName ?? first?.creditorName, first?.debtorAccount ?? first?.creditorAccount]
      : [first?.creditorName ?? first?.debtorName, first?.creditorAccount ?? first?.debtorAccount];
  return {
    amount,
    currency,
    direction,
    status,
    bookingDate,
    valueDate,
    bankReference,
    entryReference: node.text('NtryRef'),
    reversal: node.text('RvslInd') === 'true' || node.text('RvslInd') === '1',
    bankTransactionCode: bankTransactionCode === '' ? undefined : bankTransactionCode,
    endToEndId: first?.endToEndId,
    messageId: first?.messageId,
    reference: first?.creditorReference ?? first?.remittanceInformation,
    creditorReference: first?.creditorReference,
    remittanceInformation: first?.remittanceInformation,
    additionalInformation: node.text('AddtlNtryInf'),
    counterpartyName,
    counterpartyAccount,
    returnReasonCode: first?.returnReasonCode,
    returnReasonText: first?.returnReasonText,
    transactions,
  };
}

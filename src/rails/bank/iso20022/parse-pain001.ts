/**
 * Reads a pain.001.001.09 payout file, as the bank simulator receives ours. The declared count and
 * control sums are returned as the file states them, not enforced: a bank answers a file whose
 * totals do not add up with a pain.002 rejection, which the simulator must be able to produce.
 */
import { IsoParseError } from './errors.js';
import { readAmount, readDate, readIsoDocument, type XmlNode } from './xml-read.js';

export interface Pain001Account {
  iban?: string;
  otherId?: string;
  currency?: string;
}

export interface Pain001Transaction {
  instructionId?: string;
  endToEndId: string;
  amount: bigint;
  currency: string;
  creditorName?: string;
  creditorAccount?: Pain001Account;
  creditorBic?: string;
  creditorCountry?: string;
  remittanceInformation?: string;
}

export interface Pain001PaymentInformation {
  id: string;
  method: string;
  batchBooking?: boolean;
  declaredNumberOfTransactions?: number;
  declaredControlSum?: string;
  serviceLevel?: string;
  requestedExecutionDate: string;
  debtorName?: string;
  debtorAccount: Pain001Account;
  debtorBic?: string;
  chargeBearer?: string;
  transactions: Pain001Transaction[];
}

export interface Pain001File {
  messageId: string;
  createdAt: string;
  declaredNumberOfTransactions: number;
  declaredControlSum?: string;
  initiatingPartyName?: string;
  paymentInformation: Pain001PaymentInformation[];
  /** Every transaction of the file, in order: the number the totals should add up to. */
  numberOfTransactions: number;
}

function count(node: XmlNode, path: string): number | undefined {
  const text = node.text(path);
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw new IsoParseError('BAD_VALUE', `${path} is not a number: ${JSON.stringify(text)}`, node.path);
  return Number(text);
}

function account(node: XmlNode): Pain001Account {
  const iban = node.text('Id/IBAN');
  const otherId = node.text('Id/Othr/Id');
  if (iban === undefined && otherId === undefined) throw new IsoParseError('MISSING_ELEMENT', 'Id/IBAN or Id/Othr/Id is missing', node.path);
  return { iban, otherId, currency: node.text('Ccy') };
}

function transaction(node: XmlNode): Pain001Transaction {
  const { amount, currency } = readAmount(node.first('Amt/InstdAmt') ?? node.require('Amt/EqvtAmt/Amt'));
  const creditorAccount = node.first('CdtrAcct');
  const ustrd = node.all('RmtInf/Ustrd').flatMap((n) => (n.value === undefined ? [] : [n.value]));
  return {
    instructionId: node.text('PmtId/InstrId'),
    endToEndId: node.requireText('PmtId/EndToEndId'),
    amount,
    currency,
    creditorName: node.text('Cdtr/Nm'),
    creditorAccount: creditorAccount ? account(creditorAccount) : undefined,
    creditorBic: node.text('CdtrAgt/FinInstnId/BICFI') ?? node.text('CdtrAgt/FinInstnId/BIC'),
    creditorCountry: node.text('Cdtr/PstlAdr/Ctry'),
    remittanceInformation: ustrd.length > 0 ? ustrd.join(' ') : undefined,
  };
}

/** Throws IsoParseError when the file is not a readable pain.001.001.09. */
export function parsePain001(xml: string): Pain001File {
  const { body } = readIsoDocument(xml, ['pain.001.001.09']);
  const header = body.require('GrpHdr');
  const paymentInformation = body.all('PmtInf').map((info): Pain001PaymentInformation => {
    const date = readDate(info.require('ReqdExctnDt'));
    if (date === undefined) throw new IsoParseError('MISSING_ELEMENT', 'ReqdExctnDt is empty', info.path);
    const batch = info.text('BtchBookg');
    return {
      id: info.requireText('PmtInfId'),
      method: info.requireText('PmtMtd'),
      batchBooking: batch === undefined ? undefined : batch === 'true' || batch === '1',
      declaredNumberOfTransactions: count(info, 'NbOfTxs'),
      declaredControlSum: info.text('CtrlSum'),
      serviceLevel: info.text('PmtTpInf/SvcLvl/Cd') ?? info.text('PmtTpInf/SvcLvl/Prtry'),
      requestedExecutionDate: date,
      debtorName: info.text('Dbtr/Nm'),
      debtorAccount: account(info.require('DbtrAcct')),
      debtorBic: info.text('DbtrAgt/FinInstnId/BICFI'),
      chargeBearer: info.text('ChrgBr'),
      transactions: info.all('CdtTrfTxInf').map(transaction),
    };
  });
  if (paymentInformation.length === 0) throw new IsoParseError('MISSING_ELEMENT', 'PmtInf is missing', body.path);
  const declared = count(header, 'NbOfTxs');
  if (declared === undefined) throw new IsoParseError('MISSING_ELEMENT', 'NbOfTxs is missing', header.path);
  return {
    messageId: header.requireText('MsgId'),
    createdAt: header.requireText('CreDtTm'),
    declaredNumberOfTransactions: declared,
    declaredControlSum: header.text('CtrlSum'),
    initiatingPartyName: header.text('InitgPty/Nm'),
    paymentInformation,
    numberOfTransactions: paymentInformation.reduce((n, p) => n + p.transactions.length, 0),
  };
}

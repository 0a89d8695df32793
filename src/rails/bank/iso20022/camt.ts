/**
 * camt.054.001.08 BankToCustomerDebitCreditNotification and camt.053.001.08 BankToCustomerStatement:
 * what a bank says moved on an account, written here for the bank simulator (the real bank's files
 * are read by parse-camt.ts). Both carry the same entries; the statement adds balances.
 */
import { formatAmount, formatDecimal } from './amounts.js';
import { IsoInputError } from './errors.js';
import { checkAccountId, checkBic, checkCode, checkCurrency, checkDate, checkDateTime, checkIban, checkId, decimalsFor } from './fields.js';
import { fitText, startDocument, type XmlWriter } from './xml-write.js';

export type CreditDebit = 'CREDIT' | 'DEBIT';
export type EntryStatus = 'BOOK' | 'PDNG' | 'INFO';

export interface CamtAccountInput {
  iban?: string;
  /** A non-IBAN account number, when there is no IBAN. */
  otherId?: string;
  currency: string;
  /** The currency's minor-unit digits, when not the ISO 4217 ones. */
  decimals?: number;
  name?: string;
  servicerBic?: string;
}

export interface CamtPartyInput {
  name?: string;
  iban?: string;
  otherId?: string;
}

/** An ISO bank transaction code: domain, family, sub-family (e.g. PMNT / RCDT / ESCT). */
export interface BankTransactionCode {
  domain: string;
  family: string;
  subFamily: string;
}

export interface CamtTransactionInput {
  endToEndId?: string;
  messageId?: string;
  paymentInformationId?: string;
  instructionId?: string;
  accountServicerReference?: string;
  /** This transaction's part of a batch entry, in the entry's direction; left out for a single-transaction entry. */
  amount?: bigint;
  debtor?: CamtPartyInput;
  creditor?: CamtPartyInput;
  /** RmtInf/Ustrd. */
  remittanceInformation?: string;
  /** RmtInf/Strd/CdtrRefInf/Ref: the structured reference (e.g. an RF creditor reference) money in is matched by. */
  creditorReference?: string;
  /** RtrInf/Rsn/Cd of a returned payment (AC01, AC04, MS03…). */
  returnReasonCode?: string;
  returnReasonText?: string;
}

export interface CamtEntryInput {
  /** Minor units of the account's currency, > 0. */
  amount: bigint;
  direction: CreditDebit;
  /** Default BOOK. */
  status?: EntryStatus;
  bookingDate: string;
  valueDate: string;
  /** AcctSvcrRef: the bank's own id of the entry. */
  bankReference: string;
  entryReference?: string;
  reversal?: boolean;
  /** Default PMNT/RCDT/ESCT for a credit, PMNT/ICDT/ESCT for a debit, PMNT/ICDT/RRTN for a credit carrying a return reason. */
  bankTransactionCode?: BankTransactionCode;
  transactions?: readonly CamtTransactionInput[];
  additionalInformation?: string;
}

export interface Camt054Input {
  messageId: string;
  createdAt: string;
  notificationId: string;
  electronicSequenceNumber?: bigint;
  account: CamtAccountInput;
  entries: readonly CamtEntryInput[];
}

export interface CamtBalanceInput {
  /** Signed minor units: negative is a debit (overdrawn) balance. */
  amount: bigint;
  date: string;
}

export interface Camt053Input {
  messageId: string;
  createdAt: string;
  statementId: string;
  electronicSequenceNumber?: bigint;
  /** The statement's period, if stated (FrToDt). */
  from?: string;
  to?: string;
  account: CamtAccountInput;
  /** OPBD, opening booked balance. */
  openingBalance: CamtBalanceInput;
  /** CLBD, closing booked balance. */
  closingBalance: CamtBalanceInput;
  /** Default true: TxsSummry with the number and sums of all, credit and debit entries. */
  includeSummary?: boolean;
  entries: readonly CamtEntryInput[];
}

interface Account {
  currency: string;
  decimals: number;
}

export function buildCamt054(input: Camt054Input): string {
  const w = startDocument('camt.054.001.08');
  writeGroupHeader(w, input.messageId, input.createdAt);
  w.open('Ntfctn').leaf('Id', checkId('notificationId', input.notificationId));
  if (input.electronicSequenceNumber !== undefined) w.leaf('ElctrncSeqNb', sequenceNumber(input.electronicSequenceNumber));
  w.leaf('CreDtTm', input.createdAt);
  const account = writeAccount(w, input.account);
  writeEntries(w, account, input.entries);
  return w.end();
}

export function buildCamt053(input: Camt053Input): string {
  const w = startDocument('camt.053.001.08');
  writeGroupHeader(w, input.messageId, input.createdAt);
  w.open('Stmt').leaf('Id', checkId('statementId', input.statementId));
  if (input.electronicSequenceNumber !== undefined) w.leaf('ElctrncSeqNb', sequenceNumber(input.electronicSequenceNumber));
  w.leaf('CreDtTm', input.createdAt);
  if (input.from !== undefined || input.to !== undefined) {
    w.open('FrToDt')
      .leaf('FrDtTm', `${checkDate('from', input.from)}T00:00:00`)
      .leaf('ToDtTm', `${checkDate('to', input.to)}T23:59:59`)
      .close();
  }
  const account = writeAccount(w, input.account);
  writeBalance(w, account, 'OPBD', input.openingBalance, 'openingBalance');
  writeBalance(w, account, 'CLBD', input.closingBalance, 'closingBalance');
  if (input.includeSummary !== false) writeSummary(w, account, input.entries);
  writeEntries(w, account, input.entries);
  return w.end();
}

function writeGroupHeader(w: XmlWriter, messageId: string, createdAt: string): void {
  w.open('GrpHdr').leaf('MsgId', checkId('messageId', messageId)).leaf('CreDtTm', checkDateTime('createdAt', createdAt)).close();
}

function sequenceNumber(value: bigint): string {
  if (typeof value !== 'bigint' || value < 0n || value.toString().length > 18)
    throw new IsoInputError('electronicSequenceNumber', 'a non-negative integer of at most 18 digits');
  return value.toString();
}

function amountText(field: string, minor: bigint, decimals: number): string {
  if (typeof minor !== 'bigint') throw new IsoInputError(field, 'must be a bigint of minor units');
  try {
    return formatAmount(minor, decimals);
  } catch (err) {
    throw new IsoInputError(field, (err as Error).message);
  }
}

function writeAccountId(w: XmlWriter, field: string, account: { iban?: string; otherId?: string }): void {
  if (account.iban !== undefined) w.path(['Id', 'IBAN'], checkIban(`${field}.iban`, account.iban));
  else if (account.otherId !== undefined) w.path(['Id', 'Othr', 'Id'], checkAccountId(`${field}.otherId`, account.otherId));
  else throw new IsoInputError(`${field}.iban`, 'an IBAN or another account id is required');
}

function writeAccount(w: XmlWriter, input: CamtAccountInput): Account {
  if (!input) throw new IsoInputError('account', 'required');
  const currency = checkCurrency('account.currency', input.currency);
  const decimals = decimalsFor('account.decimals', currency, input.decimals);
  w.open('Acct');
  writeAccountId(w, 'account', input);
  w.leaf('Ccy', currency);
  if (input.name !== undefined) w.leaf('Nm', fitText('account.name', input.name, 70, 'UNICODE', true));
  if (input.servicerBic !== undefined) w.path(['Svcr', 'FinInstnId', 'BICFI'], checkBic('account.servicerBic', input.servicerBic));
  w.close();
  return { currency, decimals };
}

function writeBalance(w: XmlWriter, account: Account, code: 'OPBD' | 'CLBD', balance: CamtBalanceInput, field: string): void {
  if (!balance || typeof balance.amount !== 'bigint') throw new IsoInputError(`${field}.amount`, 'must be a bigint of minor units');
  const negative = balance.amount < 0n;
  w.open('Bal').path(['Tp', 'CdOrPrtry', 'Cd'], code);
  w.leaf('Amt', amountText(`${field}.amount`, negative ? -balance.amount : balance.amount, account.decimals), { Ccy: account.currency });
  w.leaf('CdtDbtInd', negative ? 'DBIT' : 'CRDT');
  w.path(['Dt', 'Dt'], checkDate(`${field}.date`, balance.date));
  w.close();
}

function writeSummary(w: XmlWriter, account: Account, entries: readonly CamtEntryInput[]): void {
  let credits = 0n;
  let debits = 0n;
  let creditCount = 0;
  for (const e of entries) {
    if (e.direction === 'CREDIT') {
      credits += e.amount;
      creditCount++;
    } else debits += e.amount;
  }
  const net = credits - debits;
  const sum = (minor: bigint) => formatDecimal(minor, account.decimals);
  w.open('TxsSummry');
  w.open('TtlNtries')
    .leaf('NbOfNtries', String(entries.length))
    .leaf('Sum', sum(credits + debits));
  w.open('TtlNetNtry')
    .leaf('Amt', sum(net < 0n ? -net : net))
    .leaf('CdtDbtInd', net < 0n ? 'DBIT' : 'CRDT')
    .close()
    .close();
  w.open('TtlCdtNtries').leaf('NbOfNtries', String(creditCount)).leaf('Sum', sum(credits)).close();
  w.open('TtlDbtNtries')
    .leaf('NbOfNtries', String(entries.length - creditCount))
    .leaf('Sum', sum(debits))
    .close();
  w.close();
}

const indicator = (direction: CreditDebit) => (direction === 'CREDIT' ? 'CRDT' : 'DBIT');

function defaultCode(entry: CamtEntryInput): BankTransactionCode {
  if (entry.direction === 'DEBIT') return { domain: 'PMNT', family: 'ICDT', subFamily: 'ESCT' };
  const returned = entry.transactions?.some((t) => t.returnReasonCode !== undefined) === true;
  return returned ? { domain: 'PMNT', family: 'ICDT', subFamily: 'RRTN' } : { domain: 'PMNT', family: 'RCDT', subFamily: 'ESCT' };
}

function writeEntries(w: XmlWriter, account: Account, entries: readonly CamtEntryInput[]): void {
  if (!Array.isArray(entries)) throw new IsoInputError('entries', 'required (may be empty)');
  entries.forEach((entry, i) => {
    const at = `entries[${i}]`;
    if (entry.direction !== 'CREDIT' && entry.direction !== 'DEBIT') throw new IsoInputError(`${at}.direction`, 'CREDIT or DEBIT');
    if (typeof entry.amount !== 'bigint' || entry.amount <= 0n) throw new IsoInputError(`${at}.amount`, 'must be a positive bigint of minor units');
    const status = entry.status ?? 'BOOK';
    if (!['BOOK', 'PDNG', 'INFO'].includes(status)) throw new IsoInputError(`${at}.status`, 'BOOK, PDNG or INFO');
    w.open('Ntry');
    if (entry.entryReference !== undefined) w.leaf('NtryRef', checkId(`${at}.entryReference`, entry.entryReference));
    w.leaf('Amt', amountText(`${at}.amount`, entry.amount, account.decimals), { Ccy: account.currency });
    w.leaf('CdtDbtInd', indicator(entry.direction));
    if (entry.reversal === true) w.leaf('RvslInd', 'true');
    w.path(['Sts', 'Cd'], status);
    w.path(['BookgDt', 'Dt'], checkDate(`${at}.bookingDate`, entry.bookingDate));
    w.path(['ValDt', 'Dt'], checkDate(`${at}.valueDate`, entry.valueDate));
    w.leaf('AcctSvcrRef', checkId(`${at}.bankReference`, entry.bankReference));
    const code = entry.bankTransactionCode ?? defaultCode(entry);
    w.open('BkTxCd')
      .open('Domn')
      .leaf('Cd', checkCode(`${at}.bankTransactionCode.domain`, code.domain));
    w.open('Fmly')
      .leaf('Cd', checkCode(`${at}.bankTransactionCode.family`, code.family))
      .leaf('SubFmlyCd', checkCode(`${at}.bankTransactionCode.subFamily`, code.subFamily));
    w.close().close().close();
    const transactions: readonly CamtTransactionInput[] = entry.transactions ?? [];
    if (transactions.length > 0) {
      w.open('NtryDtls');
      transactions.forEach((tx, t) => writeTransaction(w, account, entry.direction, tx, `${at}.transactions[${t}]`));
      w.close();
    }
    if (entry.additionalInformation !== undefined)
      w.leaf('AddtlNtryInf', fitText(`${at}.additionalInformation`, entry.additionalInformation, 500, 'UNICODE', true));
    w.close();
  });
}

function writeParty(w: XmlWriter, role: 'Dbtr' | 'Cdtr', party: CamtPartyInput, field: string): void {
  if (party.name !== undefined)
    w.open(role)
      .open('Pty')
      .leaf('Nm', fitText(`${field}.name`, party.name, 140, 'UNICODE', true))
      .close()
      .close();
  if (party.iban !== undefined || party.otherId !== undefined) {
    w.open(`${role}Acct`);
    writeAccountId(w, field, party);
    w.close();
  }
}

function writeTransaction(w: XmlWriter, account: Account, direction: CreditDebit, tx: CamtTransactionInput, at: string): void {
  w.open('TxDtls');
  const refs: [string, string | undefined, string][] = [
    ['MsgId', tx.messageId, 'messageId'],
    ['AcctSvcrRef', tx.accountServicerReference, 'accountServicerReference'],
    ['PmtInfId', tx.paymentInformationId, 'paymentInformationId'],
    ['InstrId', tx.instructionId, 'instructionId'],
    ['EndToEndId', tx.endToEndId, 'endToEndId'],
  ];
  if (refs.some(([, value]) => value !== undefined)) {
    w.open('Refs');
    for (const [name, value, field] of refs) if (value !== undefined) w.leaf(name, checkId(`${at}.${field}`, value));
    w.close();
  }
  if (tx.amount !== undefined) {
    w.leaf('Amt', amountText(`${at}.amount`, tx.amount, account.decimals), { Ccy: account.currency });
    w.leaf('CdtDbtInd', indicator(direction));
  }
  if (tx.debtor !== undefined || tx.creditor !== undefined) {
    w.open('RltdPties');
    if (tx.debtor !== undefined) writeParty(w, 'Dbtr', tx.debtor, `${at}.debtor`);
    if (tx.creditor !== undefined) writeParty(w, 'Cdtr', tx.creditor, `${at}.creditor`);
    w.close();
  }
  if (tx.remittanceInformation !== undefined || tx.creditorReference !== undefined) {
    w.open('RmtInf');
    if (tx.remittanceInformation !== undefined) w.leaf('Ustrd', fitText(`${at}.remittanceInformation`, tx.remittanceInformation, 140, 'UNICODE', false));
    if (tx.creditorReference !== undefined) {
      w.open('Strd').open('CdtrRefInf').path(['Tp', 'CdOrPrtry', 'Cd'], 'SCOR');
      w.leaf('Ref', checkId(`${at}.creditorReference`, tx.creditorReference))
        .close()
        .close();
    }
    w.close();
  }
  if (tx.returnReasonCode !== undefined || tx.returnReasonText !== undefined) {
    w.open('RtrInf');
    if (tx.returnReasonCode !== undefined) w.path(['Rsn', 'Cd'], checkCode(`${at}.returnReasonCode`, tx.returnReasonCode));
    if (tx.returnReasonText !== undefined) w.leaf('AddtlInf', fitText(`${at}.returnReasonText`, tx.returnReasonText, 105, 'UNICODE', true));
    w.close();
  }
  w.close();
}

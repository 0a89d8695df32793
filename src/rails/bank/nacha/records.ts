/**
 * The reading of each record type: its fields checked one by one (character set, digits, dates,
 * constants, check digits, codes) and returned as the types of types.ts. Rules that span records
 * (order, counts, totals, hashes) are in inspect.ts.
 */

import { changeCodeInfo } from './codes.js';
import { readCorrection } from './corrections.js';
import type { NachaProblem, NachaRule } from './errors.js';
import { ENTRY_HASH_MODULUS, firstNonNachaChar, isCreditCode, isDigits, isValidHhmm, isValidRoutingNumber, isValidYymmdd } from './fields.js';
import { ADDENDA_05, ADDENDA_98, ADDENDA_99, BATCH_CONTROL, BATCH_HEADER, type Column, ENTRY_DETAIL, FILE_CONTROL, FILE_HEADER, slice } from './layout.js';
import type { NachaBatchControl, NachaBatchHeader, NachaEntry, NachaFileControl, NachaFileHeader } from './types.js';

/** SEC codes whose entry detail record has the layout of ENTRY_DETAIL (CIE, MTE, CTX, IAT… differ). */
const SUPPORTED_SEC_CODES = new Set(['PPD', 'CCD', 'WEB', 'TEL', 'COR']);

/** Demand and savings transaction codes: 21/26/31/36 return or NOC, 22/27/32/37 live, 23/28/33/38 prenote, 24/29/34/39 zero-dollar. */
const LIVE_CODES = new Set([22, 27, 32, 37]);
const PRENOTE_CODES = new Set([23, 28, 33, 38]);
const ZERO_DOLLAR_CODES = new Set([24, 29, 34, 39]);
export const RETURN_OR_NOC_CODES = new Set([21, 26, 31, 36]);

/** What the entries of a batch add up to, for its control record. */
export interface BatchSums {
  entryAddendaCount: number;
  hash: bigint;
  debit: bigint;
  credit: bigint;
}

/** The record being read, its line, and the problems found so far. */
export class Reader {
  readonly problems: NachaProblem[] = [];
  line = 0;
  record = '';

  report(rule: NachaRule, message: string, line = this.line): void {
    this.problems.push({ line, rule, message });
  }

  raw(c: Column): string {
    return slice(this.record, c);
  }

  /** An alphanumeric field, trimmed; its characters must be printable ASCII, and it may be required. */
  text(c: Column, name: string, required = false): string {
    const v = this.raw(c);
    const bad = firstNonNachaChar(v);
    if (bad !== undefined) this.report('charset', `${name} (columns ${c.start}-${c.end}) holds ${JSON.stringify(bad)}, outside the NACHA character set`);
    if (required && v.trim() === '') this.report('required', `${name} (columns ${c.start}-${c.end}) is blank`);
    return v.trim();
  }

  /** A numeric field: all digits. */
  digits(c: Column, name: string, rule: NachaRule = 'numeric'): string | undefined {
    const v = this.raw(c);
    if (isDigits(v, c.end - c.start + 1)) return v;
    this.report(rule, `${name} (columns ${c.start}-${c.end}) must be digits, found ${JSON.stringify(v)}`);
    return undefined;
  }

  number(c: Column, name: string, rule: NachaRule = 'numeric'): number | undefined {
    const v = this.digits(c, name, rule);
    return v === undefined ? undefined : Number(v);
  }

  amount(c: Column, name: string, rule: NachaRule = 'numeric'): bigint | undefined {
    const v = this.digits(c, name, rule);
    return v === undefined ? undefined : BigInt(v);
  }

  constant(c: Column, name: string, expected: string): void {
    const v = this.raw(c);
    if (v !== expected) this.report('constant', `${name} (columns ${c.start}-${c.end}) must be ${JSON.stringify(expected)}, found ${JSON.stringify(v)}`);
  }

  blank(c: Column, name: string): void {
    if (this.raw(c).trim() !== '') this.report('constant', `${name} (columns ${c.start}-${c.end}) is reserved and must be blank`);
  }

  date(c: Column, name: string, optional = false): string {
    const v = this.raw(c);
    if (optional && v.trim() === '') return '';
    if (!isValidYymmdd(v)) this.report('date', `${name} (columns ${c.start}-${c.end}) must be a date YYMMDD, found ${JSON.stringify(v)}`);
    return v;
  }
}

export function readFileHeader(r: Reader): NachaFileHeader {
  const F = FILE_HEADER;
  r.constant(F.priorityCode, 'priority code', '01');
  const dest = r.raw(F.immediateDestination);
  const routing = dest.slice(1);
  if (dest[0] !== ' ' || !isDigits(routing, 9))
    r.report('numeric', `immediate destination (columns 4-13) must be a space and a 9-digit routing number, found ${JSON.stringify(dest)}`);
  else if (!isValidRoutingNumber(routing)) r.report('routing-check-digit', `immediate destination ${routing} fails the ABA check digit`);
  const immediateOrigin = r.text(F.immediateOrigin, 'immediate origin', true);
  const fileCreationDate = r.date(F.fileCreationDate, 'file creation date');
  const time = r.raw(F.fileCreationTime);
  if (time.trim() !== '' && !isValidHhmm(time)) r.report('date', `file creation time (columns 30-33) must be HHMM, found ${JSON.stringify(time)}`);
  const fileIdModifier = r.raw(F.fileIdModifier);
  if (!/^[A-Z0-9]$/.test(fileIdModifier)) r.report('charset', `file ID modifier (column 34) must be A-Z or 0-9, found ${JSON.stringify(fileIdModifier)}`);
  r.constant(F.recordSize, 'record size', '094');
  r.constant(F.blockingFactor, 'blocking factor', '10');
  r.constant(F.formatCode, 'format code', '1');
  return {
    immediateDestination: routing,
    immediateOrigin,
    fileCreationDate,
    fileCreationTime: time.trim(),
    fileIdModifier,
    immediateDestinationName: r.text(F.immediateDestinationName, 'immediate destination name'),
    immediateOriginName: r.text(F.immediateOriginName, 'immediate origin name'),
    referenceCode: r.text(F.referenceCode, 'reference code'),
  };
}

export function readBatchHeader(r: Reader, previousBatchNumber: number): NachaBatchHeader {
  const B = BATCH_HEADER;
  const serviceClassCode = r.raw(B.serviceClassCode);
  if (!['200', '220', '225'].includes(serviceClassCode))
    r.report('service-class', `service class code (columns 2-4) must be 200, 220 or 225, found ${JSON.stringify(serviceClassCode)}`);
  const sec = r.raw(B.standardEntryClassCode);
  if (!SUPPORTED_SEC_CODES.has(sec))
    r.report('sec-code', `standard entry class code ${JSON.stringify(sec)} is not one this reader knows (PPD, CCD, WEB, TEL, COR)`);
  const settlement = r.raw(B.settlementDate);
  if (settlement.trim() !== '' && !(isDigits(settlement, 3) && Number(settlement) >= 1 && Number(settlement) <= 366))
    r.report('date', `settlement date (columns 76-78) must be blank or a Julian day 001-366, found ${JSON.stringify(settlement)}`);
  const status = r.raw(B.originatorStatusCode);
  if (status !== '1' && status !== '2') r.report('constant', `originator status code (column 79) must be 1 or 2, found ${JSON.stringify(status)}`);
  const odfi = r.digits(B.originatingDFIIdentification, 'originating DFI identification') ?? '';
  const batchNumber = r.number(B.batchNumber, 'batch number') ?? 0;
  if (batchNumber <= previousBatchNumber) r.report('batch-number', `batch number ${batchNumber} must be above the previous batch's (${previousBatchNumber})`);
  return {
    serviceClassCode: Number(serviceClassCode) as 200 | 220 | 225,
    companyName: r.text(B.companyName, 'company name', true),
    companyDiscretionaryData: r.text(B.companyDiscretionaryData, 'company discretionary data'),
    companyIdentification: r.text(B.companyIdentification, 'company identification', true),
    standardEntryClassCode: sec,
    companyEntryDescription: r.text(B.companyEntryDescription, 'company entry description', true),
    companyDescriptiveDate: r.text(B.companyDescriptiveDate, 'company descriptive date'),
    // The ACH Operator does not edit the effective date of a notification of change, and RDFIs are
    // known to send zeros there (moov-io/ach's cor-example.ach); it means nothing for a NOC.
    effectiveEntryDate: sec === 'COR' ? r.raw(B.effectiveEntryDate) : r.date(B.effectiveEntryDate, 'effective entry date'),
    settlementDate: settlement.trim(),
    originatorStatusCode: status,
    originatingDFIIdentification: odfi,
    batchNumber,
  };
}

export function readEntry(r: Reader, batch: NachaBatchHeader): NachaEntry {
  const E = ENTRY_DETAIL;
  const code = r.number(E.transactionCode, 'transaction code', 'transaction-code') ?? 0;
  const cor = batch.standardEntryClassCode === 'COR';
  const known = LIVE_CODES.has(code) || PRENOTE_CODES.has(code) || ZERO_DOLLAR_CODES.has(code) || RETURN_OR_NOC_CODES.has(code);
  if (!known) r.report('transaction-code', `transaction code ${code} is not a demand or savings account code this reader knows`);
  else if (cor && !RETURN_OR_NOC_CODES.has(code)) r.report('transaction-code', `a COR batch carries transaction codes 21, 26, 31, 36, found ${code}`);
  const direction = isCreditCode(code) ? 'credit' : 'debit';
  if (known && batch.serviceClassCode === 220 && direction === 'debit')
    r.report('service-class', `a debit (transaction code ${code}) in a credits-only batch (220)`);
  if (known && batch.serviceClassCode === 225 && direction === 'credit')
    r.report('service-class', `a credit (transaction code ${code}) in a debits-only batch (225)`);

  const rdfi = r.digits(E.receivingDFIIdentification, 'receiving DFI identification') ?? r.raw(E.receivingDFIIdentification);
  const checkDigit = r.digits(E.checkDigit, 'check digit') ?? r.raw(E.checkDigit);
  if (isDigits(rdfi, 8) && isDigits(checkDigit, 1) && !isValidRoutingNumber(rdfi + checkDigit))
    r.report('routing-check-digit', `routing number ${rdfi + checkDigit} fails the ABA check digit`);

  const amount = r.amount(E.amount, 'amount') ?? 0n;
  if (known) {
    if (LIVE_CODES.has(code) && amount === 0n) r.report('amount', `a live entry (transaction code ${code}) must have an amount above zero`);
    if ((PRENOTE_CODES.has(code) || ZERO_DOLLAR_CODES.has(code)) && amount !== 0n)
      r.report('amount', `a prenote or zero-dollar entry (transaction code ${code}) must have amount zero`);
    if (cor && amount !== 0n) r.report('amount', 'a notification of change carries amount zero');
  }

  const indicator = r.raw(E.addendaRecordIndicator);
  if (indicator !== '0' && indicator !== '1') r.report('addenda', `addenda record indicator (column 79) must be 0 or 1, found ${JSON.stringify(indicator)}`);
  const traceNumber = r.digits(E.traceNumber, 'trace number', 'trace-number') ?? r.raw(E.traceNumber);
  if (isDigits(traceNumber, 15) && batch.originatingDFIIdentification !== '' && !traceNumber.startsWith(batch.originatingDFIIdentification))
    r.report('trace-number', `trace number ${traceNumber} must start with the batch's originating DFI identification ${batch.originatingDFIIdentification}`);

  return {
    line: r.line,
    transactionCode: code,
    direction,
    prenote: PRENOTE_CODES.has(code),
    receivingDFIIdentification: rdfi,
    checkDigit,
    receivingDFIRoutingNumber: rdfi + checkDigit,
    dfiAccountNumber: r.text(E.dfiAccountNumber, 'DFI account number', true),
    amount,
    individualIdentificationNumber: r.text(E.individualIdentificationNumber, 'individual identification number'),
    individualName: r.text(E.individualName, 'individual name', true),
    discretionaryData: r.text(E.discretionaryData, 'discretionary data'),
    addendaRecordIndicator: indicator === '1' ? 1 : 0,
    traceNumber,
  };
}

export function readAddenda(r: Reader, batch: NachaBatchHeader, e: NachaEntry): void {
  const typeCode = r.raw(ADDENDA_05.addendaTypeCode);
  const cor = batch.standardEntryClassCode === 'COR';
  if (typeCode === '05') {
    if (cor) r.report('addenda', 'a COR batch carries addenda 98, not 05');
    const A = ADDENDA_05;
    e.paymentRelatedInformation = r.text(A.paymentRelatedInformation, 'payment-related information');
    const seq = r.number(A.addendaSequenceNumber, 'addenda sequence number');
    if (seq !== undefined && seq !== 1) r.report('addenda', `addenda sequence number of an entry's only addenda must be 0001, found ${seq}`);
    const entrySeq = r.digits(A.entryDetailSequenceNumber, 'entry detail sequence number');
    if (entrySeq !== undefined && entrySeq !== e.traceNumber.slice(8))
      r.report('addenda', `entry detail sequence number ${entrySeq} must be the last 7 digits of the entry's trace number ${e.traceNumber}`);
  } else if (typeCode === '99') {
    if (cor) r.report('addenda', 'a COR batch carries addenda 98, not 99');
    const A = ADDENDA_99;
    const returnCode = r.raw(A.returnReasonCode);
    if (!/^R[0-9]{2}$/.test(returnCode)) r.report('addenda', `return reason code (columns 4-6) must be R and two digits, found ${JSON.stringify(returnCode)}`);
    e.return = {
      returnCode,
      originalTraceNumber: r.digits(A.originalEntryTraceNumber, 'original entry trace number', 'trace-number') ?? '',
      dateOfDeath: r.date(A.dateOfDeath, 'date of death', true),
      originalReceivingDFIIdentification: r.digits(A.originalReceivingDFIIdentification, 'original receiving DFI identification') ?? '',
      addendaInformation: r.text(A.addendaInformation, 'addenda information'),
      traceNumber: addendaTrace(r, A.traceNumber, e),
    };
  } else if (typeCode === '98') {
    if (!cor) r.report('addenda', 'a notification of change addenda (98) belongs in a COR batch');
    const A = ADDENDA_98;
    const changeCode = r.raw(A.changeCode);
    if (!changeCodeInfo(changeCode)) r.report('addenda', `change code ${JSON.stringify(changeCode)} (columns 4-6) is not C01…C14`);
    const correctedField = r.raw(A.correctedData);
    const correctedData = r.text(A.correctedData, 'corrected data', true);
    e.change = {
      changeCode,
      originalTraceNumber: r.digits(A.originalEntryTraceNumber, 'original entry trace number', 'trace-number') ?? '',
      originalReceivingDFIIdentification: r.digits(A.originalReceivingDFIIdentification, 'original receiving DFI identification') ?? '',
      correctedData,
      corrected: readCorrection(changeCode, correctedField),
      traceNumber: addendaTrace(r, A.traceNumber, e),
    };
  } else {
    r.report('addenda', `addenda type code ${JSON.stringify(typeCode)} (columns 2-3) is not one this reader knows (05, 98, 99)`);
  }
}

/** An addenda 98/99 repeats the trace number of its entry. */
function addendaTrace(r: Reader, c: Column, e: NachaEntry): string {
  const trace = r.digits(c, 'trace number', 'trace-number') ?? '';
  if (trace !== '' && trace !== e.traceNumber) r.report('trace-number', `the addenda's trace number ${trace} must be its entry's, ${e.traceNumber}`);
  return trace;
}

export function readBatchControl(r: Reader, h: NachaBatchHeader, o: BatchSums): NachaBatchControl {
  const C = BATCH_CONTROL;
  const serviceClassCode = r.number(C.serviceClassCode, 'service class code') ?? 0;
  const entryAddendaCount = r.number(C.entryAddendaCount, 'entry/addenda count') ?? 0;
  const entryHash = r.amount(C.entryHash, 'entry hash') ?? 0n;
  const totalDebit = r.amount(C.totalDebitAmount, 'total debit amount') ?? 0n;
  const totalCredit = r.amount(C.totalCreditAmount, 'total credit amount') ?? 0n;
  const companyIdentification = r.text(C.companyIdentification, 'company identification');
  const messageAuthenticationCode = r.text(C.messageAuthenticationCode, 'message authentication code');
  r.blank(C.reserved, 'reserved');
  const odfi = r.raw(C.originatingDFIIdentification);
  const batchNumber = r.number(C.batchNumber, 'batch number') ?? 0;
  const n = h.batchNumber;
  const mismatch = (what: string, found: string | number | bigint, expected: string | number | bigint, rule: NachaRule = 'batch-control') => {
    if (found !== expected) r.report(rule, `batch ${n}: ${what} is ${found} in the batch control record, ${expected} by the batch`);
  };
  mismatch('the service class code', serviceClassCode, h.serviceClassCode);
  mismatch('the entry/addenda count', entryAddendaCount, o.entryAddendaCount);
  mismatch('the entry hash', entryHash, o.hash % ENTRY_HASH_MODULUS, 'entry-hash');
  mismatch('the total debit amount', totalDebit, o.debit);
  mismatch('the total credit amount', totalCredit, o.credit);
  mismatch('the company identification', companyIdentification, h.companyIdentification);
  mismatch('the originating DFI identification', odfi, h.originatingDFIIdentification);
  mismatch('the batch number', batchNumber, h.batchNumber);
  return {
    serviceClassCode,
    entryAddendaCount,
    entryHash,
    totalDebit,
    totalCredit,
    companyIdentification,
    messageAuthenticationCode,
    originatingDFIIdentification: odfi,
    batchNumber,
  };
}

export function readFileControl(r: Reader): NachaFileControl {
  const C = FILE_CONTROL;
  const control = {
    batchCount: r.number(C.batchCount, 'batch count') ?? 0,
    blockCount: r.number(C.blockCount, 'block count') ?? 0,
    entryAddendaCount: r.number(C.entryAddendaCount, 'entry/addenda count') ?? 0,
    entryHash: r.amount(C.entryHash, 'entry hash') ?? 0n,
    totalDebit: r.amount(C.totalDebitAmount, 'total debit amount') ?? 0n,
    totalCredit: r.amount(C.totalCreditAmount, 'total credit amount') ?? 0n,
  };
  r.blank(C.reserved, 'reserved');
  return control;
}

/**
 * The one reading of a NACHA file that both parseNachaFile and validateNachaFile use: it walks the
 * records in order, checks every rule of each record and of the file's structure and totals, and
 * returns the file it read together with every problem found. parse refuses the file on the first
 * problem; validate lists them all. A rule is therefore written once, here.
 *
 * Tolerated, because banks and editors produce them and they carry no meaning: "\r\n" line ends,
 * whitespace after the 94th column, a missing final line break, empty lines at the end, a UTF-8
 * byte order mark. Everything else is a problem: a record that is not 94 characters (a short line
 * may be a cut one, so it is not padded back), records out of order, a file that ends before its
 * file control record, counts, hashes and totals that do not match the entries.
 */

import { changeCodeInfo } from './codes.js';
import { type NachaProblem, type NachaRule } from './errors.js';
import {
  BLOCKING_FACTOR,
  ENTRY_HASH_MODULUS,
  PADDING_RECORD,
  RECORD_LENGTH,
  firstNonNachaChar,
  isCreditCode,
  isDigits,
  isValidHhmm,
  isValidRoutingNumber,
  isValidYymmdd,
} from './fields.js';
import { ADDENDA_05, ADDENDA_98, ADDENDA_99, BATCH_CONTROL, BATCH_HEADER, type Column, ENTRY_DETAIL, FILE_CONTROL, FILE_HEADER, slice } from './layout.js';
import type { NachaBatch, NachaBatchControl, NachaBatchHeader, NachaCorrection, NachaEntry, NachaFile, NachaFileControl, NachaFileHeader } from './types.js';

export interface Inspection {
  /** The file as read; undefined when a problem was found. */
  file: NachaFile | undefined;
  problems: NachaProblem[];
}

/** SEC codes whose entry detail record has the layout of ENTRY_DETAIL (CIE, MTE, CTX, IAT… differ). */
const SUPPORTED_SEC_CODES = new Set(['PPD', 'CCD', 'WEB', 'TEL', 'COR']);

/** Demand and savings transaction codes: 21/26/31/36 return or NOC, 22/27/32/37 live, 23/28/33/38 prenote, 24/29/34/39 zero-dollar. */
const LIVE_CODES = new Set([22, 27, 32, 37]);
const PRENOTE_CODES = new Set([23, 28, 33, 38]);
const ZERO_DOLLAR_CODES = new Set([24, 29, 34, 39]);
const RETURN_OR_NOC_CODES = new Set([21, 26, 31, 36]);

export const isPrenoteCode = (code: number): boolean => PRENOTE_CODES.has(code);

/** The lines of a text with the tolerated noise removed, numbered from 1. */
function splitRecords(text: string): { line: number; record: string }[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  return lines.map((l, i) => {
    // Only whitespace past column 94 is noise; anything else keeps the line too long.
    const record = l.length > RECORD_LENGTH && l.slice(RECORD_LENGTH).trim() === '' ? l.slice(0, RECORD_LENGTH) : l.replace(/\r$/, '');
    return { line: i + 1, record };
  });
}

class Reader {
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

interface OpenBatch {
  batch: NachaBatch;
  /** The entry whose addenda may follow. */
  lastEntry: NachaEntry | undefined;
  addendaOfLast: number;
  /** Entry and addenda records so far, as the batch control counts them. */
  entryAddendaCount: number;
  hash: bigint;
  debit: bigint;
  credit: bigint;
  lastTrace: string | undefined;
}

function describe(type: string): string {
  return (
    { '1': 'file header (1)', '5': 'batch header (5)', '6': 'entry detail (6)', '7': 'addenda (7)', '8': 'batch control (8)', '9': 'file control (9)' }[type] ??
    `record type ${type}`
  );
}

export function inspectNachaFile(text: string): Inspection {
  const r = new Reader();
  const records = splitRecords(text);

  const first = records[0]?.record ?? '';
  if (records.length === 0) {
    r.report('not-nacha', 'the file is empty', 0);
    return { file: undefined, problems: r.problems };
  }
  if (!first.startsWith('101')) {
    const what = first.trimStart().startsWith('<') ? 'an XML document (ISO 20022?), not a NACHA file' : 'not a NACHA file';
    r.report('not-nacha', `${what}: a NACHA file starts with a file header record "101…"`, records[0].line);
    return { file: undefined, problems: r.problems };
  }

  let header: NachaFileHeader | undefined;
  let control: NachaFileControl | undefined;
  const batches: NachaBatch[] = [];
  let open: OpenBatch | undefined;
  let fileControlLine = 0;
  let lastBatchNumber = 0;
  const traces = new Set<string>();
  // The batch whose structure is broken (a record out of order) is skipped to its control record.
  let state: 'header' | 'batches' | 'in-batch' | 'padding' = 'header';

  const closeEntry = (): void => {
    const o = open;
    const e = o?.lastEntry;
    if (!o || !e) return;
    if (e.addendaRecordIndicator === 1 && o.addendaOfLast === 0)
      r.report('addenda', `entry ${e.traceNumber} has addenda record indicator 1 but no addenda record follows`, e.line);
    if (o.batch.header.standardEntryClassCode === 'COR' && !e.change)
      r.report('addenda', `entry ${e.traceNumber} of a COR batch has no notification of change addenda (98)`, e.line);
    // Outside a COR batch, codes 21/26/31/36 are returns, which always carry their addenda 99;
    // an addenda 99 on a forward entry would make a payout look returned.
    const returnCode = RETURN_OR_NOC_CODES.has(e.transactionCode);
    if (o.batch.header.standardEntryClassCode !== 'COR' && returnCode && !e.return)
      r.report('addenda', `entry ${e.traceNumber} has return transaction code ${e.transactionCode} but no return addenda (99)`, e.line);
    if (e.return && !returnCode)
      r.report('addenda', `entry ${e.traceNumber} carries a return addenda (99) but transaction code ${e.transactionCode} is not a return's`, e.line);
    o.lastEntry = undefined;
  };

  for (const { line, record } of records) {
    r.line = line;
    r.record = record;
    if (state === 'padding') {
      if (record !== PADDING_RECORD) r.report('blocking', 'after the file control record only padding records of 94 "9" may follow');
      continue;
    }
    if (record.length !== RECORD_LENGTH) {
      r.report('record-length', `a record is ${RECORD_LENGTH} characters, this line has ${record.length}`);
      continue;
    }
    const type = record[0];
    if (!'156789'.includes(type)) {
      r.report('record-type', `unknown record type ${JSON.stringify(type)} (NACHA records are 1, 5, 6, 7, 8, 9)`);
      continue;
    }
    const expected = { header: '1', batches: '5 or 9', 'in-batch': '6, 7 or 8' }[state];
    const allowed = state === 'header' ? type === '1' : state === 'batches' ? type === '5' || type === '9' : '678'.includes(type);
    if (!allowed) {
      r.report('record-order', `a ${describe(type)} cannot come here: expected ${expected}`);
      continue;
    }

    switch (type) {
      case '1':
        header = readFileHeader(r);
        state = 'batches';
        break;
      case '5': {
        const h = readBatchHeader(r, lastBatchNumber);
        lastBatchNumber = Math.max(lastBatchNumber, h.batchNumber);
        const batch: NachaBatch = { line, header: h, entries: [], control: undefined as unknown as NachaBatchControl };
        open = { batch, lastEntry: undefined, addendaOfLast: 0, entryAddendaCount: 0, hash: 0n, debit: 0n, credit: 0n, lastTrace: undefined };
        state = 'in-batch';
        break;
      }
      case '6': {
        const o = open!;
        closeEntry();
        const e = readEntry(r, o.batch.header);
        if (o.lastTrace !== undefined && e.traceNumber <= o.lastTrace)
          r.report('trace-number', `trace number ${e.traceNumber} is not above the previous one in its batch (${o.lastTrace})`);
        else if (traces.has(e.traceNumber)) r.report('trace-number', `trace number ${e.traceNumber} appears twice in the file`);
        traces.add(e.traceNumber);
        o.lastTrace = e.traceNumber;
        o.batch.entries.push(e);
        o.lastEntry = e;
        o.addendaOfLast = 0;
        o.entryAddendaCount += 1;
        o.hash += BigInt(isDigits(e.receivingDFIIdentification, 8) ? e.receivingDFIIdentification : '0');
        if (e.direction === 'credit') o.credit += e.amount;
        else o.debit += e.amount;
        break;
      }
      case '7': {
        const o = open!;
        o.entryAddendaCount += 1;
        const e = o.lastEntry;
        if (!e) {
          r.report('record-order', 'an addenda (7) must follow an entry detail record (6)');
          break;
        }
        o.addendaOfLast += 1;
        if (e.addendaRecordIndicator !== 1) r.report('addenda', `entry ${e.traceNumber} has addenda record indicator 0 but an addenda record follows`);
        if (o.addendaOfLast > 1) r.report('addenda', `entry ${e.traceNumber} has more than one addenda record (PPD, CCD and returns carry at most one)`);
        readAddenda(r, o.batch.header, e);
        break;
      }
      case '8': {
        const o = open!;
        closeEntry();
        if (o.batch.entries.length === 0) r.report('record-order', `batch ${o.batch.header.batchNumber} has no entry`);
        o.batch.control = readBatchControl(r, o);
        batches.push(o.batch);
        open = undefined;
        state = 'batches';
        break;
      }
      case '9':
        control = readFileControl(r);
        fileControlLine = line;
        state = 'padding';
        break;
    }
  }

  const lastLine = records[records.length - 1].line;
  if (state !== 'padding') {
    const inside = open ? ` inside batch ${open.batch.header.batchNumber}, which has no batch control record (8), and` : '';
    r.report('truncated', `the file ends after line ${lastLine}${inside} without a file control record (9): it is cut short`, lastLine);
  }
  if (control && header) checkFileControl(r, fileControlLine, control, batches, records.length);
  if (records.length % BLOCKING_FACTOR !== 0)
    r.report('blocking', `the file has ${records.length} records; it must be padded with "9" records to a multiple of ${BLOCKING_FACTOR}`, lastLine);
  else if (fileControlLine > 0 && records.length - fileControlLine >= BLOCKING_FACTOR)
    r.report('blocking', `more than a block of padding records follows the file control record`, lastLine);

  const file = r.problems.length === 0 && header && control ? { header, batches, control, recordCount: records.length } : undefined;
  return { file, problems: r.problems };
}

function readFileHeader(r: Reader): NachaFileHeader {
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

function readBatchHeader(r: Reader, previousBatchNumber: number): NachaBatchHeader {
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

function readEntry(r: Reader, batch: NachaBatchHeader): NachaEntry {
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

function readAddenda(r: Reader, batch: NachaBatchHeader, e: NachaEntry): void {
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

/**
 * The corrected values of a notification of change, read from the 29-column corrected-data field
 * as Appendix Five lays it out: C01 account (1-17); C02 routing (1-9); C03 routing (1-9), account
 * (13-29); C05 transaction code (1-2); C06 account (1-17), transaction code (21-22); C07 routing
 * (1-9), account (10-26), transaction code (27-28). Some banks pack the values without the
 * positional gaps; when the positional reading fails, whitespace-separated values are read.
 */
export function readCorrection(changeCode: string, field: string): NachaCorrection | undefined {
  const f = field.padEnd(29, ' ');
  const words = f.trim().split(/\s+/).filter(Boolean);
  const txCode = (s: string): number | undefined => (/^[0-9]{2}$/.test(s) ? Number(s) : undefined);
  const account = (s: string): string | undefined => (s.trim() !== '' && !/\s/.test(s.trim()) ? s.trim() : undefined);
  const routing = (s: string): string | undefined => (isDigits(s, 9) ? s : undefined);
  switch (changeCode) {
    case 'C01': {
      const accountNumber = account(f.slice(0, 17));
      return accountNumber ? { accountNumber } : undefined;
    }
    case 'C02': {
      const routingNumber = routing(f.slice(0, 9));
      return routingNumber ? { routingNumber } : undefined;
    }
    case 'C03': {
      const routingNumber = routing(f.slice(0, 9));
      const accountNumber = account(f.slice(9, 29));
      return routingNumber && accountNumber ? { routingNumber, accountNumber } : undefined;
    }
    case 'C05': {
      const transactionCode = txCode(f.slice(0, 2));
      return transactionCode !== undefined && f.slice(2).trim() === '' ? { transactionCode } : undefined;
    }
    case 'C06': {
      let accountNumber = account(f.slice(0, 17));
      let transactionCode = txCode(f.slice(17).trim());
      if ((!accountNumber || transactionCode === undefined) && words.length === 2) [accountNumber, transactionCode] = [words[0], txCode(words[1])];
      return accountNumber && transactionCode !== undefined ? { accountNumber, transactionCode } : undefined;
    }
    case 'C07': {
      const routingNumber = routing(f.slice(0, 9));
      let accountNumber = account(f.slice(9, 26));
      let transactionCode = txCode(f.slice(26, 29).trim());
      const rest = f.slice(9).trim().split(/\s+/).filter(Boolean);
      if ((!accountNumber || transactionCode === undefined) && rest.length === 2) [accountNumber, transactionCode] = [rest[0], txCode(rest[1])];
      return routingNumber && accountNumber && transactionCode !== undefined ? { routingNumber, accountNumber, transactionCode } : undefined;
    }
    default:
      return undefined;
  }
}

function readBatchControl(r: Reader, o: OpenBatch): NachaBatchControl {
  const C = BATCH_CONTROL;
  const h = o.batch.header;
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

function readFileControl(r: Reader): NachaFileControl {
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

/** The file control record against the batch controls (which were checked against the entries). */
function checkFileControl(r: Reader, line: number, c: NachaFileControl, batches: NachaBatch[], recordCount: number): void {
  const sum = (f: (b: NachaBatch) => bigint): bigint => batches.reduce((s, b) => s + f(b), 0n);
  const mismatch = (what: string, found: number | bigint, expected: number | bigint, rule: NachaRule = 'file-control') => {
    if (found !== expected) r.report(rule, `${what} is ${found} in the file control record, ${expected} by the file`, line);
  };
  mismatch('the batch count', c.batchCount, batches.length);
  mismatch('the block count', c.blockCount, Math.ceil(recordCount / BLOCKING_FACTOR));
  mismatch(
    'the entry/addenda count',
    c.entryAddendaCount,
    batches.reduce((s, b) => s + b.control.entryAddendaCount, 0),
  );
  mismatch('the entry hash', c.entryHash, sum((b) => b.control.entryHash) % ENTRY_HASH_MODULUS, 'entry-hash');
  mismatch(
    'the total debit amount',
    c.totalDebit,
    sum((b) => b.control.totalDebit),
  );
  mismatch(
    'the total credit amount',
    c.totalCredit,
    sum((b) => b.control.totalCredit),
  );
}

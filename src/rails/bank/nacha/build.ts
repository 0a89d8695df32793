/**
 * Writes a NACHA file of PPD and CCD batches. Everything that varies goes in the input (the
 * creation instant and its time zone, the file ID modifier, the batches in order), so the same
 * input gives the same bytes: a file can be rebuilt to check an archived copy, and its hash names it.
 *
 * Decisions:
 * - Creation date and time are taken from a Date and an IANA time zone (the bank's, usually
 *   America/New_York for FedACH windows), formatted YYMMDD / HHMM in that zone.
 * - Same Day ACH: a batch is same-day when its effective entry date is the file's creation date;
 *   `sameDay: true` asks for that and the builder checks it, writes "SD" + the settlement time
 *   (HHMM) into the company descriptive date (the convention moov-io/ach and Nacha's guidance use)
 *   and refuses entries above the $1,000,000 per-payment limit. A batch not marked same-day must
 *   have a later effective date, so a payout never becomes a same-day one by accident.
 * - Free text (names, descriptions, remittance information) is transliterated to upper-case ASCII
 *   (é → E); identifiers (company id, account number, payment reference, discretionary data) are
 *   never altered: anything outside the set is refused. A value too long is refused, except the
 *   receiver's name, which is cut at 22 characters as banks do (the account number, not the name,
 *   routes the money).
 * - Records are joined by "\n" and the file ends with one; `lineEnding: '\r\n'` when a bank asks.
 * - The service class code is computed from the entries, batch numbers count from 1, trace numbers
 *   are the batch's ODFI identification and a 7-digit sequence ascending across the whole file.
 *
 * Invalid input throws a NachaError naming the field; nothing is returned in part. The finished
 * text is read back by the same checks validateNachaFile runs, so a file this returns passes them.
 */

import { createHash } from 'node:crypto';
import { NachaError } from './errors.js';
import {
  BLOCKING_FACTOR,
  ENTRY_HASH_MODULUS,
  MAX_ENTRY_AMOUNT,
  MAX_TOTAL_AMOUNT,
  PADDING_RECORD,
  SAME_DAY_ENTRY_LIMIT,
  alpha,
  isCreditCode,
  isDigits,
  isValidHhmm,
  isValidRoutingNumber,
  isValidYymmdd,
  numeric,
  toNachaText,
} from './fields.js';
import { inspectNachaFile } from './inspect.js';
import { ADDENDA_05, BATCH_CONTROL, BATCH_HEADER, ENTRY_DETAIL, FILE_CONTROL, FILE_HEADER, assemble } from './layout.js';

/** 22/32 credit checking/savings, 27/37 debit; 23/33/28/38 are their zero-amount prenotes. */
export type NachaTransactionCode = 22 | 23 | 27 | 28 | 32 | 33 | 37 | 38;

export interface NachaEntryInput {
  transactionCode: NachaTransactionCode;
  /** The receiver's 9-digit ABA routing number; its check digit is verified. */
  receivingDFIRoutingNumber: string;
  /** Up to 17 characters: digits, upper-case letters, hyphens. */
  dfiAccountNumber: string;
  /** Cents, 1 to 9,999,999,999; 0 for a prenote. */
  amount: bigint;
  /** Up to 15 characters; Corridor's payment reference. */
  individualIdentificationNumber: string;
  /** The receiver (for CCD the receiving company); cut at 22 characters. */
  individualName: string;
  /** Up to 2 characters for the ODFI; blank by default. */
  discretionaryData?: string;
  /** One addenda 05 with up to 80 characters of payment-related information. */
  addenda?: { paymentRelatedInformation: string };
}

export interface NachaBatchInput {
  /** Up to 16 characters. */
  companyName: string;
  /** Up to 20 characters. */
  companyDiscretionaryData?: string;
  /** Exactly as the ODFI assigned it, up to 10 characters (often "1" + EIN). */
  companyIdentification: string;
  standardEntryClassCode: 'PPD' | 'CCD';
  /** Up to 10 characters, shown on the receiver's statement, e.g. "PAYOUT". */
  companyEntryDescription: string;
  /** Up to 6 characters; not with sameDay, which writes "SD" + settlement time here. */
  companyDescriptiveDate?: string;
  /** YYMMDD: the banking day the entries settle. */
  effectiveEntryDate: string;
  /** A Same Day ACH batch: effectiveEntryDate must be the file creation date. */
  sameDay?: boolean;
  /** HHMM the same-day batch is meant to settle at; required with sameDay. */
  sameDaySettlementTime?: string;
  /** The first 8 digits of the ODFI's routing number. */
  originatingDFIIdentification: string;
  entries: NachaEntryInput[];
}

export interface NachaFileInput {
  /** The 9-digit routing number of the bank receiving the file (written " " + 9 digits). */
  immediateDestination: string;
  /** A 9-digit routing number (written " " + 9 digits) or exactly 10 characters, e.g. "1" + EIN. */
  immediateOrigin: string;
  /** Up to 23 characters each. */
  immediateDestinationName: string;
  immediateOriginName: string;
  /** The creation instant, written as YYMMDD and HHMM in timeZone. */
  fileCreatedAt: Date;
  /** An IANA time zone, e.g. "America/New_York". */
  timeZone: string;
  /** A-Z or 0-9: distinguishes files created the same day (and minute). */
  fileIdModifier: string;
  /** Up to 8 characters for the originator's own use. */
  referenceCode?: string;
  /** Record separator; the file also ends with one. Default "\n". */
  lineEnding?: '\n' | '\r\n';
  batches: NachaBatchInput[];
}

export interface NachaTotals {
  batchCount: number;
  /** Blocks of 10 records, padding included. */
  blockCount: number;
  recordCount: number;
  entryCount: number;
  entryAddendaCount: number;
  entryHash: bigint;
  totalDebit: bigint;
  totalCredit: bigint;
}

export interface NachaBuildResult {
  text: string;
  /** Hex SHA-256 of the text's bytes (ASCII, hence also UTF-8). */
  sha256: string;
  totals: NachaTotals;
  /** The trace number given to each entry, by batch then entry, in input order. */
  traceNumbers: string[][];
}

const IDENTIFIER = /^[\x20-\x60\x7b-\x7e]*$/; // printable ASCII without lower-case letters
const ACCOUNT = /^[0-9A-Z-]{1,17}$/;
const TRACE_SEQUENCE_LIMIT = 9_999_999;

/** Free text transliterated, then checked for presence and length. */
function text(field: string, value: string | undefined, width: number, opts: { required?: boolean; truncate?: boolean } = {}): string {
  if (value !== undefined && typeof value !== 'string') throw new NachaError(field, 'must be a string');
  let v = toNachaText(value ?? '').trim();
  if (opts.required && v === '') throw new NachaError(field, 'is required and has no writable character');
  if (v.length > width) {
    if (!opts.truncate) throw new NachaError(field, `is ${v.length} characters once written, at most ${width} fit`);
    v = v.slice(0, width).trimEnd();
  }
  return alpha(v, width);
}

/** An identifier written exactly as given. */
function identifier(field: string, value: string | undefined, width: number, required: boolean): string {
  const v = value ?? '';
  if (typeof v !== 'string') throw new NachaError(field, 'must be a string');
  if (required && v.trim() === '') throw new NachaError(field, 'is required');
  if (!IDENTIFIER.test(v))
    throw new NachaError(field, 'may hold only upper-case letters, digits, spaces and ASCII punctuation; identifiers are not transliterated');
  if (v.length > width) throw new NachaError(field, `is ${v.length} characters, at most ${width} fit`);
  return alpha(v, width);
}

function creationStamp(at: Date, timeZone: string): { date: string; time: string } {
  if (!(at instanceof Date) || Number.isNaN(at.getTime())) throw new NachaError('fileCreatedAt', 'must be a valid Date');
  // Without a zone Intl would use the host's, and the same input would give other bytes elsewhere.
  if (typeof timeZone !== 'string' || timeZone === '') throw new NachaError('timeZone', 'is required (an IANA time zone such as America/New_York)');
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: '2-digit',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(at);
  } catch {
    throw new NachaError('timeZone', `${JSON.stringify(timeZone)} is not an IANA time zone`);
  }
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return { date: get('year') + get('month') + get('day'), time: get('hour') + get('minute') };
}

interface BuiltBatch {
  records: string[];
  entryAddendaCount: number;
  hash: bigint;
  debit: bigint;
  credit: bigint;
  traces: string[];
}

export function buildNachaFile(input: NachaFileInput): NachaBuildResult {
  if (!isValidRoutingNumber(input.immediateDestination ?? ''))
    throw new NachaError('immediateDestination', 'must be a 9-digit routing number with a valid ABA check digit');
  const origin = input.immediateOrigin ?? '';
  const originField = isDigits(origin, 9) ? ' ' + origin : origin.length === 10 ? identifier('immediateOrigin', origin, 10, true) : undefined;
  if (originField === undefined) throw new NachaError('immediateOrigin', 'must be a 9-digit routing number or exactly 10 characters');
  if (!/^[A-Z0-9]$/.test(input.fileIdModifier ?? '')) throw new NachaError('fileIdModifier', 'must be one character, A-Z or 0-9');
  const lineEnding = input.lineEnding ?? '\n';
  if (lineEnding !== '\n' && lineEnding !== '\r\n') throw new NachaError('lineEnding', 'must be "\\n" or "\\r\\n"');
  const created = creationStamp(input.fileCreatedAt, input.timeZone);
  if (!Array.isArray(input.batches) || input.batches.length === 0) throw new NachaError('batches', 'a file needs at least one batch');

  const records = [
    assemble(FILE_HEADER, {
      recordType: '1',
      priorityCode: '01',
      immediateDestination: ' ' + input.immediateDestination,
      immediateOrigin: originField,
      fileCreationDate: created.date,
      fileCreationTime: created.time,
      fileIdModifier: input.fileIdModifier,
      recordSize: '094',
      blockingFactor: '10',
      formatCode: '1',
      immediateDestinationName: text('immediateDestinationName', input.immediateDestinationName, 23, { required: true }),
      immediateOriginName: text('immediateOriginName', input.immediateOriginName, 23, { required: true }),
      referenceCode: text('referenceCode', input.referenceCode, 8),
    }),
  ];

  let sequence = 0;
  const built = input.batches.map((batch, i) => {
    const b = buildBatch(`batches[${i}]`, batch, i + 1, created.date, () => {
      sequence += 1;
      if (sequence > TRACE_SEQUENCE_LIMIT)
        throw new NachaError(`batches[${i}]`, `a file holds at most ${TRACE_SEQUENCE_LIMIT} entries (7-digit trace sequence)`);
      return sequence;
    });
    records.push(...b.records);
    return b;
  });

  const totalDebit = built.reduce((s, b) => s + b.debit, 0n);
  const totalCredit = built.reduce((s, b) => s + b.credit, 0n);
  if (totalDebit > MAX_TOTAL_AMOUNT || totalCredit > MAX_TOTAL_AMOUNT) throw new NachaError('batches', 'the file total does not fit 12 digits');
  const entryAddendaCount = built.reduce((s, b) => s + b.entryAddendaCount, 0);
  const entryHash = built.reduce((s, b) => s + b.hash, 0n) % ENTRY_HASH_MODULUS;
  const recordCount = Math.ceil((records.length + 1) / BLOCKING_FACTOR) * BLOCKING_FACTOR;
  const blockCount = recordCount / BLOCKING_FACTOR;
  if (blockCount > 999_999 || entryAddendaCount > 99_999_999) throw new NachaError('batches', 'the file is larger than its control record can count');

  records.push(
    assemble(FILE_CONTROL, {
      recordType: '9',
      batchCount: numeric(built.length, 6),
      blockCount: numeric(blockCount, 6),
      entryAddendaCount: numeric(entryAddendaCount, 8),
      entryHash: numeric(entryHash, 10),
      totalDebitAmount: numeric(totalDebit, 12),
      totalCreditAmount: numeric(totalCredit, 12),
      reserved: alpha('', 39),
    }),
  );
  while (records.length < recordCount) records.push(PADDING_RECORD);

  const out = records.join(lineEnding) + lineEnding;
  // The writer and the reader are separate code; reading the result back catches a slip in either
  // before a file leaves.
  const problems = inspectNachaFile(out).problems;
  if (problems.length > 0) throw new NachaError('file', `the built file breaks a rule: line ${problems[0].line}: ${problems[0].message} [${problems[0].rule}]`);

  return {
    text: out,
    sha256: createHash('sha256').update(out, 'utf8').digest('hex'),
    totals: {
      batchCount: built.length,
      blockCount,
      recordCount,
      entryCount: built.reduce((s, b) => s + b.traces.length, 0),
      entryAddendaCount,
      entryHash,
      totalDebit,
      totalCredit,
    },
    traceNumbers: built.map((b) => b.traces),
  };
}

function buildBatch(path: string, batch: NachaBatchInput, batchNumber: number, creationDate: string, nextSequence: () => number): BuiltBatch {
  if (batch.standardEntryClassCode !== 'PPD' && batch.standardEntryClassCode !== 'CCD')
    throw new NachaError(`${path}.standardEntryClassCode`, 'must be PPD or CCD');
  const odfi = batch.originatingDFIIdentification ?? '';
  if (!isDigits(odfi, 8)) throw new NachaError(`${path}.originatingDFIIdentification`, 'must be the first 8 digits of the ODFI routing number');
  const effective = batch.effectiveEntryDate ?? '';
  if (!isValidYymmdd(effective)) throw new NachaError(`${path}.effectiveEntryDate`, 'must be a date YYMMDD');
  let descriptiveDate: string;
  if (batch.sameDay) {
    if (effective !== creationDate)
      throw new NachaError(`${path}.effectiveEntryDate`, `a same-day batch settles on the file creation date ${creationDate}, not ${effective}`);
    if (batch.companyDescriptiveDate !== undefined)
      throw new NachaError(`${path}.companyDescriptiveDate`, 'a same-day batch carries "SD" + settlement time there');
    if (!isValidHhmm(batch.sameDaySettlementTime ?? ''))
      throw new NachaError(`${path}.sameDaySettlementTime`, 'a same-day batch needs its settlement time, HHMM');
    descriptiveDate = 'SD' + batch.sameDaySettlementTime;
  } else {
    if (batch.sameDaySettlementTime !== undefined) throw new NachaError(`${path}.sameDaySettlementTime`, 'only for a same-day batch');
    if (effective <= creationDate)
      throw new NachaError(
        `${path}.effectiveEntryDate`,
        `must be after the file creation date ${creationDate} (an effective date of today is a same-day batch: set sameDay)`,
      );
    descriptiveDate = text(`${path}.companyDescriptiveDate`, batch.companyDescriptiveDate, 6);
  }
  if (!Array.isArray(batch.entries) || batch.entries.length === 0) throw new NachaError(`${path}.entries`, 'a batch needs at least one entry');

  const companyIdentification = identifier(`${path}.companyIdentification`, batch.companyIdentification, 10, true);
  const batchNumberField = numeric(batchNumber, 7);
  let hash = 0n;
  let debit = 0n;
  let credit = 0n;
  const entryRecords: string[] = [];
  const traces: string[] = [];
  batch.entries.forEach((entry, j) => {
    const at = `${path}.entries[${j}]`;
    const code = entry.transactionCode;
    if (![22, 23, 27, 28, 32, 33, 37, 38].includes(code)) throw new NachaError(`${at}.transactionCode`, 'must be 22, 23, 27, 28, 32, 33, 37 or 38');
    const prenote = code % 10 === 3 || code % 10 === 8;
    const routing = entry.receivingDFIRoutingNumber ?? '';
    if (!isDigits(routing, 9)) throw new NachaError(`${at}.receivingDFIRoutingNumber`, 'must be 9 digits');
    if (!isValidRoutingNumber(routing)) throw new NachaError(`${at}.receivingDFIRoutingNumber`, `${routing} fails the ABA check digit (3-7-1 weights)`);
    if (!ACCOUNT.test(entry.dfiAccountNumber ?? '')) throw new NachaError(`${at}.dfiAccountNumber`, 'must be 1 to 17 digits, upper-case letters or hyphens');
    const amount = entry.amount;
    if (typeof amount !== 'bigint') throw new NachaError(`${at}.amount`, 'must be a bigint of cents');
    if (prenote ? amount !== 0n : amount <= 0n) throw new NachaError(`${at}.amount`, prenote ? 'a prenote carries amount 0' : 'must be above zero');
    if (amount > MAX_ENTRY_AMOUNT) throw new NachaError(`${at}.amount`, 'does not fit the 10-digit amount field (at most 9999999999 cents)');
    if (batch.sameDay && amount > SAME_DAY_ENTRY_LIMIT) throw new NachaError(`${at}.amount`, 'is above the Same Day ACH limit of $1,000,000.00 per entry');

    const trace = odfi + numeric(nextSequence(), 7);
    const addenda = entry.addenda;
    entryRecords.push(
      assemble(ENTRY_DETAIL, {
        recordType: '6',
        transactionCode: String(code),
        receivingDFIIdentification: routing.slice(0, 8),
        checkDigit: routing[8],
        dfiAccountNumber: alpha(entry.dfiAccountNumber, 17),
        amount: numeric(amount, 10),
        individualIdentificationNumber: identifier(`${at}.individualIdentificationNumber`, entry.individualIdentificationNumber, 15, false),
        individualName: text(`${at}.individualName`, entry.individualName, 22, { required: true, truncate: true }),
        discretionaryData: identifier(`${at}.discretionaryData`, entry.discretionaryData, 2, false),
        addendaRecordIndicator: addenda ? '1' : '0',
        traceNumber: trace,
      }),
    );
    if (addenda) {
      entryRecords.push(
        assemble(ADDENDA_05, {
          recordType: '7',
          addendaTypeCode: '05',
          paymentRelatedInformation: text(`${at}.addenda.paymentRelatedInformation`, addenda.paymentRelatedInformation, 80, { required: true }),
          addendaSequenceNumber: '0001',
          entryDetailSequenceNumber: trace.slice(8),
        }),
      );
    }
    traces.push(trace);
    hash += BigInt(routing.slice(0, 8));
    if (isCreditCode(code)) credit += amount;
    else debit += amount;
  });
  if (debit > MAX_TOTAL_AMOUNT || credit > MAX_TOTAL_AMOUNT) throw new NachaError(path, 'the batch total does not fit 12 digits');
  if (entryRecords.length > 999_999) throw new NachaError(`${path}.entries`, 'a batch counts at most 999999 entry and addenda records');

  // 220 credits only, 225 debits only, 200 both; a prenote counts as the side it announces.
  const credits = batch.entries.some((e) => isCreditCode(e.transactionCode));
  const debits = batch.entries.some((e) => !isCreditCode(e.transactionCode));
  const serviceClassCode = credits && debits ? '200' : credits ? '220' : '225';
  const entryHash = hash % ENTRY_HASH_MODULUS;
  const header = assemble(BATCH_HEADER, {
    recordType: '5',
    serviceClassCode,
    companyName: text(`${path}.companyName`, batch.companyName, 16, { required: true }),
    companyDiscretionaryData: text(`${path}.companyDiscretionaryData`, batch.companyDiscretionaryData, 20),
    companyIdentification,
    standardEntryClassCode: batch.standardEntryClassCode,
    companyEntryDescription: text(`${path}.companyEntryDescription`, batch.companyEntryDescription, 10, { required: true }),
    companyDescriptiveDate: descriptiveDate,
    effectiveEntryDate: effective,
    settlementDate: alpha('', 3),
    originatorStatusCode: '1',
    originatingDFIIdentification: odfi,
    batchNumber: batchNumberField,
  });
  const control = assemble(BATCH_CONTROL, {
    recordType: '8',
    serviceClassCode,
    entryAddendaCount: numeric(entryRecords.length, 6),
    entryHash: numeric(entryHash, 10),
    totalDebitAmount: numeric(debit, 12),
    totalCreditAmount: numeric(credit, 12),
    companyIdentification,
    messageAuthenticationCode: alpha('', 19),
    reserved: alpha('', 6),
    originatingDFIIdentification: odfi,
    batchNumber: batchNumberField,
  });
  return { records: [header, ...entryRecords, control], entryAddendaCount: entryRecords.length, hash: entryHash, debit, credit, traces };
}

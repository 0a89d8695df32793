/**
 * The columns of each record, 1-based and inclusive as the Nacha Operating Rules (Appendix Three)
 * and moov-io/ach's comments number them, so each line here can be checked against the
 * specification by eye. The writer and the reader both go through these tables.
 */

export interface Column {
  readonly start: number;
  readonly end: number;
}

const col = (start: number, end: number): Column => ({ start, end });

export const width = (c: Column): number => c.end - c.start + 1;

/** The text of a column in a 94-character record. */
export const slice = (record: string, c: Column): string => record.slice(c.start - 1, c.end);

/** Record type "1". */
export const FILE_HEADER = {
  recordType: col(1, 1),
  priorityCode: col(2, 3), // "01"
  immediateDestination: col(4, 13), // " " + 9-digit routing number
  immediateOrigin: col(14, 23),
  fileCreationDate: col(24, 29), // YYMMDD
  fileCreationTime: col(30, 33), // HHMM
  fileIdModifier: col(34, 34), // A-Z, 0-9
  recordSize: col(35, 37), // "094"
  blockingFactor: col(38, 39), // "10"
  formatCode: col(40, 40), // "1"
  immediateDestinationName: col(41, 63),
  immediateOriginName: col(64, 86),
  referenceCode: col(87, 94),
} as const;

/** Record type "5". */
export const BATCH_HEADER = {
  recordType: col(1, 1),
  serviceClassCode: col(2, 4), // 200 mixed, 220 credits, 225 debits
  companyName: col(5, 20),
  companyDiscretionaryData: col(21, 40),
  companyIdentification: col(41, 50),
  standardEntryClassCode: col(51, 53),
  companyEntryDescription: col(54, 63),
  companyDescriptiveDate: col(64, 69), // free; "SDHHMM" marks a same-day batch
  effectiveEntryDate: col(70, 75), // YYMMDD
  settlementDate: col(76, 78), // Julian day, inserted by the ACH Operator; blank when originating
  originatorStatusCode: col(79, 79),
  originatingDFIIdentification: col(80, 87),
  batchNumber: col(88, 94),
} as const;

/** Record type "6" (PPD, CCD, WEB, TEL and COR share this layout). */
export const ENTRY_DETAIL = {
  recordType: col(1, 1),
  transactionCode: col(2, 3),
  receivingDFIIdentification: col(4, 11), // first 8 digits of the RDFI routing number
  checkDigit: col(12, 12), // its 9th digit
  dfiAccountNumber: col(13, 29),
  amount: col(30, 39), // cents
  individualIdentificationNumber: col(40, 54),
  individualName: col(55, 76), // the receiving company for CCD
  discretionaryData: col(77, 78),
  addendaRecordIndicator: col(79, 79),
  traceNumber: col(80, 94),
} as const;

/** Record type "7", type code "05": payment-related information. */
export const ADDENDA_05 = {
  recordType: col(1, 1),
  addendaTypeCode: col(2, 3),
  paymentRelatedInformation: col(4, 83),
  addendaSequenceNumber: col(84, 87),
  entryDetailSequenceNumber: col(88, 94), // last 7 digits of the entry's trace number
} as const;

/** Record type "7", type code "99": a return. */
export const ADDENDA_99 = {
  recordType: col(1, 1),
  addendaTypeCode: col(2, 3),
  returnReasonCode: col(4, 6),
  originalEntryTraceNumber: col(7, 21),
  dateOfDeath: col(22, 27), // YYMMDD or blank
  originalReceivingDFIIdentification: col(28, 35),
  addendaInformation: col(36, 79),
  traceNumber: col(80, 94),
} as const;

/** Record type "7", type code "98": a notification of change. */
export const ADDENDA_98 = {
  recordType: col(1, 1),
  addendaTypeCode: col(2, 3),
  changeCode: col(4, 6),
  originalEntryTraceNumber: col(7, 21),
  reserved1: col(22, 27),
  originalReceivingDFIIdentification: col(28, 35),
  correctedData: col(36, 64),
  reserved2: col(65, 79),
  traceNumber: col(80, 94),
} as const;

/** Record type "8". */
export const BATCH_CONTROL = {
  recordType: col(1, 1),
  serviceClassCode: col(2, 4),
  entryAddendaCount: col(5, 10),
  entryHash: col(11, 20),
  totalDebitAmount: col(21, 32),
  totalCreditAmount: col(33, 44),
  companyIdentification: col(45, 54),
  messageAuthenticationCode: col(55, 73),
  reserved: col(74, 79),
  originatingDFIIdentification: col(80, 87),
  batchNumber: col(88, 94),
} as const;

/** Record type "9". */
export const FILE_CONTROL = {
  recordType: col(1, 1),
  batchCount: col(2, 7),
  blockCount: col(8, 13),
  entryAddendaCount: col(14, 21),
  entryHash: col(22, 31),
  totalDebitAmount: col(32, 43),
  totalCreditAmount: col(44, 55),
  reserved: col(56, 94),
} as const;

/**
 * A record from its fields, each already formatted to its column's width. Checks that the
 * columns follow one another from 1 to 94, so a layout or a formatting slip cannot shift a field.
 */
export function assemble<L extends Record<string, Column>>(layout: L, values: { [K in keyof L]: string }): string {
  let out = '';
  for (const key of Object.keys(layout) as (keyof L & string)[]) {
    const c = layout[key];
    const v = values[key];
    if (c.start !== out.length + 1) throw new RangeError(`column ${key} starts at ${c.start}, expected ${out.length + 1}`);
    if (v.length !== width(c)) throw new RangeError(`${key} is ${v.length} characters, its column is ${width(c)}`);
    out += v;
  }
  if (out.length !== 94) throw new RangeError(`record is ${out.length} characters`);
  return out;
}

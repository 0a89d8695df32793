/**
 * The NACHA files a receiving bank (RDFI) sends back about entries it received, as the partner
 * bank forwards them to its customer: returns (addenda 99) and notifications of change (COR batch,
 * addenda 98). buildNachaFile writes only forward PPD/CCD entries, so these records are composed
 * here from the same column tables (nacha/layout.ts) and checked by the same reader before they
 * leave (validateNachaFile), so the simulator never hands Corridor a file a real bank could not send.
 *
 * What a real RDFI return looks like, and how it is met:
 * - one batch per original batch and RDFI: the batch's originating DFI is the RDFI (it originates
 *   the return), so each entry's trace number starts with it;
 * - the entry goes back to the original ODFI (its receiving DFI is the original batch's ODFI),
 *   with the original account number, amount, individual id and name, and the return transaction
 *   code (the original's minus one: 22 → 21, 27 → 26, 32 → 31, 37 → 36);
 * - the company name, id, SEC code and description are the original batch's, so the originator
 *   recognises its own batch; the settlement date is the day the return settles (Julian).
 */
import { abaCheckDigit, alpha, BLOCKING_FACTOR, ENTRY_HASH_MODULUS, isCreditCode, numeric, PADDING_RECORD } from '../nacha/fields.js';
import { ADDENDA_98, ADDENDA_99, assemble, BATCH_CONTROL, BATCH_HEADER, ENTRY_DETAIL, FILE_CONTROL, FILE_HEADER } from '../nacha/layout.js';
import { validateNachaFile, type NachaBatchHeader, type NachaEntry, type NachaFileHeader } from '../nacha/index.js';

/** One entry the RDFI answers: returned with a code, or posted with a correction. */
export interface RdfiItem {
  entry: NachaEntry;
  batch: NachaBatchHeader;
}

export interface RdfiReturn extends RdfiItem {
  /** R01…R85. */
  code: string;
}

export interface RdfiChange extends RdfiItem {
  /** C01…C14. */
  code: string;
  /** The corrected-data field (29 columns), laid out as Appendix Five wants for the code. */
  correctedData: string;
}

export interface RdfiFileInput {
  /** The header of the file the items came in: the answer goes back between the same two parties. */
  original: NachaFileHeader;
  /** When the bank writes the answer: YYMMDD and HHMM in its time zone. */
  createdDate: string;
  createdTime: string;
  fileIdModifier: string;
  /** Julian day (001-366) the returns settle, written in each batch header. */
  settlementDay: number;
}

/** The day of the year of a YYYY-MM-DD date, as NACHA's settlement date field counts it. */
export function julianDay(date: string): number {
  const [y, m, d] = date.split('-').map(Number);
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(y, 0, 1)) / 86_400_000) + 1;
}

/** C01's corrected data: the account number in columns 1-17 of the field. */
export function correctedAccountField(accountNumber: string): string {
  return alpha(accountNumber, 29);
}

export function buildReturnFile(input: RdfiFileInput, items: readonly RdfiReturn[]): string {
  return buildFile(input, items, 'return');
}

export function buildChangeFile(input: RdfiFileInput, items: readonly RdfiChange[]): string {
  return buildFile(input, items, 'change');
}

type Item = RdfiReturn | RdfiChange;

function buildFile(input: RdfiFileInput, items: readonly Item[], kind: 'return' | 'change'): string {
  if (items.length === 0) throw new RangeError(`a ${kind} file needs at least one entry`);
  const o = input.original;
  const records = [
    assemble(FILE_HEADER, {
      recordType: '1',
      priorityCode: '01',
      // The file goes from the bank to its customer; the customer's own id is rarely a routing
      // number, so both header fields name the bank, as banks' return files commonly do.
      immediateDestination: ' ' + o.immediateDestination,
      immediateOrigin: ' ' + o.immediateDestination,
      fileCreationDate: input.createdDate,
      fileCreationTime: input.createdTime,
      fileIdModifier: input.fileIdModifier,
      recordSize: '094',
      blockingFactor: '10',
      formatCode: '1',
      immediateDestinationName: alpha(o.immediateOriginName.slice(0, 23), 23),
      immediateOriginName: alpha(o.immediateDestinationName.slice(0, 23), 23),
      referenceCode: alpha('', 8),
    }),
  ];

  // One batch per original batch and RDFI, in the order the items come.
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = `${item.batch.batchNumber}:${item.entry.receivingDFIIdentification}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  let batchNumber = 0;
  let fileHash = 0n;
  let fileDebit = 0n;
  let fileCredit = 0n;
  let fileCount = 0;
  // Trace numbers are the RDFI's and unique in the file: one sequence per RDFI across its batches.
  const sequences = new Map<string, number>();
  for (const group of groups.values()) {
    batchNumber += 1;
    const b = group[0].batch;
    const rdfi = group[0].entry.receivingDFIIdentification;
    const credits = group.some((i) => isCreditCode(i.entry.transactionCode));
    const debits = group.some((i) => !isCreditCode(i.entry.transactionCode));
    const serviceClassCode = credits && debits ? '200' : credits ? '220' : '225';
    const batchNumberField = numeric(batchNumber, 7);
    const companyIdentification = alpha(b.companyIdentification, 10);
    let hash = 0n;
    let debit = 0n;
    let credit = 0n;
    const body: string[] = [];
    for (const item of group) {
      const e = item.entry;
      const sequence = (sequences.get(rdfi) ?? 0) + 1;
      sequences.set(rdfi, sequence);
      const trace = rdfi + numeric(sequence, 7);
      // Back to the original ODFI, whose 9th routing digit the original batch did not carry.
      const odfi = b.originatingDFIIdentification;
      const amount = kind === 'change' ? 0n : e.amount;
      const code = e.transactionCode - 1;
      body.push(
        assemble(ENTRY_DETAIL, {
          recordType: '6',
          transactionCode: String(code),
          receivingDFIIdentification: odfi,
          checkDigit: String(abaCheckDigit(odfi)),
          dfiAccountNumber: alpha(e.dfiAccountNumber, 17),
          amount: numeric(amount, 10),
          individualIdentificationNumber: alpha(e.individualIdentificationNumber, 15),
          individualName: alpha(e.individualName, 22),
          discretionaryData: alpha(e.discretionaryData, 2),
          addendaRecordIndicator: '1',
          traceNumber: trace,
        }),
      );
      body.push(
        'correctedData' in item
          ? assemble(ADDENDA_98, {
              recordType: '7',
              addendaTypeCode: '98',
              changeCode: item.code,
              originalEntryTraceNumber: e.traceNumber,
              reserved1: alpha('', 6),
              originalReceivingDFIIdentification: e.receivingDFIIdentification,
              correctedData: alpha(item.correctedData, 29),
              reserved2: alpha('', 15),
              traceNumber: trace,
            })
          : assemble(ADDENDA_99, {
              recordType: '7',
              addendaTypeCode: '99',
              returnReasonCode: item.code,
              originalEntryTraceNumber: e.traceNumber,
              dateOfDeath: alpha('', 6),
              originalReceivingDFIIdentification: e.receivingDFIIdentification,
              addendaInformation: alpha('', 44),
              traceNumber: trace,
            }),
      );
      hash += BigInt(odfi);
      if (isCreditCode(code)) credit += amount;
      else debit += amount;
    }
    const entryHash = hash % ENTRY_HASH_MODULUS;
    records.push(
      assemble(BATCH_HEADER, {
        recordType: '5',
        serviceClassCode,
        companyName: alpha(b.companyName, 16),
        companyDiscretionaryData: alpha(b.companyDiscretionaryData, 20),
        companyIdentification,
        standardEntryClassCode: kind === 'change' ? 'COR' : b.standardEntryClassCode,
        companyEntryDescription: alpha(b.companyEntryDescription, 10),
        companyDescriptiveDate: alpha(b.companyDescriptiveDate, 6),
        effectiveEntryDate: b.effectiveEntryDate,
        settlementDate: numeric(input.settlementDay, 3),
        originatorStatusCode: '1',
        originatingDFIIdentification: rdfi,
        batchNumber: batchNumberField,
      }),
      ...body,
      assemble(BATCH_CONTROL, {
        recordType: '8',
        serviceClassCode,
        entryAddendaCount: numeric(body.length, 6),
        entryHash: numeric(entryHash, 10),
        totalDebitAmount: numeric(debit, 12),
        totalCreditAmount: numeric(credit, 12),
        companyIdentification,
        messageAuthenticationCode: alpha('', 19),
        reserved: alpha('', 6),
        originatingDFIIdentification: rdfi,
        batchNumber: batchNumberField,
      }),
    );
    fileHash += entryHash;
    fileDebit += debit;
    fileCredit += credit;
    fileCount += body.length;
  }
  const recordCount = Math.ceil((records.length + 1) / BLOCKING_FACTOR) * BLOCKING_FACTOR;
  records.push(
    assemble(FILE_CONTROL, {
      recordType: '9',
      batchCount: numeric(batchNumber, 6),
      blockCount: numeric(recordCount / BLOCKING_FACTOR, 6),
      entryAddendaCount: numeric(fileCount, 8),
      entryHash: numeric(fileHash % ENTRY_HASH_MODULUS, 10),
      totalDebitAmount: numeric(fileDebit, 12),
      totalCreditAmount: numeric(fileCredit, 12),
      reserved: alpha('', 39),
    }),
  );
  while (records.length < recordCount) records.push(PADDING_RECORD);
  const text = records.join('\n') + '\n';
  // Composed by hand, read back by the reader Corridor uses: a slip here must not reach Corridor.
  const problems = validateNachaFile(text);
  if (problems.length > 0)
    throw new Error(`the simulator built an invalid ${kind} file: line ${problems[0].line}: ${problems[0].message} [${problems[0].rule}]`);
  return text;
}

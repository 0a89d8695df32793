/**
 * The one reading of a NACHA file that both parseNachaFile and validateNachaFile use: it walks the
 * records in order, checks every rule of each record and of the file's structure and totals, and
 * returns the file it read together with every problem found. parse refuses the file on the first
 * problem; validate lists them all. A rule is therefore written once: here for the structure,
 * counts and totals, in records.ts for the fields of each record.
 *
 * Tolerated, because banks and editors produce them and they carry no meaning: "\r\n" line ends,
 * whitespace after the 94th column, a missing final line break, empty lines at the end, a UTF-8
 * byte order mark. Everything else is a problem: a record that is not 94 characters (a short line
 * may be a cut one, so it is not padded back), records out of order, a file that ends before its
 * file control record, counts, hashes and totals that do not match the entries.
 */

import type { NachaProblem, NachaRule } from './errors.js';
import { BLOCKING_FACTOR, ENTRY_HASH_MODULUS, PADDING_RECORD, RECORD_LENGTH, isDigits } from './fields.js';
import { RETURN_OR_NOC_CODES, Reader, readAddenda, readBatchControl, readBatchHeader, readEntry, readFileControl, readFileHeader } from './records.js';
import type { NachaBatch, NachaBatchControl, NachaEntry, NachaFile, NachaFileControl, NachaFileHeader } from './types.js';

export interface Inspection {
  /** The file as read; undefined when a problem was found. */
  file: NachaFile | undefined;
  problems: NachaProblem[];
}

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
  const names: Record<string, string> = {
    '1': 'a file header (1)',
    '5': 'a batch header (5)',
    '6': 'an entry detail record (6)',
    '7': 'an addenda (7)',
    '8': 'a batch control (8)',
    '9': 'a file control (9)',
  };
  return names[type] ?? `a record of type ${type}`;
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
  // What may come next: the file header, a batch header or the file control, a batch's records, padding.
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
      // A file header of the wrong length is still the header: the records after it are read as
      // such instead of each being reported out of order.
      if (state === 'header' && record[0] === '1') state = 'batches';
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
      r.report('record-order', `${describe(type)} cannot come here: expected ${expected}`);
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
        o.batch.control = readBatchControl(r, o.batch.header, o);
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
  if (control) checkFileControl(r, fileControlLine, control, batches, records.length);
  if (records.length % BLOCKING_FACTOR !== 0)
    r.report('blocking', `the file has ${records.length} records; it must be padded with "9" records to a multiple of ${BLOCKING_FACTOR}`, lastLine);
  else if (fileControlLine > 0 && records.length - fileControlLine >= BLOCKING_FACTOR)
    r.report('blocking', `more than a block of padding records follows the file control record`, lastLine);

  const file = r.problems.length === 0 && header && control ? { header, batches, control, recordCount: records.length } : undefined;
  // Some problems are only known later (an entry's missing addenda when the next record comes, the
  // file control's totals after the padding): file order is line order, stable within a line.
  return { file, problems: r.problems.sort((a, b) => a.line - b.line) };
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

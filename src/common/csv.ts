/**
 * A strict CSV reader (RFC 4180): fields separated by commas, records by CRLF (a lone LF is
 * accepted too, as spreadsheets on Unix write it); a field in double quotes may hold commas, line
 * breaks and doubled quotes (""). A UTF-8 byte order mark at the start is skipped. Anything else
 * the RFC forbids is an error naming its line: a quote inside an unquoted field, text after a
 * closing quote, a quoted field never closed.
 */

export class CsvError extends Error {
  constructor(
    message: string,
    /** 1-based line of the file where the problem is. */
    readonly line: number,
    /** SYNTAX: the text is not RFC 4180; RECORDS: past maxRecords; HEADER_WIDTH: the first record past maxHeaderFields. */
    readonly kind: 'SYNTAX' | 'RECORDS' | 'HEADER_WIDTH' = 'SYNTAX',
  ) {
    super(`line ${line}: ${message}`);
  }
}

export interface CsvRecord {
  /** 1-based line where the record starts (a quoted field may span lines). */
  line: number;
  /** The fields, at most maxFields of them (the rest are counted, not kept). */
  fields: string[];
  /** How many fields the record has, kept or not. */
  fieldCount: number;
  /** Whether every field, kept or not, is empty (a blank line, or one of separators only). */
  blank: boolean;
}

export interface CsvLimits {
  /** More records than this is an error (RECORDS) as soon as the next one ends. */
  maxRecords?: number;
  /** Fields kept per record: a record of a million commas costs a count, not a million strings. */
  maxFields?: number;
  /** The first record that is not blank (a header) may have at most this many fields: reading stops at the next (HEADER_WIDTH). */
  maxHeaderFields?: number;
}

/**
 * The records of a text, in order. A final line break does not start an empty record; a blank
 * line inside the file is a record of one empty field (callers decide what it means).
 */
export function parseCsv(input: string, opts: CsvLimits = {}): CsvRecord[] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let fieldCount = 0;
  let blank = true;
  // No record with text has ended yet: the current one is the header, if it has text.
  let beforeHeader = true;
  const maxFields = opts.maxFields ?? Infinity;
  const maxHeaderFields = opts.maxHeaderFields ?? Infinity;
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  // Whether the current field was quoted and has closed (only a separator may follow).
  let closed = false;
  const n = text.length;

  const endField = () => {
    if (fieldCount < maxFields) fields.push(field);
    if (field !== '') blank = false;
    fieldCount++;
    if (beforeHeader && fieldCount > maxHeaderFields) throw new CsvError(`the header has more than ${maxHeaderFields} fields`, recordLine, 'HEADER_WIDTH');
    field = '';
    closed = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields, fieldCount, blank });
    if (!blank) beforeHeader = false;
    if (opts.maxRecords !== undefined && records.length > opts.maxRecords) throw new CsvError(`more than ${opts.maxRecords} records`, recordLine, 'RECORDS');
    fields = [];
    fieldCount = 0;
    blank = true;
  };

  while (i < n) {
    const c = text[i];
    if (c === ',') {
      endField();
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      if (c === '\r' && text[i - 1] !== '\n') throw new CsvError('a carriage return must be followed by a line feed', line);
      line++;
      recordLine = line;
    } else if (closed) {
      throw new CsvError('text after a closing quote; a quote inside a quoted field is written ""', line);
    } else if (c === '"') {
      if (field !== '') throw new CsvError('a quote inside an unquoted field; quote the whole field and double the quote', line);
      // A quoted field: up to the closing quote.
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new CsvError('a quoted field is never closed', recordLine);
        for (let k = i; k < q; k++) {
          const d = text.charCodeAt(k);
          if (d === 10 || (d === 13 && text.charCodeAt(k + 1) !== 10)) line++;
        }
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
          continue;
        }
        i = q + 1;
        closed = true;
        break;
      }
    } else {
      // An unquoted run up to the next separator, line break or quote, taken as one slice.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 44 || d === 10 || d === 13 || d === 34) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
    }
  }
  // The last record, unless the text ended with a line break (or was empty).
  if (field !== '' || fieldCount > 0 || closed) endRecord();
  return records;
}

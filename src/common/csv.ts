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
  ) {
    super(`line ${line}: ${message}`);
  }
}

export interface CsvRecord {
  /** 1-based line where the record starts (a quoted field may span lines). */
  line: number;
  fields: string[];
}

/**
 * The records of a text, in order. A final line break does not start an empty record; a blank
 * line inside the file is a record of one empty field (callers decide what it means).
 */
export function parseCsv(input: string, opts: { maxRecords?: number } = {}): CsvRecord[] {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let recordLine = 1;
  let i = 0;
  // Whether the current field was quoted and has closed (only a separator may follow).
  let closed = false;
  const n = text.length;

  const endField = () => {
    fields.push(field);
    field = '';
    closed = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields });
    if (opts.maxRecords !== undefined && records.length > opts.maxRecords) throw new CsvError(`more than ${opts.maxRecords} records`, recordLine);
    fields = [];
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
        if (i >= n) throw new CsvError('a quoted field is never closed', recordLine);
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (q === '\n' || (q === '\r' && text[i + 1] !== '\n')) line++;
        field += q;
        i++;
      }
    } else {
      field += c;
      i++;
    }
  }
  // The last record, unless the text ended with a line break (or was empty).
  if (field !== '' || fields.length > 0 || closed) endRecord();
  return records;
}

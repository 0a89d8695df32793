import { describe, expect, it } from 'vitest';
import { CsvError, parseCsv } from './csv.js';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('parseCsv (RFC 4180)', () => {
  it('reads plain records with CRLF or LF, and no empty record after the final line break', () => {
    expect(fields('a,b,c\r\n1,2,3\r\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', '2', '3'],
    ]);
    expect(fields('a,b\n1,2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(fields('')).toEqual([]);
  });

  it('keeps empty fields, leading and trailing', () => {
    expect(fields(',a,,\r\n')).toEqual([['', 'a', '', '']]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const records = parseCsv('name,note\r\n"Doe, John","He said ""hi""\r\nthen left"\r\nx,""\r\n');
    expect(records.map((r) => r.fields)).toEqual([
      ['name', 'note'],
      ['Doe, John', 'He said "hi"\r\nthen left'],
      ['x', ''],
    ]);
    // A record's line is where it starts; the quoted line break counts.
    expect(records.map((r) => r.line)).toEqual([1, 2, 4]);
  });

  it('skips a UTF-8 byte order mark and keeps other characters', () => {
    expect(fields('\uFEFFumaAddress,fullName\r\n$a@x.com,Zoë Ñandú\r\n')).toEqual([
      ['umaAddress', 'fullName'],
      ['$a@x.com', 'Zoë Ñandú'],
    ]);
  });

  it('refuses what the RFC forbids, naming the line', () => {
    expect(() => parseCsv('a,b\r\n1,x"y\r\n')).toThrow(CsvError);
    expect(() => parseCsv('a,b\r\n1,x"y\r\n')).toThrow(/line 2: a quote inside an unquoted field/);
    expect(() => parseCsv('a\r\n"x"y\r\n')).toThrow(/line 2: text after a closing quote/);
    expect(() => parseCsv('a\r\n"never closed\r\n')).toThrow(/line 2: a quoted field is never closed/);
    expect(() => parseCsv('a\rb\r\n')).toThrow(/line 1: a carriage return/);
  });

  it('stops at a bound on the number of records', () => {
    expect(() => parseCsv('h\r\n1\r\n2\r\n3\r\n', { maxRecords: 3 })).toThrow(/more than 3 records/);
    expect(parseCsv('h\r\n1\r\n2\r\n', { maxRecords: 3 })).toHaveLength(3);
  });

  it('keeps at most maxFields fields of a record and counts the rest; blank records are marked', () => {
    const [header, wide, commas] = parseCsv(`a,b\r\n1,2,3,4,5\r\n${','.repeat(100_000)}\r\n`, { maxFields: 3 });
    expect(header).toMatchObject({ fields: ['a', 'b'], fieldCount: 2, blank: false });
    expect(wide).toMatchObject({ fields: ['1', '2', '3'], fieldCount: 5, blank: false });
    expect(commas).toMatchObject({ fields: ['', '', ''], fieldCount: 100_001, blank: true });
    // Text past the kept fields still makes the record not blank.
    expect(parseCsv(`${','.repeat(10)}x`, { maxFields: 2 })[0]).toMatchObject({ fieldCount: 11, blank: false });
  });

  it('stops reading a header wider than maxHeaderFields, whatever follows; blank lines before it do not count', () => {
    const err = (() => {
      try {
        parseCsv(`a,b,c,d${','.repeat(1_000_000)}\r\n1\r\n`, { maxHeaderFields: 3 });
      } catch (e) {
        return e as CsvError;
      }
    })();
    expect(err).toBeInstanceOf(CsvError);
    expect(err!.kind).toBe('HEADER_WIDTH');
    expect(() => parseCsv('\r\n\r\na,b,c,d\r\n', { maxHeaderFields: 3 })).toThrow(/line 3: the header has more than 3 fields/);
    // Records after the header may be wider (the caller decides what they mean).
    expect(parseCsv('a,b\r\n1,2,3,4\r\n', { maxHeaderFields: 2 })[1].fieldCount).toBe(4);
  });

  it('reads a field of 2 MiB, quoted or not, in one pass', () => {
    const long = 'x'.repeat(2 * 1024 * 1024);
    expect(parseCsv(`${long},"${long}"`)[0].fields.map((f) => f.length)).toEqual([long.length, long.length]);
  });
});

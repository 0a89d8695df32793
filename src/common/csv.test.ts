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
});

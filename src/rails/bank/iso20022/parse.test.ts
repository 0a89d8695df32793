import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IsoParseError, type IsoParseErrorCode } from './errors.js';
import { detectIsoMessage } from './messages.js';
import { parseCamt053, parseCamt054 } from './parse-camt.js';
import { parsePain001 } from './parse-pain001.js';
import { parsePain002 } from './parse-pain002.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');
const statement = fixture('camt.053.001.08-bank.xml');

function refusal(parse: () => unknown): IsoParseError {
  let result: unknown;
  try {
    result = parse();
  } catch (err) {
    expect(err).toBeInstanceOf(IsoParseError);
    return err as IsoParseError;
  }
  throw new Error(`accepted, returning ${JSON.stringify(result, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)).slice(0, 200)}`);
}

describe('detectIsoMessage', () => {
  it('names the message from the root namespace, with or without a prefix', () => {
    expect(detectIsoMessage(statement)).toBe('camt.053.001.08');
    expect(detectIsoMessage(fixture('camt.053.001.02-bank.xml'))).toBe('camt.053.001.02');
    expect(detectIsoMessage(fixture('camt.054.001.08-credit-structured-reference.xml'))).toBe('camt.054.001.08');
    expect(detectIsoMessage(fixture('pain.002.001.10-rejected-transaction.xml'))).toBe('pain.002.001.10');
    expect(detectIsoMessage('\uFEFF<!-- bank --><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"/>')).toBe('pain.001.001.09');
  });

  it('says nothing of what it does not know', () => {
    expect(detectIsoMessage(fixture('nacha-payouts.txt'))).toBeUndefined();
    expect(detectIsoMessage('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.13"/>')).toBeUndefined();
    expect(detectIsoMessage('<Document/>')).toBeUndefined();
    expect(detectIsoMessage('<x:Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"/>')).toBeUndefined();
    expect(detectIsoMessage('')).toBeUndefined();
  });
});

describe('refusing bad files whole', () => {
  it.each<[string, () => unknown, IsoParseErrorCode, RegExp]>([
    ['a truncated statement', () => parseCamt053(statement.slice(0, Math.floor(statement.length * 0.6))), 'NOT_WELL_FORMED', /not well-formed/],
    ['a statement cut after its root opened', () => parseCamt053(statement.slice(0, 200)), 'NOT_WELL_FORMED', /not well-formed/],
    ['a NACHA file', () => parseCamt053(fixture('nacha-payouts.txt')), 'NOT_WELL_FORMED', /not well-formed/],
    ['an empty file', () => parsePain002(''), 'NOT_WELL_FORMED', /empty/],
    ['an unknown namespace', () => parseCamt053(statement.replace('camt.053.001.08', 'camt.053.001.99')), 'UNKNOWN_NAMESPACE', /camt\.053\.001\.99/],
    [
      'a document in no namespace',
      () => parseCamt053(statement.replace(' xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"', '')),
      'UNKNOWN_NAMESPACE',
      /\(none\)/,
    ],
    ['a statement given as a notification', () => parseCamt054(statement), 'WRONG_MESSAGE', /expected camt\.054/],
    ['a status report given as a payout file', () => parsePain001(fixture('pain.002.001.10-rejected-transaction.xml')), 'WRONG_MESSAGE', /pain\.002/],
    ['an amount with too many decimals', () => parseCamt054(fixture('camt.054.001.08-too-many-decimals.xml')), 'BAD_VALUE', /10\.001.*more decimals/],
    ['an amount with an exponent', () => parseCamt053(statement.replace('>189.99</Amt>', '>1.8999E2</Amt>')), 'BAD_VALUE', /not a decimal/],
    ['a negative amount', () => parseCamt053(statement.replace('>3000.00</Amt>', '>-3000.00</Amt>')), 'BAD_VALUE', /not a decimal/],
    [
      'an entry without a bank reference',
      () => parseCamt053(statement.replace(/<AcctSvcrRef>ABN-8812735590<\/AcctSvcrRef>/, '').replace('<NtryRef>2</NtryRef>', '')),
      'MISSING_ELEMENT',
      /bank reference/,
    ],
    ['a statement without an id', () => parseCamt053(statement.replace('<Id>20261127-NL91ABNA0417164300</Id>', '')), 'MISSING_ELEMENT', /Id is missing/],
    [
      'a CdtDbtInd that is neither',
      () => parseCamt053(statement.replace('<CdtDbtInd>DBIT</CdtDbtInd>', '<CdtDbtInd>DEBIT</CdtDbtInd>')),
      'BAD_VALUE',
      /CdtDbtInd/,
    ],
    ['a DOCTYPE', () => parseCamt053(statement.replace('<Document', '<!DOCTYPE d [<!ENTITY a "aa">]><Document')), 'NOT_WELL_FORMED', /DOCTYPE/],
  ])('refuses %s', (_, parse, code, message) => {
    const error = refusal(parse);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('says where a missing element was expected', () => {
    const error = refusal(() =>
      parsePain002(fixture('pain.002.001.10-rejected-transaction.xml').replace('<OrgnlEndToEndId>Transaction:019a7c1e0202</OrgnlEndToEndId>', '')),
    );
    expect(error.code).toBe('MISSING_ELEMENT');
    expect(error.path).toBe('/Document/CstmrPmtStsRpt/OrgnlPmtInfAndSts/TxInfAndSts[2]');
  });

  it('ignores elements it does not know', () => {
    const extended = statement
      .replace('<AddtlStmtInf>', '')
      .replace('</Acct>', '<Extra><Deep>1</Deep></Extra></Acct>')
      .replace('<NtryRef>1</NtryRef>', '<NtryRef>1</NtryRef><Unknown/>');
    expect(parseCamt053(extended).entries).toHaveLength(2);
  });
});

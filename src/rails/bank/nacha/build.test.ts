import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type NachaBatchInput, type NachaEntryInput, type NachaFileInput, buildNachaFile } from './build.js';
import { NachaError } from './errors.js';
import { abaCheckDigit } from './fields.js';
import { columns as cols, fixture } from './fixtures/edit.js';
import { CCD_CREDIT, MIXED_DEBIT, PPD_CREDIT } from './fixtures/inputs.js';
import { validateNachaFile } from './validate.js';

/** A copy of an input with its first batch's first entry changed. */
function withEntry(input: NachaFileInput, change: Partial<NachaEntryInput>): NachaFileInput {
  const [b, ...rest] = input.batches;
  return { ...input, batches: [{ ...b, entries: [{ ...b.entries[0], ...change }, ...b.entries.slice(1)] }, ...rest] };
}

function withBatch(input: NachaFileInput, change: Partial<NachaBatchInput>): NachaFileInput {
  const [b, ...rest] = input.batches;
  return { ...input, batches: [{ ...b, ...change }, ...rest] };
}

function refusal(input: NachaFileInput): NachaError {
  try {
    buildNachaFile(input);
  } catch (err) {
    expect(err).toBeInstanceOf(NachaError);
    return err as NachaError;
  }
  throw new Error('the input was accepted');
}

describe('buildNachaFile: golden files', () => {
  // The golden files were composed by hand from the layout (see fixtures/inputs.ts), not written
  // by this builder: the comparison is byte for byte.
  it.each([
    ['ppd-credit.ach', PPD_CREDIT],
    ['ccd-credit.ach', CCD_CREDIT],
    ['mixed-debit.ach', MIXED_DEBIT],
  ])('%s', (name, input) => {
    const built = buildNachaFile(input);
    expect(built.text).toBe(fixture(name));
    expect(validateNachaFile(built.text)).toEqual([]);
  });
});

describe('buildNachaFile: records', () => {
  const { text, totals, traceNumbers } = buildNachaFile(PPD_CREDIT);
  const col = (line: number, start: number, end: number) => cols(text, line, start, end);

  it('writes 94-character records joined by "\\n", ending with one', () => {
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.every((l) => l.length === 94)).toBe(true);
    expect(text).not.toContain('\r');
  });

  it('puts the file header fields in their columns', () => {
    expect(col(1, 1, 3)).toBe('101');
    expect(col(1, 4, 13)).toBe(' 121042882');
    expect(col(1, 14, 23)).toBe('1123456789');
    // 19:05 UTC is 14:05 in New York in November.
    expect(col(1, 24, 29)).toBe('261127');
    expect(col(1, 30, 33)).toBe('1405');
    expect(col(1, 34, 40)).toBe('A094101');
    expect(col(1, 41, 63)).toBe('PARTNER BANK'.padEnd(23));
    expect(col(1, 64, 86)).toBe('CORRIDOR PAYMENTS INC'.padEnd(23));
  });

  it('puts the batch header fields in their columns, service class from the entries', () => {
    expect(col(2, 1, 4)).toBe('5220');
    expect(col(2, 5, 20)).toBe('CORRIDOR'.padEnd(16));
    expect(col(2, 41, 50)).toBe('1123456789');
    expect(col(2, 51, 53)).toBe('PPD');
    expect(col(2, 54, 63)).toBe('PAYOUT    ');
    expect(col(2, 70, 75)).toBe('261130');
    expect(col(2, 76, 78)).toBe('   ');
    expect(col(2, 79, 94)).toBe('1121042880000001');
  });

  it('puts the entry fields in their columns: routing split from its check digit, amount zero-filled, name transliterated', () => {
    expect(col(3, 2, 3)).toBe('22');
    expect(col(3, 4, 11)).toBe('23138010');
    expect(col(3, 12, 12)).toBe('4');
    expect(col(3, 13, 29)).toBe('0123456789       ');
    expect(col(3, 30, 39)).toBe('0000150000');
    expect(col(3, 40, 54)).toBe('PAY7F3K9Q2M1X4B');
    expect(col(3, 55, 76)).toBe('ZOE ANGSTROM'.padEnd(22));
    expect(col(3, 79, 79)).toBe('0');
    expect(col(3, 80, 94)).toBe('121042880000001');
    expect(col(4, 55, 76)).toBe("MARIE-CLAIRE O'NEIL".padEnd(22));
    expect(col(4, 79, 79)).toBe('1');
  });

  it('writes the addenda 05 with the entry trace sequence', () => {
    expect(col(5, 1, 3)).toBe('705');
    expect(col(5, 4, 83)).toBe('INVOICE 2026-118 SETTLEMENT'.padEnd(80));
    expect(col(5, 84, 87)).toBe('0001');
    expect(col(5, 88, 94)).toBe('0000002');
  });

  it('totals the batch and the file', () => {
    expect(col(6, 1, 4)).toBe('8220');
    expect(col(6, 5, 10)).toBe('000003');
    expect(col(6, 11, 20)).toBe('0032238011'); // 23138010 + 09100001
    expect(col(6, 21, 32)).toBe('000000000000');
    expect(col(6, 33, 44)).toBe('000000152599');
    expect(col(6, 45, 54)).toBe('1123456789');
    expect(col(6, 55, 79)).toBe(' '.repeat(25));
    expect(col(6, 80, 94)).toBe('121042880000001');
    expect(col(7, 1, 7)).toBe('9000001');
    expect(col(7, 8, 13)).toBe('000001');
    expect(col(7, 14, 21)).toBe('00000003');
    expect(col(7, 22, 31)).toBe('0032238011');
    expect(col(7, 32, 55)).toBe('000000000000000000152599');
    expect(totals).toEqual({
      batchCount: 1,
      blockCount: 1,
      recordCount: 10,
      entryCount: 2,
      entryAddendaCount: 3,
      entryHash: 32238011n,
      totalDebit: 0n,
      totalCredit: 152599n,
    });
    expect(traceNumbers).toEqual([['121042880000001', '121042880000002']]);
  });

  it('pads the file with "9" records to a multiple of 10', () => {
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines.slice(7)).toEqual(Array(3).fill('9'.repeat(94)));
    // Header, batch header, 6 entries, batch control, file control: 10 records, no padding.
    const ten = buildNachaFile({ ...PPD_CREDIT, batches: [{ ...PPD_CREDIT.batches[0], entries: Array(6).fill(PPD_CREDIT.batches[0].entries[0]) }] });
    expect(ten.totals.recordCount).toBe(10);
    expect(ten.text.trimEnd().split('\n').at(-1)!.startsWith('9000001000001')).toBe(true);
    // Eleven records need a second block.
    const eleven = buildNachaFile({ ...PPD_CREDIT, batches: [{ ...PPD_CREDIT.batches[0], entries: Array(7).fill(PPD_CREDIT.batches[0].entries[0]) }] });
    expect(eleven.totals).toMatchObject({ recordCount: 20, blockCount: 2 });
    expect(cols(eleven.text, 11, 8, 13)).toBe('000002');
  });

  it('numbers batches from 1 and trace numbers ascending across the whole file', () => {
    const mixed = buildNachaFile(MIXED_DEBIT);
    expect(mixed.traceNumbers).toEqual([['121042880000001', '121042880000002'], ['121042880000003'], ['121042880000004']]);
    const lines = mixed.text.split('\n');
    expect(lines.filter((l) => l[0] === '5').map((l) => l.slice(87))).toEqual(['0000001', '0000002', '0000003']);
    const traces = lines.filter((l) => l[0] === '6').map((l) => l.slice(79));
    expect(traces).toEqual([...traces].sort());
    expect(new Set(traces).size).toBe(traces.length);
    expect(lines.filter((l) => l[0] === '5').map((l) => l.slice(1, 4))).toEqual(['200', '225', '220']);
  });

  it('keeps the last 10 digits of an entry hash that overflows', () => {
    const routing = '99999999' + abaCheckDigit('99999999');
    const entry: NachaEntryInput = { ...PPD_CREDIT.batches[0].entries[0], receivingDFIRoutingNumber: routing };
    const built = buildNachaFile({ ...PPD_CREDIT, batches: [{ ...PPD_CREDIT.batches[0], entries: Array(110).fill(entry) }] });
    // 110 × 99999999 = 10999999890: the hash drops the leading "1".
    expect(built.totals.entryHash).toBe(999999890n);
    const lines = built.text.split('\n');
    // Records: file header, batch header, 110 entries, then the batch control and file control.
    expect(lines[112].slice(10, 20)).toBe('0999999890');
    expect(lines[113].slice(21, 31)).toBe('0999999890');
    expect(validateNachaFile(built.text)).toEqual([]);
  });
});

describe('buildNachaFile: determinism and options', () => {
  it('gives the same bytes and hash for the same input', () => {
    const a = buildNachaFile(MIXED_DEBIT);
    const b = buildNachaFile(structuredClone(MIXED_DEBIT));
    expect(b.text).toBe(a.text);
    expect(b.sha256).toBe(a.sha256);
    expect(a.sha256).toBe(createHash('sha256').update(Buffer.from(a.text, 'ascii')).digest('hex'));
    expect(buildNachaFile({ ...MIXED_DEBIT, fileIdModifier: 'D' }).sha256).not.toBe(a.sha256);
  });

  it('writes "\\r\\n" line ends when asked', () => {
    const crlf = buildNachaFile({ ...PPD_CREDIT, lineEnding: '\r\n' });
    expect(crlf.text).toBe(fixture('ppd-credit.ach').replaceAll('\n', '\r\n'));
  });

  it('formats the creation date and time in the given time zone', () => {
    const utc = buildNachaFile({ ...PPD_CREDIT, timeZone: 'UTC' });
    expect(cols(utc.text, 1, 24, 33)).toBe('2611271905');
    const late = buildNachaFile({ ...PPD_CREDIT, fileCreatedAt: new Date('2026-11-28T04:30:00Z') });
    expect(cols(late.text, 1, 24, 33)).toBe('2611272330'); // still the 27th in New York
  });

  it('cuts a long receiver name at 22 characters and keeps identifiers as given', () => {
    const built = buildNachaFile(withEntry(PPD_CREDIT, { individualName: 'Maximilian Alexander von Habsburg-Lothringen' }));
    expect(cols(built.text, 3, 55, 76)).toBe('MAXIMILIAN ALEXANDER V');
  });

  it('replaces a character it cannot transliterate with a space, keeping the columns', () => {
    const built = buildNachaFile(withEntry(PPD_CREDIT, { individualName: 'Li 李 Wei' }));
    expect(cols(built.text, 3, 55, 76)).toBe('LI   WEI'.padEnd(22));
    expect(cols(built.text, 3, 77, 94)).toBe('  0121042880000001');
  });

  it('marks a same-day batch "SD" + settlement time and requires the creation date as effective date', () => {
    const built = buildNachaFile(CCD_CREDIT);
    expect(cols(built.text, 2, 64, 75)).toBe('SD1500261127');
    expect(refusal(withBatch(CCD_CREDIT, { effectiveEntryDate: '261130' })).field).toBe('batches[0].effectiveEntryDate');
    expect(refusal(withBatch(CCD_CREDIT, { sameDaySettlementTime: undefined })).field).toBe('batches[0].sameDaySettlementTime');
    expect(refusal(withBatch(CCD_CREDIT, { companyDescriptiveDate: 'NOV 27' })).field).toBe('batches[0].companyDescriptiveDate');
    expect(refusal(withEntry(CCD_CREDIT, { amount: 100_000_001n })).message).toMatch(/Same Day ACH limit/);
    expect(buildNachaFile(withEntry(CCD_CREDIT, { amount: 100_000_000n })).totals.totalCredit).toBe(100_000_000n);
  });

  it('refuses an effective date of today (or earlier) for a batch not marked same-day', () => {
    expect(refusal(withBatch(PPD_CREDIT, { effectiveEntryDate: '261127' })).message).toMatch(/same-day/);
    expect(refusal(withBatch(PPD_CREDIT, { effectiveEntryDate: '261126' })).field).toBe('batches[0].effectiveEntryDate');
    expect(refusal(withBatch(PPD_CREDIT, { effectiveEntryDate: '261131' })).message).toMatch(/YYMMDD/);
  });
});

describe('buildNachaFile: refused input', () => {
  it.each<[string, NachaFileInput, string, RegExp]>([
    [
      'a routing number failing the ABA check digit',
      withEntry(PPD_CREDIT, { receivingDFIRoutingNumber: '231380105' }),
      'batches[0].entries[0].receivingDFIRoutingNumber',
      /check digit/,
    ],
    [
      'a routing number of 8 digits',
      withEntry(PPD_CREDIT, { receivingDFIRoutingNumber: '23138010' }),
      'batches[0].entries[0].receivingDFIRoutingNumber',
      /9 digits/,
    ],
    ['amount 0', withEntry(PPD_CREDIT, { amount: 0n }), 'batches[0].entries[0].amount', /above zero/],
    ['a negative amount', withEntry(PPD_CREDIT, { amount: -1n }), 'batches[0].entries[0].amount', /above zero/],
    ['amount 10^10', withEntry(PPD_CREDIT, { amount: 10n ** 10n }), 'batches[0].entries[0].amount', /10-digit/],
    ['an amount that is not a bigint', withEntry(PPD_CREDIT, { amount: 100 as unknown as bigint }), 'batches[0].entries[0].amount', /bigint/],
    ['a prenote with an amount', withEntry(PPD_CREDIT, { transactionCode: 23, amount: 1n }), 'batches[0].entries[0].amount', /prenote/],
    ['an account of 18 characters', withEntry(PPD_CREDIT, { dfiAccountNumber: '123456789012345678' }), 'batches[0].entries[0].dfiAccountNumber', /17/],
    ['an account with a space', withEntry(PPD_CREDIT, { dfiAccountNumber: '1234 5678' }), 'batches[0].entries[0].dfiAccountNumber', /17/],
    [
      'a payment reference of 16 characters',
      withEntry(PPD_CREDIT, { individualIdentificationNumber: 'PAY7F3K9Q2M1X4BZ' }),
      'batches[0].entries[0].individualIdentificationNumber',
      /15/,
    ],
    [
      'a lower-case payment reference',
      withEntry(PPD_CREDIT, { individualIdentificationNumber: 'pay-1' }),
      'batches[0].entries[0].individualIdentificationNumber',
      /upper-case/,
    ],
    ['a name with nothing writable', withEntry(PPD_CREDIT, { individualName: '李伟' }), 'batches[0].entries[0].individualName', /writable/],
    ['an unknown transaction code', withEntry(PPD_CREDIT, { transactionCode: 21 as 22 }), 'batches[0].entries[0].transactionCode', /22, 23/],
    [
      'payment information over 80 characters',
      withEntry(PPD_CREDIT, { addenda: { paymentRelatedInformation: 'X'.repeat(81) } }),
      'batches[0].entries[0].addenda.paymentRelatedInformation',
      /80/,
    ],
    ['a company name over 16 characters', withBatch(PPD_CREDIT, { companyName: 'Corridor Payments Inc' }), 'batches[0].companyName', /16/],
    [
      'an entry description over 10 characters',
      withBatch(PPD_CREDIT, { companyEntryDescription: 'PAYOUT 2026 NOV' }),
      'batches[0].companyEntryDescription',
      /10/,
    ],
    [
      'an ODFI identification of 9 digits',
      withBatch(PPD_CREDIT, { originatingDFIIdentification: '121042882' }),
      'batches[0].originatingDFIIdentification',
      /8 digits/,
    ],
    ['an SEC code other than PPD or CCD', withBatch(PPD_CREDIT, { standardEntryClassCode: 'WEB' as 'PPD' }), 'batches[0].standardEntryClassCode', /PPD or CCD/],
    ['a batch without entries', withBatch(PPD_CREDIT, { entries: [] }), 'batches[0].entries', /at least one/],
    ['a file without batches', { ...PPD_CREDIT, batches: [] }, 'batches', /at least one/],
    ['a destination failing the check digit', { ...PPD_CREDIT, immediateDestination: '121042883' }, 'immediateDestination', /check digit/],
    ['an origin of 8 characters', { ...PPD_CREDIT, immediateOrigin: '12345678' }, 'immediateOrigin', /10 characters/],
    ['a lower-case file ID modifier', { ...PPD_CREDIT, fileIdModifier: 'a' }, 'fileIdModifier', /A-Z/],
    ['no time zone', { ...PPD_CREDIT, timeZone: undefined as unknown as string }, 'timeZone', /required/],
    ['an unknown time zone', { ...PPD_CREDIT, timeZone: 'Mars/Olympus' }, 'timeZone', /IANA/],
    ['an invalid date', { ...PPD_CREDIT, fileCreatedAt: new Date('nope') }, 'fileCreatedAt', /valid Date/],
  ])('%s', (_, input, field, message) => {
    const err = refusal(input);
    expect(err.field).toBe(field);
    expect(err.message).toMatch(message);
  });

  it('accepts the largest amount that fits and a 9-digit routing origin', () => {
    const built = buildNachaFile({ ...withEntry(PPD_CREDIT, { amount: 9_999_999_999n }), immediateOrigin: '121042882' });
    expect(cols(built.text, 3, 30, 39)).toBe('9999999999');
    expect(cols(built.text, 1, 14, 23)).toBe(' 121042882');
  });
});

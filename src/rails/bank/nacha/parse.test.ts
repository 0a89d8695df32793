import { describe, expect, it } from 'vitest';
import { buildNachaFile } from './build.js';
import { returnCodeInfo } from './codes.js';
import { NachaError, type NachaRule } from './errors.js';
import { fixture, patch } from './fixtures/edit.js';
import { CCD_CREDIT, MIXED_DEBIT, PPD_CREDIT } from './fixtures/inputs.js';
import { nachaChanges, nachaReturns, parseNachaFile } from './parse.js';
import { validateNachaFile } from './validate.js';

function refusal(text: string): NachaError {
  try {
    parseNachaFile(text);
  } catch (err) {
    expect(err).toBeInstanceOf(NachaError);
    return err as NachaError;
  }
  throw new Error('the file was accepted');
}

function expectRefused(text: string, line: number, rule: NachaRule, message?: RegExp): void {
  const err = refusal(text);
  expect(err.problem).toMatchObject({ line, rule });
  expect(err.message).toContain(`line ${line}:`);
  if (message) expect(err.message).toMatch(message);
}

describe('parseNachaFile: round trip', () => {
  it('reads back every field buildNachaFile wrote', () => {
    const built = buildNachaFile(PPD_CREDIT);
    const file = parseNachaFile(built.text);
    expect(file.header).toEqual({
      immediateDestination: '121042882',
      immediateOrigin: '1123456789',
      fileCreationDate: '261127',
      fileCreationTime: '1405',
      fileIdModifier: 'A',
      immediateDestinationName: 'PARTNER BANK',
      immediateOriginName: 'CORRIDOR PAYMENTS INC',
      referenceCode: '',
    });
    expect(file.recordCount).toBe(10);
    expect(file.batches).toHaveLength(1);
    const [batch] = file.batches;
    expect(batch.header).toMatchObject({
      serviceClassCode: 220,
      companyName: 'CORRIDOR',
      companyIdentification: '1123456789',
      standardEntryClassCode: 'PPD',
      companyEntryDescription: 'PAYOUT',
      effectiveEntryDate: '261130',
      settlementDate: '',
      originatorStatusCode: '1',
      originatingDFIIdentification: '12104288',
      batchNumber: 1,
    });
    expect(
      batch.entries.map((e) => [
        e.transactionCode,
        e.direction,
        e.receivingDFIRoutingNumber,
        e.dfiAccountNumber,
        e.amount,
        e.individualIdentificationNumber,
        e.traceNumber,
      ]),
    ).toEqual([
      [22, 'credit', '231380104', '0123456789', 150000n, 'PAY7F3K9Q2M1X4B', '121042880000001'],
      [32, 'credit', '091000019', '55500012', 2599n, 'PAYA1B2C3D4E5F6', '121042880000002'],
    ]);
    expect(batch.entries[1].paymentRelatedInformation).toBe('INVOICE 2026-118 SETTLEMENT');
    expect(batch.entries[0].paymentRelatedInformation).toBeUndefined();
    expect(batch.control).toMatchObject({ entryAddendaCount: 3, entryHash: 32238011n, totalDebit: 0n, totalCredit: 152599n });
    expect(file.control).toEqual({ batchCount: 1, blockCount: 1, entryAddendaCount: 3, entryHash: 32238011n, totalDebit: 0n, totalCredit: 152599n });
  });

  it.each([
    ['PPD', PPD_CREDIT],
    ['same-day CCD', CCD_CREDIT],
    ['mixed', MIXED_DEBIT],
  ])('agrees with the builder on totals and traces (%s)', (_, input) => {
    const built = buildNachaFile(input);
    const file = parseNachaFile(built.text);
    expect(file.control).toMatchObject({
      batchCount: built.totals.batchCount,
      blockCount: built.totals.blockCount,
      entryAddendaCount: built.totals.entryAddendaCount,
      entryHash: built.totals.entryHash,
      totalDebit: built.totals.totalDebit,
      totalCredit: built.totals.totalCredit,
    });
    expect(file.batches.map((b) => b.entries.map((e) => e.traceNumber))).toEqual(built.traceNumbers);
    expect(file.batches.flatMap((b) => b.entries.map((e) => e.amount))).toEqual(input.batches.flatMap((b) => b.entries.map((e) => e.amount)));
  });

  it('reads debits, prenotes and the same-day marker', () => {
    const mixed = parseNachaFile(buildNachaFile(MIXED_DEBIT).text);
    expect(mixed.batches.map((b) => b.header.serviceClassCode)).toEqual([200, 225, 220]);
    expect(mixed.batches[0].entries[1]).toMatchObject({ transactionCode: 27, direction: 'debit', prenote: false, amount: 2500n });
    expect(mixed.batches[2].entries[0]).toMatchObject({ transactionCode: 23, direction: 'credit', prenote: true, amount: 0n });
    expect(mixed.control).toMatchObject({ totalDebit: 3277n, totalCredit: 10000n });
    const ccd = parseNachaFile(buildNachaFile(CCD_CREDIT).text);
    expect(ccd.batches[0].header).toMatchObject({ companyDescriptiveDate: 'SD1500', effectiveEntryDate: '261127', companyDiscretionaryData: 'OPS TREASURY' });
  });
});

describe('parseNachaFile: tolerated', () => {
  const text = fixture('ppd-credit.ach');
  const expected = parseNachaFile(text);

  it('"\\r\\n" line ends', () => {
    expect(parseNachaFile(text.replaceAll('\n', '\r\n'))).toEqual(expected);
  });

  it('trailing whitespace after column 94, a missing final line break, empty lines at the end, a byte order mark', () => {
    expect(parseNachaFile(text.replaceAll('\n', '  \t\n'))).toEqual(expected);
    expect(parseNachaFile(text.trimEnd())).toEqual(expected);
    expect(parseNachaFile(text + '\n\n')).toEqual(expected);
    expect(parseNachaFile('\ufeff' + text)).toEqual(expected);
  });
});

describe('parseNachaFile: returns and notifications of change', () => {
  it('reads a return file: return codes, original trace numbers, date of death', () => {
    const file = parseNachaFile(fixture('return.ach'));
    expect(file.batches.map((b) => [b.header.originatingDFIIdentification, b.header.settlementDate])).toEqual([
      ['23138010', '334'],
      ['09100001', '334'],
    ]);
    const returns = nachaReturns(file);
    expect(
      returns.map((r) => [r.returnCode, r.originalTraceNumber, r.dateOfDeath, r.originalReceivingDFIIdentification, r.addendaInformation, r.traceNumber]),
    ).toEqual([
      ['R03', '121042880000001', '', '23138010', '', '231380100000017'],
      ['R15', '121042880000002', '261120', '09100001', 'ACCOUNT HOLDER DECEASED', '091000010000523'],
    ]);
    expect(returns[0].entry).toMatchObject({
      transactionCode: 21,
      amount: 150000n,
      individualIdentificationNumber: 'PAY7F3K9Q2M1X4B',
      receivingDFIRoutingNumber: '121042882',
    });
    expect(returns[1].entry).toMatchObject({ transactionCode: 31, amount: 2599n, individualName: "MARIE-CLAIRE O'NEIL" });
    expect(returns.map((r) => returnCodeInfo(r.returnCode)?.accountUnusable)).toEqual([true, true]);
    expect(nachaChanges(file)).toEqual([]);
  });

  it('matches returns to the payouts they return by original trace number', () => {
    const sent = buildNachaFile(PPD_CREDIT);
    const returned = nachaReturns(parseNachaFile(fixture('return.ach')));
    expect(returned.map((r) => r.originalTraceNumber)).toEqual(sent.traceNumbers[0]);
  });

  it('reads a NOC file: change codes, corrected data and the corrected values', () => {
    const file = parseNachaFile(fixture('noc.ach'));
    expect(file.batches[0].header).toMatchObject({ standardEntryClassCode: 'COR', serviceClassCode: 200 });
    const changes = nachaChanges(file);
    expect(changes.map((c) => [c.changeCode, c.originalTraceNumber, c.originalReceivingDFIIdentification, c.correctedData, c.corrected])).toEqual([
      ['C01', '121042880000001', '23138010', '0123456780', { accountNumber: '0123456780' }],
      ['C03', '121042880000002', '23138010', '026009593   99887766', { routingNumber: '026009593', accountNumber: '99887766' }],
      ['C07', '121042880000003', '23138010', '09100001955500013         37', { routingNumber: '091000019', accountNumber: '55500013', transactionCode: 37 }],
      ['C06', '121042880000004', '23138010', '12121212            32', { accountNumber: '12121212', transactionCode: 32 }],
      ['C05', '121042880000005', '23138010', '32', { transactionCode: 32 }],
    ]);
    expect(changes.every((c) => c.entry.amount === 0n && c.traceNumber === c.entry.traceNumber)).toBe(true);
    expect(nachaReturns(file)).toEqual([]);
  });

  it('reads a C02 and leaves corrections of other codes unparsed', () => {
    let text = fixture('noc.ach');
    text = patch(text, 4, 4, 'C02');
    text = patch(text, 4, 36, '231380104' + ' '.repeat(20));
    text = patch(text, 12, 4, 'C09');
    text = patch(text, 12, 36, 'NEWID12345');
    const changes = nachaChanges(parseNachaFile(text));
    expect(changes[0]).toMatchObject({ changeCode: 'C02', corrected: { routingNumber: '231380104' } });
    expect(changes[4]).toMatchObject({ changeCode: 'C09', correctedData: 'NEWID12345', corrected: undefined });
  });

  it('refuses a return entry without its addenda 99 and an addenda 99 on a forward entry', () => {
    // The first return without its addenda record, indicator and counts adjusted.
    const lines = patch(patch(fixture('return.ach'), 3, 79, '0'), 5, 5, '000001').split('\n');
    lines.splice(3, 1);
    expectRefused(lines.join('\n'), 3, 'addenda', /return transaction code 21 but no return addenda/);
    expectRefused(patch(patch(fixture('return.ach'), 3, 2, '22'), 5, 2, '220'), 3, 'addenda', /code 22 is not a return's/);
  });

  it('refuses a notification of change outside a COR batch and a COR entry without one', () => {
    // In a PPD batch the entry's code 21 reads as a return (line 3) and its addenda 98 is out of place (line 4).
    const ppd = validateNachaFile(patch(fixture('noc.ach'), 2, 51, 'PPD'));
    expect(ppd.slice(0, 2)).toEqual([
      { line: 3, rule: 'addenda', message: expect.stringMatching(/no return addenda/) },
      { line: 4, rule: 'addenda', message: expect.stringMatching(/belongs in a COR batch/) },
    ]);
    let text = fixture('noc.ach');
    text = patch(text, 3, 79, '0');
    expectRefused(text, 4, 'addenda', /indicator 0/);
  });
});

describe('parseNachaFile: refused', () => {
  const text = fixture('ppd-credit.ach');

  it('a file cut after a record', () => {
    const lines = text.split('\n');
    expectRefused(lines.slice(0, 4).join('\n') + '\n', 4, 'truncated', /inside batch 1.*no batch control.*cut short/);
    expectRefused(lines.slice(0, 6).join('\n'), 6, 'truncated', /without a file control record/);
  });

  it('a file cut inside a record', () => {
    expectRefused(text.slice(0, 94 * 3 + 40), 4, 'record-length', /94 characters, this line has 37/);
  });

  it('a wrong batch total', () => {
    expectRefused(patch(text, 6, 33, '000000152600'), 6, 'batch-control', /total credit amount is 152600 in the batch control record, 152599 by the batch/);
  });

  it('a wrong batch count of records', () => {
    expectRefused(patch(text, 6, 5, '000002'), 6, 'batch-control', /entry\/addenda count/);
  });

  it('an amount changed without its totals', () => {
    expectRefused(patch(text, 3, 30, '0000150001'), 6, 'batch-control', /152600 by the batch/);
  });

  it('a wrong entry hash, in the batch or the file control', () => {
    expectRefused(patch(text, 6, 11, '0032238012'), 6, 'entry-hash');
    expectRefused(patch(text, 7, 22, '0032238012'), 7, 'entry-hash');
  });

  it('wrong file control totals and counts', () => {
    expectRefused(patch(text, 7, 44, '000000152598'), 7, 'file-control', /total credit amount/);
    expectRefused(patch(text, 7, 2, '000002'), 7, 'file-control', /batch count/);
    expectRefused(patch(text, 7, 8, '000002'), 7, 'file-control', /block count/);
  });

  it('an unknown record type', () => {
    expectRefused(patch(text, 3, 1, '4'), 3, 'record-type', /unknown record type "4"/);
  });

  it('records out of order', () => {
    const lines = text.split('\n');
    [lines[2], lines[4]] = [lines[4], lines[2]];
    expectRefused(lines.join('\n'), 3, 'record-order', /addenda \(7\) must follow an entry/);
    expectRefused(patch(text, 2, 1, '6'), 2, 'record-order', /an entry detail record \(6\) cannot come here: expected 5 or 9/);
  });

  it('a pain.001 XML document', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"><CstmrCdtTrfInitn/></Document>\n';
    expectRefused(xml, 1, 'not-nacha', /XML/);
  });

  it('an empty text and a CSV', () => {
    expectRefused('', 0, 'not-nacha', /empty/);
    expectRefused('id,amount\n1,100\n', 1, 'not-nacha', /starts with a file header/);
  });

  it('a short line (spaces stripped are not put back)', () => {
    expectRefused(text.replace(/ +\n/, '\n'), 1, 'record-length');
  });

  it('missing or excessive padding', () => {
    const lines = text.trimEnd().split('\n');
    expectRefused(lines.slice(0, 9).join('\n'), 9, 'blocking', /multiple of 10/);
    expectRefused(patch(text, 9, 1, '8'), 9, 'blocking', /only padding records/);
    // Twenty records are two blocks, as the file control says; but the second one is all padding.
    const padded = [...lines, ...Array(10).fill('9'.repeat(94))].join('\n');
    expectRefused(padded, 7, 'file-control', /block count is 1 in the file control record, 2 by the file/);
    expectRefused(patch(padded, 7, 8, '000002'), 20, 'blocking', /more than a block/);
  });

  it('an entry whose routing number fails the check digit', () => {
    let bad = patch(text, 3, 12, '5');
    expectRefused(bad, 3, 'routing-check-digit', /231380105/);
    bad = patch(text, 1, 4, ' 121042883');
    expectRefused(bad, 1, 'routing-check-digit');
  });

  it('trace numbers not ascending in a batch, or not starting with the ODFI', () => {
    expectRefused(patch(patch(text, 4, 80, '121042880000001'), 5, 88, '0000001'), 4, 'trace-number', /not above the previous/);
    expectRefused(patch(text, 3, 80, '121042870000001'), 3, 'trace-number', /must start with the batch's originating DFI/);
  });

  it('an addenda not pointing at its entry', () => {
    expectRefused(patch(text, 5, 88, '0000003'), 5, 'addenda', /last 7 digits/);
  });

  it('a live entry of amount zero, and a debit in a credits-only batch', () => {
    const zero = patch(patch(patch(text, 3, 30, '0000000000'), 6, 33, '000000002599'), 7, 44, '000000002599');
    expectRefused(zero, 3, 'amount', /above zero/);
    expectRefused(patch(text, 3, 2, '27'), 3, 'service-class', /debit .* credits-only/);
  });

  it('an invalid date and a bad constant', () => {
    expectRefused(patch(text, 2, 70, '261131'), 2, 'date', /effective entry date/);
    expectRefused(patch(text, 1, 35, '095'), 1, 'constant', /record size/);
  });

  it('a character outside the NACHA set', () => {
    expectRefused(patch(text, 3, 55, 'Z\u00d6E'), 3, 'charset', /individual name/);
  });

  it('says how many more problems there are', () => {
    const err = refusal(patch(patch(text, 3, 1, '4'), 6, 33, '000000152600'));
    expect(err.message).toMatch(/and \d+ more problems?/);
  });
});

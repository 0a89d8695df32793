// Return and notification-of-change files as a receiving bank lays them out, read back by Corridor's parser.
import { describe, expect, it } from 'vitest';
import { buildNachaFile, nachaChanges, nachaReturns, parseNachaFile, type NachaEntryInput } from '../nacha/index.js';
import { buildChangeFile, buildReturnFile, correctedAccountField, julianDay } from './nacha-reports.js';

const sent = buildNachaFile({
  immediateDestination: '021000021',
  immediateOrigin: '1987654321',
  immediateDestinationName: 'Test Bank',
  immediateOriginName: 'Corridor Test Operator',
  fileCreatedAt: new Date('2026-11-30T14:45:00Z'),
  timeZone: 'UTC',
  fileIdModifier: 'B',
  batches: (['PPD', 'CCD'] as const).map((sec) => ({
    companyName: 'CORRIDOR TEST',
    companyIdentification: '1987654321',
    standardEntryClassCode: sec,
    companyEntryDescription: 'PAYOUT',
    effectiveEntryDate: '261201',
    originatingDFIIdentification: '02100002',
    entries: [
      {
        transactionCode: 32,
        receivingDFIRoutingNumber: '231380104',
        dfiAccountNumber: '11110004',
        amount: 1_00n,
        individualIdentificationNumber: `${sec}SAVINGS00001`,
        individualName: 'Savings Saver',
      },
      {
        transactionCode: 27,
        receivingDFIRoutingNumber: '091000019',
        dfiAccountNumber: '22220004',
        amount: 2_00n,
        individualIdentificationNumber: `${sec}PULL00000001`,
        individualName: 'Pulled Payer',
      },
    ] satisfies NachaEntryInput[],
  })),
});
const file = parseNachaFile(sent.text);
const items = file.batches.flatMap((b) => b.entries.map((entry) => ({ entry, batch: b.header })));
const answer = { original: file.header, createdDate: '261130', createdTime: '1600', fileIdModifier: 'C', settlementDay: julianDay('2026-11-30') };

describe('the files a receiving bank sends back', () => {
  it('returns each entry in a batch of its original batch and receiving bank, with the return transaction code', () => {
    const returned = parseNachaFile(
      buildReturnFile(
        answer,
        items.map((i) => ({ ...i, code: 'R01' })),
      ),
    );
    expect(
      returned.batches.map((b) => [b.header.standardEntryClassCode, b.header.originatingDFIIdentification, b.header.settlementDate, b.header.serviceClassCode]),
    ).toEqual([
      ['PPD', '23138010', '334', 220],
      ['PPD', '09100001', '334', 225],
      ['CCD', '23138010', '334', 220],
      ['CCD', '09100001', '334', 225],
    ]);
    expect(
      nachaReturns(returned).map((r) => [
        r.returnCode,
        r.originalTraceNumber,
        r.entry.transactionCode,
        r.entry.amount,
        r.entry.receivingDFIRoutingNumber,
        r.entry.individualIdentificationNumber,
      ]),
    ).toEqual([
      ['R01', sent.traceNumbers[0][0], 31, 1_00n, '021000021', 'PPDSAVINGS00001'],
      ['R01', sent.traceNumbers[0][1], 26, 2_00n, '021000021', 'PPDPULL00000001'],
      ['R01', sent.traceNumbers[1][0], 31, 1_00n, '021000021', 'CCDSAVINGS00001'],
      ['R01', sent.traceNumbers[1][1], 26, 2_00n, '021000021', 'CCDPULL00000001'],
    ]);
    // The totals: returns of credits are credits, of debits debits.
    expect(returned.control).toMatchObject({ totalCredit: 2_00n, totalDebit: 4_00n, batchCount: 4 });
  });

  it('notifies a change in a COR batch carrying no money, the corrected account where C01 puts it', () => {
    const changed = parseNachaFile(
      buildChangeFile(
        answer,
        items.slice(0, 1).map((i) => ({ ...i, code: 'C01', correctedData: correctedAccountField('11111005') })),
      ),
    );
    expect(changed.batches[0].header).toMatchObject({ standardEntryClassCode: 'COR', companyName: 'CORRIDOR TEST', companyIdentification: '1987654321' });
    expect(changed.control).toMatchObject({ totalCredit: 0n, totalDebit: 0n });
    expect(nachaChanges(changed).map((c) => [c.changeCode, c.originalTraceNumber, c.entry.transactionCode, c.entry.amount, c.corrected])).toEqual([
      ['C01', sent.traceNumbers[0][0], 31, 0n, { accountNumber: '11111005' }],
    ]);
  });

  it('counts settlement days as NACHA does', () => {
    expect([julianDay('2026-01-01'), julianDay('2026-12-31'), julianDay('2028-12-31')]).toEqual([1, 365, 366]);
  });
});

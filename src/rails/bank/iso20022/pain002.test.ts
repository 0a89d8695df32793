import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IsoInputError } from './errors.js';
import { parsePain002 } from './parse-pain002.js';
import { buildPain002, type Pain002Input } from './pain002.js';
import { validateXml } from './validate.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const input: Pain002Input = {
  messageId: 'PSR-20261128-0001',
  createdAt: '2026-11-28T11:00:00+01:00',
  debtorAgentBic: 'COBADEFFXXX',
  originalMessageId: 'PO-20261128-0001',
  originalCreatedAt: '2026-11-28T10:00:00Z',
  originalNumberOfTransactions: 3,
  groupStatus: 'PART',
  transactions: [
    { originalPaymentInformationId: 'PO-20261128-0001-1', originalEndToEndId: 'Transaction:019a7c1e0001', status: 'ACCP' },
    {
      originalPaymentInformationId: 'PO-20261128-0001-1',
      originalEndToEndId: 'Transaction:019a7c1e0002',
      status: 'RJCT',
      reasonCode: 'AC04',
      reasonText: `Account closed: ${'the creditor account was closed by its holder before the payment arrived, '.repeat(2)}`.trim(),
      accountServicerReference: 'CBK-R-1',
    },
    {
      originalPaymentInformationId: 'PO-20261128-0001-2',
      originalEndToEndId: 'Transaction:019a7c1e0003',
      originalInstructionId: 'I-3',
      status: 'RJCT',
      reasonCode: 'AM04',
    },
  ],
};

describe('pain.002.001.10', () => {
  it('builds a status report the official XSD accepts, and reads it back', async () => {
    const xml = buildPain002(input);
    expect(await validateXml(xml, 'pain.002.001.10')).toEqual({ valid: true, errors: [] });
    expect(buildPain002(structuredClone(input))).toBe(xml);
    const report = parsePain002(xml);
    expect(report).toMatchObject({
      messageId: 'PSR-20261128-0001',
      originalMessageId: 'PO-20261128-0001',
      originalMessageNameId: 'pain.001.001.09',
      groupStatus: 'PART',
    });
    expect(report.transactions).toEqual([
      expect.objectContaining({
        originalPaymentInformationId: 'PO-20261128-0001-1',
        originalEndToEndId: 'Transaction:019a7c1e0001',
        status: 'ACCP',
        reasonCode: undefined,
      }),
      expect.objectContaining({
        originalEndToEndId: 'Transaction:019a7c1e0002',
        status: 'RJCT',
        reasonCode: 'AC04',
        reasonText: input.transactions[1]!.reasonText,
        accountServicerReference: 'CBK-R-1',
      }),
      expect.objectContaining({ originalPaymentInformationId: 'PO-20261128-0001-2', originalInstructionId: 'I-3', status: 'RJCT', reasonCode: 'AM04' }),
    ]);
  });

  it('builds the rejection of a whole file, with no transaction', async () => {
    const xml = buildPain002({ ...input, groupStatus: 'RJCT', groupReason: { code: 'FF01', text: 'Invalid file format' }, transactions: [] });
    expect(await validateXml(xml, 'pain.002.001.10')).toEqual({ valid: true, errors: [] });
    expect(parsePain002(xml)).toMatchObject({ groupStatus: 'RJCT', groupReasonCode: 'FF01', groupReasonText: 'Invalid file format', transactions: [] });
  });

  it('refuses bad input naming the field', () => {
    const bad: [Pain002Input, string][] = [
      [{ ...input, originalMessageId: 'M'.repeat(36) }, 'originalMessageId'],
      [{ ...input, transactions: [{ ...input.transactions[0]!, reasonCode: 'ac04' }] }, 'transactions[0].reasonCode'],
      [{ ...input, transactions: [{ ...input.transactions[0]!, status: 'REJECTED' as never }] }, 'transactions[0].status'],
      [{ ...input, groupStatus: undefined, transactions: [] }, 'groupStatus'],
    ];
    for (const [value, field] of bad) {
      expect(() => buildPain002(value), field).toThrow(IsoInputError);
      try {
        buildPain002(value);
      } catch (err) {
        expect((err as IsoInputError).field).toBe(field);
      }
    }
  });

  it('reads a bank status report with a rejected transaction', async () => {
    const xml = fixture('pain.002.001.10-rejected-transaction.xml');
    expect(await validateXml(xml, 'pain.002.001.10')).toEqual({ valid: true, errors: [] });
    const report = parsePain002(xml);
    expect(report.originalMessageId).toBe('PO-20261128-0001');
    expect(report.groupStatus).toBe('PART');
    expect(report.transactions.map((t) => [t.originalEndToEndId, t.status, t.reasonCode])).toEqual([
      ['Transaction:019a7c1e0201', 'ACCP', undefined],
      ['Transaction:019a7c1e0202', 'RJCT', 'AC04'],
      ['Transaction:019a7c1e0203', 'ACCP', undefined],
    ]);
    expect(report.transactions[1]).toMatchObject({
      reasonText: 'Creditor account number closed',
      originalInstructionId: 'I-0202',
      accountServicerReference: 'CBK-R-55120',
    });
  });
});

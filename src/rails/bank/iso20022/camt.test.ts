import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCamt053, buildCamt054, type Camt053Input, type CamtEntryInput } from './camt.js';
import { IsoInputError } from './errors.js';
import { parseCamt053, parseCamt054 } from './parse-camt.js';
import { validateXml } from './validate.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

const account = { iban: 'DE89370400440532013000', currency: 'EUR', name: 'Corridor Operations GmbH', servicerBic: 'COBADEFFXXX' };

const deposit: CamtEntryInput = {
  amount: 75_000n,
  direction: 'CREDIT',
  bookingDate: '2026-11-27',
  valueDate: '2026-11-27',
  bankReference: 'BANK-0001',
  transactions: [
    {
      endToEndId: 'NOTPROVIDED',
      debtor: { name: 'Jürgen Weiß', iban: 'NL91ABNA0417164300' },
      creditorReference: 'RF18539007547034',
      remittanceInformation: 'deposit for Customer:42',
    },
  ],
};
const payouts: CamtEntryInput = {
  amount: 105_550n,
  direction: 'DEBIT',
  bookingDate: '2026-11-27',
  valueDate: '2026-11-27',
  bankReference: 'BANK-0002',
  transactions: [
    {
      messageId: 'PO-1',
      paymentInformationId: 'PO-1-1',
      endToEndId: 'Transaction:1',
      amount: 100_000n,
      creditor: { name: 'Ada Lovelace', iban: 'FR1420041010050500013M02606' },
    },
    {
      messageId: 'PO-1',
      paymentInformationId: 'PO-1-1',
      endToEndId: 'Transaction:2',
      amount: 5_550n,
      creditor: { name: 'Grace Hopper', otherId: '000123456789' },
    },
  ],
};
const returned: CamtEntryInput = {
  amount: 5_500n,
  direction: 'CREDIT',
  bookingDate: '2026-11-27',
  valueDate: '2026-11-27',
  bankReference: 'BANK-0003',
  transactions: [{ endToEndId: 'Transaction:0', creditor: { name: 'Charles Babbage' }, returnReasonCode: 'AC04', returnReasonText: 'Account closed' }],
};

const statement: Camt053Input = {
  messageId: 'C53-20261127',
  createdAt: '2026-11-28T05:00:00+01:00',
  statementId: 'DE89370400440532013000-2026-11-27',
  electronicSequenceNumber: 331n,
  from: '2026-11-27',
  to: '2026-11-27',
  account,
  openingBalance: { amount: 25_000n, date: '2026-11-27' },
  closingBalance: { amount: -50n, date: '2026-11-27' },
  entries: [deposit, payouts, returned],
};

describe('camt.053.001.08 and camt.054.001.08 builders', () => {
  it('build a statement the official XSD accepts, with signed balances, and read it back exactly', async () => {
    const xml = buildCamt053(statement);
    expect(await validateXml(xml, 'camt.053.001.08')).toEqual({ valid: true, errors: [] });
    expect(buildCamt053(structuredClone(statement))).toBe(xml);
    expect(xml).toContain('<TtlNetNtry>');
    const s = parseCamt053(xml);
    expect(s).toMatchObject({
      message: 'camt.053.001.08',
      messageId: 'C53-20261127',
      id: 'DE89370400440532013000-2026-11-27',
      electronicSequenceNumber: '331',
    });
    expect(s.account).toEqual({ iban: 'DE89370400440532013000', otherId: undefined, currency: 'EUR' });
    expect(s.openingBalance).toEqual({ amount: 25_000n, currency: 'EUR', date: '2026-11-27' });
    expect(s.closingBalance).toEqual({ amount: -50n, currency: 'EUR', date: '2026-11-27' });
    expect(s.entries.map((e) => [e.direction, e.amount, e.bankReference, e.bankTransactionCode])).toEqual([
      ['CREDIT', 75_000n, 'BANK-0001', 'PMNT/RCDT/ESCT'],
      ['DEBIT', 105_550n, 'BANK-0002', 'PMNT/ICDT/ESCT'],
      ['CREDIT', 5_500n, 'BANK-0003', 'PMNT/ICDT/RRTN'],
    ]);
    expect(s.entries[0]).toMatchObject({
      reference: 'RF18539007547034',
      remittanceInformation: 'deposit for Customer:42',
      counterpartyName: 'Jürgen Weiß',
      counterpartyAccount: { iban: 'NL91ABNA0417164300' },
    });
    expect(s.entries[1]!.transactions.map((t) => [t.endToEndId, t.amount, t.creditorName])).toEqual([
      ['Transaction:1', 100_000n, 'Ada Lovelace'],
      ['Transaction:2', 5_550n, 'Grace Hopper'],
    ]);
    expect(s.entries[2]).toMatchObject({
      endToEndId: 'Transaction:0',
      returnReasonCode: 'AC04',
      returnReasonText: 'Account closed',
      counterpartyName: 'Charles Babbage',
    });
  });

  it('build a notification the official XSD accepts, in a currency without decimals and at the largest amounts', async () => {
    const xml = buildCamt054({
      messageId: 'N54-1',
      createdAt: '2026-11-28T10:41:07Z',
      notificationId: 'N54-1-1',
      account: { otherId: '0012345678', currency: 'JPY' },
      entries: [
        { ...deposit, amount: 5000n },
        { ...deposit, amount: 999_999_999_999_999_999n, bankReference: 'BANK-0009', transactions: undefined },
      ],
    });
    expect(await validateXml(xml, 'camt.054.001.08')).toEqual({ valid: true, errors: [] });
    expect(xml).toContain('<Amt Ccy="JPY">5000</Amt>');
    const n = parseCamt054(xml);
    expect(n.account).toEqual({ iban: undefined, otherId: '0012345678', currency: 'JPY' });
    expect(n.entries.map((e) => e.amount)).toEqual([5000n, 999_999_999_999_999_999n]);
    expect(n.openingBalance).toBeUndefined();
  });

  it('refuse bad input naming the field', () => {
    const cases: [() => unknown, string][] = [
      [() => buildCamt053({ ...statement, entries: [{ ...deposit, amount: 0n }] }), 'entries[0].amount'],
      [() => buildCamt053({ ...statement, entries: [{ ...deposit, bankReference: 'R'.repeat(36) }] }), 'entries[0].bankReference'],
      [() => buildCamt053({ ...statement, account: { ...account, iban: 'DE00370400440532013000' } }), 'account.iban'],
      [() => buildCamt053({ ...statement, closingBalance: { amount: 1n, date: '27.11.2026' } }), 'closingBalance.date'],
      [
        () => buildCamt053({ ...statement, entries: [{ ...deposit, transactions: [{ creditorReference: 'RF'.padEnd(36, '7') }] }] }),
        'entries[0].transactions[0].creditorReference',
      ],
      [
        () => buildCamt054({ messageId: 'N', createdAt: '2026-11-28T10:00:00Z', notificationId: 'N1', account: { ...account, currency: 'EURO' }, entries: [] }),
        'account.currency',
      ],
    ];
    for (const [build, field] of cases) {
      let error: unknown;
      try {
        build();
      } catch (err) {
        error = err;
      }
      expect(error, field).toBeInstanceOf(IsoInputError);
      expect((error as IsoInputError).field).toBe(field);
    }
  });
});

describe('reading bank camt files', () => {
  it('reads a camt.053.001.02 as banks still send it', async () => {
    const xml = fixture('camt.053.001.02-bank.xml');
    expect(await validateXml(xml, 'camt.053.001.02')).toEqual({ valid: true, errors: [] });
    const s = parseCamt053(xml);
    expect(s).toMatchObject({
      message: 'camt.053.001.02',
      messageId: 'STMT20261127000123',
      id: 'DE89370400440532013000-2026-11-27',
      electronicSequenceNumber: '331',
    });
    expect(s.account.currency).toBe('EUR');
    // PRCD (the previous closing) stands in for the opening balance this bank does not send.
    expect(s.openingBalance).toEqual({ amount: 12_500_000n, currency: 'EUR', date: '2026-11-26' });
    expect(s.closingBalance).toEqual({ amount: 12_474_950n, currency: 'EUR', date: '2026-11-27' });
    const signed = s.entries.reduce((sum, e) => sum + (e.direction === 'CREDIT' ? e.amount : -e.amount), 0n);
    expect(s.openingBalance!.amount + signed).toBe(s.closingBalance!.amount);
    const [deposit, batch, ret] = s.entries;
    expect(deposit).toMatchObject({
      amount: 75_000n,
      status: 'BOOK',
      bookingDate: '2026-11-27',
      bankReference: '2026112700001234',
      counterpartyName: 'Jürgen Weiß',
      reference: 'CRD-7Q4M9X deposit',
    });
    expect(deposit!.transactions[0]!.amount).toBe(75_000n);
    expect(batch!.transactions.map((t) => [t.endToEndId, t.amount])).toEqual([
      ['Transaction:019a7c1e0001', 100_000n],
      ['Transaction:019a7c1e0002', 5_550n],
    ]);
    expect(ret).toMatchObject({
      direction: 'CREDIT',
      endToEndId: 'Transaction:019a7c1d0042',
      returnReasonCode: 'AC04',
      returnReasonText: 'Account closed',
      additionalInformation: 'SEPA Retoure',
    });
  });

  it('reads a camt.053.001.08 with a debit closing balance', async () => {
    const xml = fixture('camt.053.001.08-bank.xml');
    expect(await validateXml(xml, 'camt.053.001.08')).toEqual({ valid: true, errors: [] });
    const s = parseCamt053(xml);
    expect(s.openingBalance!.amount).toBe(250_000n);
    expect(s.closingBalance).toEqual({ amount: -31_001n, currency: 'EUR', date: '2026-11-27' });
    expect(s.entries).toHaveLength(2);
    expect(s.entries[0]).toMatchObject({
      amount: 18_999n,
      direction: 'CREDIT',
      reference: 'RF18539007547034',
      endToEndId: 'INV-2026-0042',
      counterpartyName: 'Société Générale Conseil SARL',
      entryReference: '1',
    });
    expect(s.entries[1]).toMatchObject({
      amount: 300_000n,
      direction: 'DEBIT',
      endToEndId: 'Transaction:019a7c1e0107',
      messageId: 'PO-20261127-0002',
      counterpartyName: 'Ada Lovelace',
    });
  });

  it('reads a camt.054 credit carrying a structured reference, whatever the namespace prefix', async () => {
    const xml = fixture('camt.054.001.08-credit-structured-reference.xml');
    expect(await validateXml(xml, 'camt.054.001.08')).toEqual({ valid: true, errors: [] });
    const n = parseCamt054(xml);
    expect(n).toMatchObject({ message: 'camt.054.001.08', id: 'N54-20261128-000417-1', account: { iban: 'BE68539007547034', currency: 'EUR' } });
    expect(n.entries).toEqual([
      expect.objectContaining({
        amount: 9_000_000_000_000_000n,
        currency: 'EUR',
        direction: 'CREDIT',
        status: 'BOOK',
        bookingDate: '2026-11-28',
        valueDate: '2026-11-28',
        bankReference: 'KBC-IP-7719920012',
        reference: 'RF18539007547034',
        creditorReference: 'RF18539007547034',
        counterpartyName: 'Treasury & Co NV',
        bankTransactionCode: 'PMNT/RCDT/SDVA',
      }),
    ]);
  });

  it('reads a camt.054.001.02, with the remittance text over several lines', async () => {
    const xml = fixture('camt.054.001.02-bank.xml');
    expect(await validateXml(xml, 'camt.054.001.02')).toEqual({ valid: true, errors: [] });
    const n = parseCamt054(xml);
    expect(n).toMatchObject({ message: 'camt.054.001.02', id: 'CAMT054-20261128-0007-01', account: { iban: 'DE89370400440532013000', currency: 'EUR' } });
    expect(n.entries).toEqual([
      expect.objectContaining({
        amount: 4_250n,
        direction: 'CREDIT',
        status: 'BOOK',
        bankReference: '2026112800007001',
        endToEndId: 'E2E-20261128-XY',
        reference: 'CRD-7Q4M9X top-up',
        counterpartyName: 'Émilie Dupont',
      }),
    ]);
  });
});

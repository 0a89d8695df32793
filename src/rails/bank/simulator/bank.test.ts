// The simulated bank over a temporary folder: what it answers to each file and pattern, read back
// with the same parsers Corridor uses, and the ISO files checked against the official XSDs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { composeIBAN } from 'ibantools';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPain001, parseCamt053, parseCamt054, parsePain002, validateXml, type Pain001Payment } from '../iso20022/index.js';
import { buildNachaFile, nachaChanges, nachaReturns, parseNachaAck, parseNachaFile, type NachaEntryInput } from '../nacha/index.js';
import type { SimulatedAccount } from './accounts.js';
import { createSimulatedBank, SimulatorInputError, type SimulatedBank } from './bank.js';
import { newState, readState, writeState } from './state.js';

const USD: SimulatedAccount = { currency: 'USD', holderName: 'Corridor Test Operator', routingNumber: '021000021', accountNumber: '000123456789' };
const EUR: SimulatedAccount = { currency: 'EUR', holderName: 'Corridor Test Operator', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };
const OPENING = 100_000_000n;

let dir: string;
let clock: Date;
const now = () => new Date(clock.getTime());

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bank-sim-'));
  clock = new Date('2026-11-30T15:00:00Z');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function open(extra: { routingNumber?: string } = {}): SimulatedBank {
  return createSimulatedBank({
    root: path.join(dir, 'root'),
    stateFile: path.join(dir, 'state.json'),
    accounts: [USD, EUR],
    bic: 'COBADEFFXXX',
    now,
    ...extra,
  });
}

function upload(bank: SimulatedBank, name: string, content: string): void {
  fs.writeFileSync(path.join(bank.outboundDir, name), content);
}

/** The inbound folder's files, in the order Corridor reads them when their times tie: by name. */
function inbound(bank: SimulatedBank): Array<{ name: string; text: string }> {
  return fs
    .readdirSync(bank.inboundDir)
    .filter((n) => !n.startsWith('.'))
    .sort()
    .map((name) => ({ name, text: fs.readFileSync(path.join(bank.inboundDir, name), 'utf8') }));
}

const balanceOf = (bank: SimulatedBank, currency: string) => bank.snapshot().accounts.find((a) => a.currency === currency)!.balance;

function entry(account: string, amount: bigint, reference: string, transactionCode: NachaEntryInput['transactionCode'] = 22): NachaEntryInput {
  return {
    transactionCode,
    receivingDFIRoutingNumber: '231380104',
    dfiAccountNumber: account,
    amount,
    individualIdentificationNumber: reference,
    individualName: `Receiver ${reference.slice(-4)}`,
  };
}

function nachaFile(entries: NachaEntryInput[], destination = '021000021') {
  return buildNachaFile({
    immediateDestination: destination,
    immediateOrigin: '1987654321',
    immediateDestinationName: 'Test Bank',
    immediateOriginName: 'Corridor Test Operator',
    fileCreatedAt: new Date('2026-11-30T14:45:00Z'),
    timeZone: 'UTC',
    fileIdModifier: 'A',
    batches: [
      {
        companyName: 'CORRIDOR TEST',
        companyIdentification: '1987654321',
        standardEntryClassCode: 'PPD',
        companyEntryDescription: 'PAYOUT',
        effectiveEntryDate: '261201',
        originatingDFIIdentification: '02100002',
        entries,
      },
    ],
  });
}

const iban = (bban: string) => composeIBAN({ countryCode: 'DE', bban })!;

function pain001(messageId: string, payments: Array<{ ref: string; iban: string; amount: bigint }>): string {
  return buildPain001({
    profile: 'SEPA',
    messageId,
    createdAt: '2026-11-30T14:45:00Z',
    initiatingParty: { name: 'Corridor Test Operator' },
    payments: payments.map((p): Pain001Payment => ({
      endToEndId: p.ref,
      amount: p.amount,
      currency: 'EUR',
      requestedExecutionDate: '2026-12-01',
      debtor: { name: 'Corridor Test Operator', account: { iban: EUR.iban! }, bic: EUR.bic! },
      creditor: { name: `Creditor ${p.ref}`, account: { iban: p.iban } },
      remittanceInformation: p.ref,
    })),
  });
}

async function expectValid(xml: string, schema: Parameters<typeof validateXml>[1]) {
  const result = await validateXml(xml, schema);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
}

describe('a NACHA payout file', () => {
  it('is acknowledged, booked and answered entry by entry as the account patterns say', async () => {
    const bank = open({ routingNumber: '021000021' });
    const file = nachaFile([
      entry('55500001', 10_000n, 'PAYPAID00000001'),
      entry('55500002', 20_000n, 'PAYREJECT000002'),
      entry('55500003', 30_000n, 'PAYRETURN00R03X'),
      entry('55500004', 40_000n, 'PAYRETURN00R01X'),
      entry('55500005', 50_000n, 'PAYCHANGE00C01X'),
      entry('77700001', 7_000n, 'PULL00000000001', 27),
    ]);
    upload(bank, 'test-bank-nacha-20261130-1500-USD-01.ach', file.text);
    const [result] = await bank.processOutbound();
    expect(result).toMatchObject({ format: 'NACHA', name: 'test-bank-nacha-20261130-1500-USD-01.ach' });
    const [trace1, trace2, trace3, trace4, trace5] = file.traceNumbers[0];

    const files = inbound(bank);
    expect(files.map((f) => f.name)).toEqual([
      '000001-test-bank-nacha-20261130-1500-USD-01.ach.ack',
      '000002-test-bank-nacha-20261130-1500-USD-01.ach.USD.camt054.xml',
      '000003-test-bank-nacha-20261130-1500-USD-01.ach.returns.ach',
      '000004-test-bank-nacha-20261130-1500-USD-01.ach.changes.ach',
    ]);
    expect(result.reports).toEqual(files.map((f) => f.name));

    const ack = parseNachaAck(files[0].text);
    expect(ack).toMatchObject({ fileName: 'test-bank-nacha-20261130-1500-USD-01.ach', fileSha256: file.sha256, status: 'ACCEPTED' });
    expect(ack.file).toMatchObject({ batchCount: 1, entryCount: 6, totalCredit: 150_000n, totalDebit: 7_000n });
    expect(ack.entryRejections).toEqual([{ traceNumber: trace2, code: 'R03', text: 'No Account/Unable to Locate Account' }]);

    await expectValid(files[1].text, 'camt.054.001.08');
    const camt = parseCamt054(files[1].text);
    expect(camt.account).toMatchObject({ otherId: '000123456789', currency: 'USD' });
    expect(camt.entries.map((e) => [e.direction, e.amount, e.endToEndId, e.status, e.returnReasonCode])).toEqual([
      ['DEBIT', 10_000n, 'PAYPAID00000001', 'BOOK', undefined],
      ['DEBIT', 30_000n, 'PAYRETURN00R03X', 'BOOK', undefined],
      ['DEBIT', 40_000n, 'PAYRETURN00R01X', 'BOOK', undefined],
      ['DEBIT', 50_000n, 'PAYCHANGE00C01X', 'BOOK', undefined],
      ['CREDIT', 7_000n, 'PULL00000000001', 'BOOK', undefined],
      ['CREDIT', 30_000n, 'PAYRETURN00R03X', 'BOOK', 'R03'],
      ['CREDIT', 40_000n, 'PAYRETURN00R01X', 'BOOK', 'R01'],
    ]);
    expect(new Set(camt.entries.map((e) => e.bankReference)).size).toBe(7);
    for (const e of camt.entries) expect(e.bookingDate).toBe('2026-11-30');

    const returned = parseNachaFile(files[2].text);
    expect(returned.batches[0].header).toMatchObject({
      companyName: 'CORRIDOR TEST',
      companyIdentification: '1987654321',
      standardEntryClassCode: 'PPD',
      originatingDFIIdentification: '23138010',
    });
    expect(
      nachaReturns(returned).map((r) => [
        r.returnCode,
        r.originalTraceNumber,
        r.entry.individualIdentificationNumber,
        r.entry.individualName,
        r.entry.amount,
        r.entry.transactionCode,
      ]),
    ).toEqual([
      ['R03', trace3, 'PAYRETURN00R03X', 'RECEIVER R03X', 30_000n, 21],
      ['R01', trace4, 'PAYRETURN00R01X', 'RECEIVER R01X', 40_000n, 21],
    ]);

    const changed = parseNachaFile(files[3].text);
    expect(changed.batches[0].header.standardEntryClassCode).toBe('COR');
    expect(nachaChanges(changed).map((c) => [c.changeCode, c.originalTraceNumber, c.entry.individualIdentificationNumber, c.corrected])).toEqual([
      ['C01', trace5, 'PAYCHANGE00C01X', { accountNumber: '55501005' }],
    ]);
    expect(trace1).not.toBe(trace2);

    // Paid: 10,000 + 50,000 out, 7,000 in; rejected and returned entries leave the balance as it was.
    expect(balanceOf(bank, 'USD')).toBe(OPENING - 60_000n + 7_000n);
  });

  it('rejects an invalid file whole and books nothing', async () => {
    const bank = open();
    const text = nachaFile([entry('55500001', 10_000n, 'PAYPAID00000001')]).text;
    // The entry's amount changed without the control totals: the batch no longer adds up.
    const lines = text.split('\n');
    lines[2] = `${lines[2].slice(0, 29)}0000010001${lines[2].slice(39)}`;
    upload(bank, 'broken.ach', lines.join('\n'));
    const [result] = await bank.processOutbound();
    expect(result.outcome).toMatch(/^REJECTED INVALID_FILE/);
    const files = inbound(bank);
    expect(files.map((f) => f.name)).toEqual(['000001-broken.ach.ack']);
    const ack = parseNachaAck(files[0].text);
    expect(ack.status).toBe('REJECTED');
    expect(ack.reason?.code).toBe('INVALID_FILE');
    expect(ack.reason?.text).toMatch(/total credit amount/);
    expect(balanceOf(bank, 'USD')).toBe(OPENING);
  });

  it('rejects a file addressed to another bank, and a file that is neither NACHA nor XML', async () => {
    const bank = open({ routingNumber: '021000021' });
    upload(bank, 'elsewhere.ach', nachaFile([entry('55500001', 10_000n, 'PAYPAID00000001')], '231380104').text);
    upload(bank, 'notes.txt', 'hello bank\n');
    const results = await bank.processOutbound();
    expect(results.map((r) => r.outcome.split(':')[0]).sort()).toEqual(['REJECTED INVALID_FILE', 'REJECTED WRONG_DESTINATION']);
    const acks = inbound(bank).map((f) => parseNachaAck(f.text));
    const notes = acks.find((a) => a.fileName === 'notes.txt')!;
    expect(notes).toMatchObject({ status: 'REJECTED', file: null });
    expect(acks.find((a) => a.fileName === 'elsewhere.ach')!.reason?.code).toBe('WRONG_DESTINATION');
    expect(balanceOf(bank, 'USD')).toBe(OPENING);
  });

  it('answers a file once, also after a restart, and refuses the same bytes under another name', async () => {
    const bank = open();
    const text = nachaFile([entry('55500001', 10_000n, 'PAYPAID00000001')]).text;
    upload(bank, 'once.ach', text);
    expect(await bank.processOutbound()).toHaveLength(1);
    expect(await bank.processOutbound()).toEqual([]);
    const before = inbound(bank);

    const restarted = open();
    expect(await restarted.processOutbound()).toEqual([]);
    expect(inbound(restarted)).toEqual(before);
    // The outbound file stays where Corridor put it.
    expect(fs.existsSync(path.join(restarted.outboundDir, 'once.ach'))).toBe(true);
    expect(balanceOf(restarted, 'USD')).toBe(OPENING - 10_000n);

    upload(restarted, 'again.ach', text);
    const [again] = await restarted.processOutbound();
    expect(again.outcome).toMatch(/^REJECTED DUPLICATE_FILE/);
    expect(balanceOf(restarted, 'USD')).toBe(OPENING - 10_000n);

    // Bank references continue after the restart: the credit's is new.
    const camt = parseCamt054(before.find((f) => f.name.endsWith('.camt054.xml'))!.text);
    const credit = await restarted.credit({ currency: 'USD', amount: 1n, reference: 'REF1', debtorName: 'Payer' });
    expect(credit.bankReference).not.toBe(camt.entries[0].bankReference);
    expect(credit.bankReference > camt.entries[0].bankReference).toBe(true);
  });

  it('ignores temporary (dotted) names and files a ready check holds back', async () => {
    const bank = open();
    upload(bank, '.upload.ach.1a2b3c4d.part', 'half a file');
    upload(bank, 'later.ach', nachaFile([entry('55500001', 10_000n, 'PAYPAID00000001')]).text);
    expect(await bank.processOutbound({ ready: () => false })).toEqual([]);
    const results = await bank.processOutbound();
    expect(results.map((r) => r.name)).toEqual(['later.ach']);
  });
});

describe('a pain.001 payout file', () => {
  it('gets a pain.002 per transaction and a camt.054 of what was booked, both valid against the XSD', async () => {
    const bank = open();
    const paid = iban('370400440532010001');
    const rejected = iban('370400440532010002');
    const returned = iban('370400440532010003');
    const xml = pain001('202611301500EUR01', [
      { ref: 'E2EPAID', iban: paid, amount: 12_345n },
      { ref: 'E2EREJECT', iban: rejected, amount: 5_000n },
      { ref: 'E2ERETURN', iban: returned, amount: 7_500n },
    ]);
    upload(bank, 'test-bank-pain001-sepa-20261130-1500-EUR-01.xml', xml);
    const [result] = await bank.processOutbound();
    expect(result.format).toBe('PAIN001');

    const files = inbound(bank);
    expect(files.map((f) => f.name)).toEqual([
      '000001-test-bank-pain001-sepa-20261130-1500-EUR-01.xml.pain002.xml',
      '000002-test-bank-pain001-sepa-20261130-1500-EUR-01.xml.EUR.camt054.xml',
    ]);
    await expectValid(files[0].text, 'pain.002.001.10');
    const report = parsePain002(files[0].text);
    expect(report).toMatchObject({ originalMessageId: '202611301500EUR01', groupStatus: 'PART' });
    expect(report.transactions.map((t) => [t.originalEndToEndId, t.status, t.reasonCode])).toEqual([
      ['E2EPAID', 'ACCP', undefined],
      ['E2EREJECT', 'RJCT', 'AC01'],
      ['E2ERETURN', 'ACCP', undefined],
    ]);

    await expectValid(files[1].text, 'camt.054.001.08');
    const camt = parseCamt054(files[1].text);
    expect(camt.account).toMatchObject({ iban: EUR.iban, currency: 'EUR' });
    expect(camt.entries.map((e) => [e.direction, e.amount, e.endToEndId, e.returnReasonCode, e.counterpartyAccount?.iban])).toEqual([
      ['DEBIT', 12_345n, 'E2EPAID', undefined, paid],
      ['DEBIT', 7_500n, 'E2ERETURN', undefined, returned],
      ['CREDIT', 7_500n, 'E2ERETURN', 'AC04', returned],
    ]);
    // The pain.002 names the booking of each accepted payment.
    expect(report.transactions[0].accountServicerReference).toBe(camt.entries[0].bankReference);
    expect(balanceOf(bank, 'EUR')).toBe(OPENING - 12_345n);
  });

  it('rejects a file that breaks the schema, and a message id received before; nothing is booked', async () => {
    const bank = open();
    const xml = pain001('202611301500EUR02', [{ ref: 'E2E1', iban: iban('370400440532010001'), amount: 100n }]);
    upload(bank, 'invalid.xml', xml.replace(/<ChrgBr>SLEV<\/ChrgBr>/, '<ChrgBr>NOPE</ChrgBr>'));
    upload(bank, 'valid.xml', xml);
    await bank.processOutbound();
    upload(bank, 'resent.xml', xml.replace('E2E1', 'E2E2'));
    await bank.processOutbound();

    const byFile = new Map(inbound(bank).map((f) => [f.name.replace(/^\d{6}-/, ''), f.text]));
    const invalid = byFile.get('invalid.xml.pain002.xml')!;
    await expectValid(invalid, 'pain.002.001.10');
    expect(parsePain002(invalid)).toMatchObject({ originalMessageId: '202611301500EUR02', groupStatus: 'RJCT', groupReasonCode: 'FF01', transactions: [] });
    expect(parsePain002(byFile.get('resent.xml.pain002.xml')!)).toMatchObject({ groupStatus: 'RJCT', groupReasonCode: 'DU01' });
    // Only the valid file booked.
    expect(balanceOf(bank, 'EUR')).toBe(OPENING - 100n);
    expect([...byFile.keys()].filter((n) => n.endsWith('camt054.xml'))).toEqual(['valid.xml.EUR.camt054.xml']);
  });

  it('rejects a file whose control sum does not add up', async () => {
    const bank = open();
    const xml = pain001('202611301500EUR03', [{ ref: 'E2E1', iban: iban('370400440532010001'), amount: 100n }]);
    upload(bank, 'sum.xml', xml.replace('<CtrlSum>1.00</CtrlSum>', '<CtrlSum>2.00</CtrlSum>'));
    const [result] = await bank.processOutbound();
    expect(result.outcome).toMatch(/^REJECTED AM10/);
    expect(balanceOf(bank, 'EUR')).toBe(OPENING);
  });
});

describe('incoming credits and statements', () => {
  it('books an injected credit and announces it with the reference structured and in the remittance text', async () => {
    const bank = open();
    const result = await bank.credit({
      currency: 'EUR',
      amount: 250_00n,
      reference: 'RF18539007547034',
      debtorName: 'Jane Payer',
      debtorAccount: 'FR1420041010050500013M02606',
    });
    expect(result.balance).toBe(OPENING + 250_00n);
    const [file] = inbound(bank);
    expect(file.name).toBe(result.report);
    await expectValid(file.text, 'camt.054.001.08');
    const [e] = parseCamt054(file.text).entries;
    expect(e).toMatchObject({
      direction: 'CREDIT',
      amount: 250_00n,
      bankReference: result.bankReference,
      creditorReference: 'RF18539007547034',
      remittanceInformation: 'RF18539007547034',
      endToEndId: 'RF18539007547034',
      counterpartyName: 'Jane Payer',
      counterpartyAccount: { iban: 'FR1420041010050500013M02606' },
    });
  });

  it('refuses a credit it cannot book, with the field at fault', async () => {
    const bank = open();
    await expect(bank.credit({ currency: 'GBP', amount: 1n, reference: 'R', debtorName: 'P' })).rejects.toThrow(SimulatorInputError);
    await expect(bank.credit({ currency: 'USD', amount: 0n, reference: 'R', debtorName: 'P' })).rejects.toThrow(/amount/);
    await expect(bank.credit({ currency: 'USD', amount: 1n, reference: ' padded', debtorName: 'P' })).rejects.toThrow(/reference/);
    expect(inbound(bank)).toEqual([]);
  });

  it('writes statements whose balances chain exactly: opening = previous closing, closing = opening + credits − debits', async () => {
    const bank = open();
    upload(bank, 'day1.ach', nachaFile([entry('55500001', 10_000n, 'PAYPAID00000001'), entry('55500003', 30_000n, 'PAYRETURN00R03X')]).text);
    await bank.processOutbound();
    await bank.credit({ currency: 'USD', amount: 99_99n, reference: 'DEP1', debtorName: 'Payer' });
    const first = await bank.statement();
    expect(first.map((s) => s.currency)).toEqual(['USD', 'EUR']);

    clock = new Date('2026-12-01T22:00:00Z');
    await bank.credit({ currency: 'USD', amount: 1n, reference: 'DEP2', debtorName: 'Payer' });
    const second = await bank.statement({ currency: 'USD' });
    expect(second).toHaveLength(1);

    const files = inbound(bank).filter((f) => f.name.endsWith('.camt053.xml'));
    expect(files).toHaveLength(3);
    for (const f of files) await expectValid(f.text, 'camt.053.001.08');
    const [usd1, eur1, usd2] = files.map((f) => parseCamt053(f.text));
    const net = (s: typeof usd1) => s.entries.reduce((n, e) => (e.direction === 'CREDIT' ? n + e.amount : n - e.amount), 0n);

    expect(usd1.openingBalance).toEqual({ amount: OPENING, currency: 'USD', date: '2026-11-30' });
    expect(usd1.entries.map((e) => [e.direction, e.amount])).toEqual([
      ['DEBIT', 10_000n],
      ['DEBIT', 30_000n],
      ['CREDIT', 30_000n],
      ['CREDIT', 99_99n],
    ]);
    expect(usd1.closingBalance!.amount).toBe(OPENING - 10_000n + 99_99n);
    expect(usd1.closingBalance!.amount).toBe(usd1.openingBalance!.amount + net(usd1));
    expect(eur1.entries).toEqual([]);
    expect(eur1.closingBalance!.amount).toBe(OPENING);

    expect(usd2.openingBalance).toEqual({ amount: usd1.closingBalance!.amount, currency: 'USD', date: '2026-11-30' });
    expect(usd2.entries.map((e) => e.amount)).toEqual([1n]);
    expect(usd2.closingBalance).toEqual({ amount: usd1.closingBalance!.amount + 1n, currency: 'USD', date: '2026-12-01' });
    expect(usd2.electronicSequenceNumber).toBe('2');
    // A notification and the statement name an entry by the same bank reference.
    const notified = inbound(bank).find((f) => f.name.endsWith('.camt054.xml') && f.name.includes('credit-'))!;
    expect(usd1.entries.map((e) => e.bankReference)).toContain(parseCamt054(notified.text).entries[0].bankReference);
  });

  it('skews only the reported closing balance, and the next statement opens at the true one', async () => {
    const bank = open();
    await bank.credit({ currency: 'EUR', amount: 1_000n, reference: 'DEP1', debtorName: 'Payer' });
    const [skewed] = await bank.statement({ currency: 'EUR', skew: 500n });
    expect(skewed.closing).toBe(OPENING + 1_000n + 500n);
    await bank.statement({ currency: 'EUR' });
    const [first, second] = inbound(bank)
      .filter((f) => f.name.endsWith('.camt053.xml'))
      .map((f) => parseCamt053(f.text));
    expect(first.openingBalance!.amount).toBe(OPENING);
    expect(first.entries.map((e) => e.amount)).toEqual([1_000n]);
    expect(first.closingBalance!.amount - first.openingBalance!.amount - 1_000n).toBe(500n);
    expect(second.openingBalance!.amount).toBe(OPENING + 1_000n);
    expect(second.closingBalance!.amount).toBe(OPENING + 1_000n);
    expect(balanceOf(bank, 'EUR')).toBe(OPENING + 1_000n);
  });

  it('uses configured opening balances, and a restarted bank keeps its balances', async () => {
    const stateFile = path.join(dir, 'state.json');
    const root = path.join(dir, 'root');
    const bank = createSimulatedBank({ root, stateFile, accounts: [{ ...USD, openingBalance: 5_00n }], now });
    await bank.credit({ currency: 'USD', amount: 1_00n, reference: 'DEP1', debtorName: 'Payer' });
    const again = createSimulatedBank({ root, stateFile, accounts: [{ ...USD, openingBalance: 5_00n }, EUR], now });
    expect(again.snapshot().accounts.map((a) => [a.currency, a.balance])).toEqual([
      ['USD', 6_00n],
      ['EUR', OPENING],
    ]);
  });
});

describe('the state file', () => {
  it('delivers at start the reports a crash left decided but unwritten', () => {
    const stateFile = path.join(dir, 'state.json');
    const state = newState();
    state.nextReport = 8;
    state.pending.push({ name: '000007-credit-X.USD.camt054.xml', content: '<Document/>\n' });
    writeState(stateFile, state);
    const bank = createSimulatedBank({ root: path.join(dir, 'root'), stateFile, accounts: [USD], now });
    expect(inbound(bank)).toEqual([{ name: '000007-credit-X.USD.camt054.xml', text: '<Document/>\n' }]);
    expect(readState(stateFile)!.pending).toEqual([]);
    expect(bank.snapshot().pending).toEqual([]);
  });

  it('keeps amounts as exact integers beyond what a float holds', () => {
    const stateFile = path.join(dir, 'state.json');
    const state = newState();
    state.accounts.push({ currency: 'USD', opening: 2n ** 70n + 1n, openingDate: '2026-11-30', statements: 0, entries: [] });
    writeState(stateFile, state);
    expect(readState(stateFile)!.accounts[0].opening).toBe(2n ** 70n + 1n);
  });
});

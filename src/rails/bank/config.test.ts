import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../config.js';
import { BankConfigError, loadBankProfiles, parseBankProfiles } from './config.js';

const EXAMPLE = path.resolve(import.meta.dirname, '../../../docs/examples/banks.example.json');

let dir: string;
/** The example document, copied so each test can change it. */
const example = (): any => JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));

beforeAll(() => {
  // The example's key files, beside a copy of it: relative paths start from the file's folder.
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-banks-'));
  fs.mkdirSync(path.join(dir, 'keys'));
  for (const name of ['first-example-us', 'example-eu']) fs.writeFileSync(path.join(dir, 'keys', name), 'key material is not read here\n', { mode: 0o600 });
  fs.copyFileSync(EXAMPLE, path.join(dir, 'banks.json'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The problems a document is refused for (fails the test when it is accepted). */
function problemsOf(doc: unknown): string[] {
  try {
    parseBankProfiles(doc, dir);
  } catch (e) {
    expect(e).toBeInstanceOf(BankConfigError);
    return (e as BankConfigError).problems;
  }
  throw new Error('the document was accepted');
}

describe('loadBankProfiles', () => {
  it('loads the documented example: a US bank with NACHA and a EUR bank with SEPA', () => {
    const banks = loadBankProfiles(path.join(dir, 'banks.json'));
    expect(banks.map((b) => b.id)).toEqual(['first-example-us', 'example-eu']);
    const [us, eu] = banks;
    expect(us.formats).toEqual(['NACHA']);
    expect(us.nacha?.immediateDestination).toBe('123456780');
    expect(us.accounts[0]).toEqual({
      currency: 'USD',
      holderName: 'Example Payments Inc',
      bankName: 'First Example Bank',
      routingNumber: '123456780',
      accountNumber: '000123456789',
    });
    expect(us.schedule.cutoffs.NACHA).toEqual([{ time: '10:15', sameDay: true }, { time: '14:00', sameDay: true }, { time: '16:30' }]);
    expect(us.sftp.privateKeyFile).toBe(path.join(dir, 'keys', 'first-example-us'));
    expect(us.pollIntervalMs).toBe(60000);
    // The IBAN in its electronic form; the default poll interval; no comments carried along.
    expect(eu.accounts[0].iban).toBe('DE44500105175407324931');
    expect(eu.pollIntervalMs).toBe(60000);
    expect(eu.schedule.timeZone).toBe('Europe/Berlin');
    expect(JSON.stringify(banks)).not.toContain('$comment');
  });

  it('refuses a file that is missing or not JSON, naming the file', () => {
    expect(() => loadBankProfiles(path.join(dir, 'nope.json'))).toThrow(/nope\.json[\s\S]*cannot be read/);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"banks": [');
    expect(() => loadBankProfiles(path.join(dir, 'broken.json'))).toThrow(/broken\.json[\s\S]*not valid JSON/);
    // A ConfigError, which the server prints without a stack trace.
    expect(() => loadBankProfiles(path.join(dir, 'broken.json'))).toThrow(ConfigError);
  });

  it('lists every problem of a file in one error, each with its JSON path', () => {
    const doc = example();
    doc.banks[0].sftp.hostKeySha256 = 'MD5:aa:bb';
    doc.banks[0].sftp.port = 70000;
    doc.banks[0].schedule.timeZone = 'Mars/Olympus_Mons';
    doc.banks[0].schedule.cutoffs.NACHA[1].time = '25:00';
    doc.banks[0].schedule.holidays.push('2026-02-30');
    doc.banks[1].id = 'Example EU';
    doc.banks[1].pollIntervalMs = 10;
    doc.banks[1].formats.push('SWIFT_MT103');
    doc.banks[1].colour = 'blue';
    delete doc.banks[1].sftp.username;
    let error: BankConfigError | undefined;
    try {
      parseBankProfiles(doc, dir, '/etc/corridor/banks.json');
    } catch (e) {
      error = e as BankConfigError;
    }
    expect(error?.problems).toEqual(
      expect.arrayContaining([
        'banks[0].sftp.hostKeySha256: must look like SHA256:<base64> (43 base64 characters, as `ssh-keygen -lf` prints the host key)',
        'banks[0].sftp.port: must be <= 65535',
        'banks[0].schedule.timeZone: must be an IANA time zone such as America/New_York or Europe/Berlin',
        'banks[0].schedule.cutoffs.NACHA[1].time: must be a time HH:MM (24 h, e.g. 16:30)',
        'banks[0].schedule.holidays[8]: must be a real date in the form YYYY-MM-DD',
        'banks[1].id: must be 1 to 32 lower-case letters, digits or dashes',
        'banks[1].pollIntervalMs: must be >= 1000',
        'banks[1].formats[1]: must be one of NACHA, PAIN001_SEPA, PAIN001',
        'banks[1].colour: is not a known field',
        'banks[1].sftp.username: is required',
      ]),
    );
    expect(error?.problems).toHaveLength(10);
    expect(error?.message).toMatch(/^Invalid bank configuration \/etc\/corridor\/banks\.json:\n {2}- banks\[0\]\.sftp\.port: must be <= 65535\n {2}- /);
  });

  it('checks accounts: IBAN and BIC, routing and account numbers, known fiat currencies', () => {
    const doc = example();
    doc.banks[0].accounts[0].routingNumber = '123456789';
    doc.banks[0].accounts[0].accountNumber = '12-34';
    doc.banks[1].accounts[0].iban = 'DE45500105175407324931';
    doc.banks[1].accounts[0].bic = 'NOTABIC';
    doc.banks[1].accounts.push({ currency: 'XYZ', holderName: 'H', bankName: 'B', iban: 'DE44500105175407324931', bic: 'EXMPDEFF' });
    doc.banks[1].accounts.push({ currency: 'BTC', holderName: 'H', bankName: 'B', iban: 'DE44500105175407324931', bic: 'EXMPDEFF' });
    doc.banks[1].accounts.push({ currency: 'GBP', holderName: 'H', bankName: 'B' });
    doc.banks[1].accounts.push({ currency: 'CAD', holderName: 'H', bankName: 'B', iban: 'DE44500105175407324931', routingNumber: '123456780' });
    doc.banks[1].accounts.push({ currency: 'MXN', holderName: 'H', bankName: 'B', iban: 'DE44500105175407324931' });
    expect(problemsOf(doc)).toEqual(
      expect.arrayContaining([
        'banks[0].accounts[0].routingNumber: routing number checksum is invalid',
        'banks[0].accounts[0].accountNumber: account number must contain only digits',
        'banks[1].accounts[0].iban: IBAN checksum or country format is invalid',
        'banks[1].accounts[0].bic: BIC must be 8 or 11 letters or digits',
        expect.stringMatching(/^banks\[1\]\.accounts\[1\]\.currency: must be a supported currency code \(USD, EUR/),
        'banks[1].accounts[2].currency: BTC is not held at a bank; use a fiat currency',
        'banks[1].accounts[3]: needs iban and bic (an IBAN account) or routingNumber and accountNumber (a US account)',
        'banks[1].accounts[4]: give either iban and bic (an IBAN account) or routingNumber and accountNumber (a US account), not both',
        'banks[1].accounts[5].bic: is required',
        // Without a valid routing number and a valid IBAN, neither format has the account it needs.
        "banks[0].accounts: NACHA needs a USD account with routingNumber and accountNumber (the originator's account)",
        'banks[1].accounts: PAIN001_SEPA needs a EUR account with an iban (the debtor account of SEPA credit transfers)',
      ]),
    );
  });

  it('refuses two banks with one id, and two banks (or accounts) serving one currency, naming both', () => {
    const doc = example();
    doc.banks.push({ ...example().banks[1], accounts: [{ currency: 'GBP', holderName: 'H', bankName: 'B', iban: 'GB82WEST12345698765432', bic: 'WESTGB2L' }] });
    doc.banks[1].accounts.push({ currency: 'USD', holderName: 'H', bankName: 'B', iban: 'DE44500105175407324931', bic: 'EXMPDEFF' });
    expect(problemsOf(doc)).toEqual([
      'banks[1].accounts[1].currency: USD is already served by bank "first-example-us" (banks[0].accounts[0]); Corridor keeps one bank cash account per currency, so only one account of one bank may hold USD',
      'banks[2].id: "example-eu" is already the id of banks[1]; bank ids must be unique',
      'banks[2].accounts: PAIN001_SEPA needs a EUR account with an iban (the debtor account of SEPA credit transfers)',
    ]);
  });

  it('asks each format for what it needs: NACHA settings, a EUR IBAN for SEPA, a cut-off for every format', () => {
    const doc = example();
    delete doc.banks[0].nacha;
    doc.banks[0].formats.push('PAIN001');
    doc.banks[1].formats = ['PAIN001_SEPA', 'PAIN001'];
    doc.banks[1].accounts[0].currency = 'GBP';
    doc.banks[1].schedule.cutoffs.PAIN001_SEPA.push({ time: '09:00' });
    doc.banks[1].schedule.cutoffs.PAIN001 = [{ time: '12:00', sameDay: true }];
    expect(problemsOf(doc)).toEqual([
      'banks[0].nacha: is required when formats lists NACHA (the file and batch header identities the bank gave)',
      'banks[0].accounts: PAIN001 carries payouts in currencies other than USD, and this bank has no account in one',
      'banks[0].schedule.cutoffs.PAIN001: needs at least one cut-off, since formats lists PAIN001',
      'banks[1].accounts: PAIN001_SEPA needs a EUR account with an iban (the debtor account of SEPA credit transfers)',
      'banks[1].schedule.cutoffs.PAIN001_SEPA[2].time: 09:00 is listed twice',
      'banks[1].schedule.cutoffs.PAIN001[0].sameDay: only NACHA has same-day windows (an ISO 20022 file asks for its execution date)',
    ]);
  });

  it('checks NACHA identities', () => {
    const doc = example();
    Object.assign(doc.banks[0].nacha, {
      immediateDestination: '12345678',
      immediateOrigin: '12345678X',
      companyName: 'A NAME LONGER THAN SIXTEEN',
      originatingDfi: 'ABCDEFGH',
    });
    doc.banks[0].nacha.immediateOriginName = 'Zürich Payments';
    expect(problemsOf(doc)).toEqual([
      'banks[0].nacha.immediateOriginName: must be printable ASCII (NACHA files hold nothing else)',
      'banks[0].nacha.companyName: must NOT have more than 16 characters',
      'banks[0].nacha.originatingDfi: must be digits only',
      'banks[0].nacha.immediateDestination: routing number must be exactly 9 digits',
      'banks[0].nacha.immediateOrigin: must be a 9-digit routing number or exactly 10 characters',
    ]);
  });

  it('checks that the SFTP key file exists and is readable, relative to the configuration file', () => {
    const doc = example();
    doc.banks[0].sftp.privateKeyFile = 'keys/missing';
    doc.banks[1].sftp.privateKeyFile = 'keys';
    expect(problemsOf(doc)).toEqual([
      `banks[0].sftp.privateKeyFile: ${path.join(dir, 'keys', 'missing')} does not exist`,
      `banks[1].sftp.privateKeyFile: ${path.join(dir, 'keys')} is not a file`,
    ]);
    // Left out: the key is expected in the database (`npx corridor bank key import`).
    delete doc.banks[0].sftp.privateKeyFile;
    delete doc.banks[1].sftp.privateKeyFile;
    const banks = parseBankProfiles(doc, dir);
    expect(banks[0].sftp.privateKeyFile).toBeUndefined();
  });

  it('refuses an empty list of banks and an unknown top-level field', () => {
    expect(problemsOf({ banks: [] })).toEqual(['banks: must NOT have fewer than 1 items']);
    expect(problemsOf({ bank: [] })).toEqual(['banks: is required', 'bank: is not a known field']);
  });
});

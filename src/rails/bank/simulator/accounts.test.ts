// Where the simulated bank's accounts come from: the operator's BANKS_FILE or the simulator's own file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultOpeningBalance, parseSetup, setupFromBanksFile, setupFromConfigFile } from './accounts.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bank-sim-accounts-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const banksFile = () => {
  const file = path.join(dir, 'banks.json');
  const bank = {
    id: 'partner',
    name: 'Partner Bank',
    formats: ['NACHA', 'PAIN001_SEPA'],
    accounts: [
      { currency: 'USD', holderName: 'Operator Inc', bankName: 'Partner', routingNumber: '021000021', accountNumber: '000123456789' },
      { currency: 'EUR', holderName: 'Operator Inc', bankName: 'Partner', iban: 'DE89 3704 0044 0532 0130 00', bic: 'cobadeffxxx' },
    ],
    sftp: { host: '127.0.0.1', port: 2222, username: 'root', hostKeySha256: `SHA256:${'A'.repeat(43)}`, outboundDir: '/outbound', inboundDir: '/inbound' },
    schedule: { timeZone: 'America/New_York', cutoffs: { NACHA: [{ time: '16:00' }], PAIN001_SEPA: [{ time: '15:00' }] }, holidays: [] },
    nacha: {
      immediateDestination: '021000021',
      immediateDestinationName: 'PARTNER',
      immediateOrigin: '1987654321',
      immediateOriginName: 'OPERATOR',
      companyId: '1987654321',
      companyName: 'OPERATOR',
      originatingDfi: '02100002',
    },
  };
  fs.writeFileSync(file, JSON.stringify({ banks: [bank] }));
  return file;
};

describe('the accounts of the simulated bank', () => {
  it("are the operator's accounts of one bank in a BANKS_FILE, with its routing number, BIC and time zone", () => {
    const setup = setupFromBanksFile(banksFile(), 'partner', { EUR: 42n });
    expect(setup).toEqual({
      accounts: [
        { currency: 'USD', holderName: 'Operator Inc', routingNumber: '021000021', accountNumber: '000123456789' },
        { currency: 'EUR', holderName: 'Operator Inc', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', openingBalance: 42n },
      ],
      routingNumber: '021000021',
      bic: 'COBADEFFXXX',
      timeZone: 'America/New_York',
    });
    expect(() => setupFromBanksFile(banksFile(), 'other')).toThrow(/no bank with id "other"/);
    expect(() => setupFromBanksFile(banksFile(), 'partner', { GBP: 1n })).toThrow(/no GBP account/);
  });

  it("are read from the simulator's own file, with every mistake named at once", () => {
    const file = path.join(dir, 'sim.json');
    fs.writeFileSync(file, JSON.stringify({ accounts: [{ currency: 'USD', accountNumber: '12345678', openingBalance: '500' }], timeZone: 'Europe/Berlin' }));
    expect(setupFromConfigFile(file)).toEqual({ accounts: [{ currency: 'USD', accountNumber: '12345678', openingBalance: 500n }], timeZone: 'Europe/Berlin' });

    const wrong = () =>
      parseSetup(
        {
          accounts: [
            { currency: 'USD', iban: 'DE00', openingBalance: 1.5 },
            { currency: 'USD', accountNumber: '1' },
          ],
          routingNumber: '123456789',
          colour: 'red',
        },
        'sim.json',
      );
    expect(wrong).toThrow(/colour: is not a known field/);
    expect(wrong).toThrow(/accounts\[0\]\.openingBalance: must be an integer/);
    expect(wrong).toThrow(/routingNumber: routing number checksum is invalid/);
    expect(wrong).toThrow(/accounts\[0\]\.iban: /);
    expect(wrong).toThrow(/accounts\[1\]\.currency: USD is already an account/);
  });

  it('open with 1,000,000 units of their currency by default', () => {
    expect(defaultOpeningBalance('USD')).toBe(100_000_000n);
    expect(defaultOpeningBalance('JPY')).toBe(1_000_000n);
    expect(defaultOpeningBalance('KWD')).toBe(1_000_000_000n);
  });
});

/**
 * A partner bank for tests: a real OpenSSH SFTP server (src/rails/bank/sshd.ts) with inbound and
 * outbound folders, the operator's key, and a BANKS_FILE naming it with a USD (NACHA) and a EUR
 * (SEPA pain.001) account, cut-offs at every quarter hour in UTC so a test can pass one by moving
 * its clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { ensureSshd, startSftpServer, type SftpServer } from '../../src/rails/bank/sshd.js';
import { call, type TestContext } from './context.js';
import { externalAccount, fundedCustomer } from './payments.js';

export interface TestBank {
  server: SftpServer;
  banksFile: string;
  /** The folders as the bank sees them on disk (inside the SFTP chroot). */
  outbound: string;
  inbound: string;
  stop(): Promise<void>;
}

/** Every quarter hour of the day (UTC), so any instant is at most 15 minutes from a cut-off. */
export const QUARTER_HOURS = Array.from({ length: 96 }, (_, i) => ({
  time: `${String(Math.floor(i / 4)).padStart(2, '0')}:${String((i % 4) * 15).padStart(2, '0')}`,
}));

export async function startTestBank(opts: { pollIntervalMs?: number } = {}): Promise<TestBank> {
  ensureSshd();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bank-'));
  const key = ssh2.utils.generateKeyPairSync('ed25519');
  const server = await startSftpServer({ dir: path.join(dir, 'sshd'), users: [{ username: 'root', publicKey: key.public }] });
  const outbound = path.join(server.root, 'outbound');
  const inbound = path.join(server.root, 'inbound');
  for (const folder of [outbound, inbound]) fs.mkdirSync(folder, { recursive: true });
  const keyFile = path.join(dir, 'operator-key');
  fs.writeFileSync(keyFile, key.private, { mode: 0o600 });
  const sftp = {
    host: server.host,
    port: server.port,
    username: 'root',
    privateKeyFile: keyFile,
    hostKeySha256: server.hostKeySha256,
    outboundDir: '/outbound',
    inboundDir: '/inbound',
  };
  const banks = {
    banks: [
      {
        id: 'test-bank',
        name: 'Test Bank',
        formats: ['NACHA', 'PAIN001_SEPA'],
        accounts: [
          { currency: 'USD', holderName: 'Corridor Test Operator', bankName: 'Test Bank', routingNumber: '021000021', accountNumber: '000123456789' },
          { currency: 'EUR', holderName: 'Corridor Test Operator', bankName: 'Test Bank', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        ],
        sftp,
        schedule: { timeZone: 'UTC', cutoffs: { NACHA: QUARTER_HOURS, PAIN001_SEPA: QUARTER_HOURS }, holidays: [] },
        nacha: {
          immediateDestination: '021000021',
          immediateDestinationName: 'TEST BANK',
          immediateOrigin: '1987654321',
          immediateOriginName: 'CORRIDOR TEST OPERATOR',
          companyId: '1987654321',
          companyName: 'CORRIDOR TEST',
          originatingDfi: '02100002',
        },
        pollIntervalMs: opts.pollIntervalMs ?? 1000,
      },
    ],
  };
  const banksFile = path.join(dir, 'banks.json');
  fs.writeFileSync(banksFile, JSON.stringify(banks, null, 2));
  return {
    server,
    banksFile,
    outbound,
    inbound,
    async stop() {
      await server.stop();
      fs.rmSync(path.dirname(server.root), { recursive: true, force: true });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes a report into the bank's inbound folder as a bank would: a temporary name, then the final one. */
export function deliver(bank: TestBank, name: string, content: string | Buffer): void {
  const temp = path.join(bank.inbound, `.${name}.part`);
  fs.writeFileSync(temp, content);
  fs.renameSync(temp, path.join(bank.inbound, name));
}

/** The platform attests a PRODUCTION customer's KYC, so money may move for it. */
export async function approve(ctx: TestContext, auth: string, customerId: string): Promise<void> {
  const r = await call(ctx, 'PATCH', `/customers/${customerId}`, { auth, body: { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' } });
  if (r.status !== 200) throw new Error(`approve: ${r.status} ${JSON.stringify(r.body)}`);
}

/** A PRODUCTION customer, APPROVED, with an internal account in `currency` and an external account of `accountType`. */
export async function approvedCustomer(ctx: TestContext, auth: string, currency: string, accountType: string) {
  const c = await fundedCustomer(ctx, [currency], 0, auth);
  await approve(ctx, auth, c.customer.id);
  const external = await externalAccount(ctx, accountType, '000', { customerId: c.customer.id, auth });
  return { customer: c.customer, internal: c.accounts[currency] as { id: string }, external };
}

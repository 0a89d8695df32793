// The simulator as Corridor meets it: a real OpenSSH SFTP server (root, as sshd requires), a
// payout file uploaded with the rails' own SFTP client, the bank's answers read back over SFTP,
// and the control API over HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCamt054 } from '../iso20022/index.js';
import { buildNachaFile, parseNachaAck } from '../nacha/index.js';
import { openSftp, type Sftp } from '../sftp.js';
import { ensureSshd } from '../sshd.js';
import { startBankSimulator, type BankSimulator } from './server.js';

const key = ssh2.utils.generateKeyPairSync('ed25519');
let dir: string;
let sim: BankSimulator;
let sftp: Sftp;
const logged: string[] = [];

beforeAll(async () => {
  ensureSshd();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-bank-simulator-'));
  sim = await startBankSimulator({
    dir,
    accounts: [{ currency: 'USD', holderName: 'Corridor Test Operator', routingNumber: '021000021', accountNumber: '000123456789' }],
    routingNumber: '021000021',
    operatorPublicKey: key.public,
    pollMs: 50,
    log: (line) => logged.push(line),
  });
  sftp = await openSftp({ ...sim.sftp, privateKey: key.private, timeoutMs: 10_000 });
});

afterAll(async () => {
  await sftp?.close();
  await sim?.stop();
  // The chroot lives outside a folder under /tmp (see sshd.ts): both go.
  if (sim) fs.rmSync(path.dirname(sim.root), { recursive: true, force: true });
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Waits until the inbound folder holds a file whose name ends so, as Corridor's poll would find it. */
async function inboundFile(suffix: string): Promise<Buffer> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const found = (await sftp.list('/inbound')).find((f) => f.name.endsWith(suffix));
    if (found) return sftp.download('/inbound', found.name);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no inbound file *${suffix} within 15 s; the simulator said:\n${logged.join('\n')}`);
}

async function control(method: string, route: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${sim.controlUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the bank simulator behind OpenSSH', () => {
  it('prints what a BANKS_FILE needs to reach it', () => {
    expect(sim.sftp).toMatchObject({ host: '127.0.0.1', username: 'root', outboundDir: '/outbound', inboundDir: '/inbound' });
    expect(sim.sftp.hostKeySha256).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const printed = logged.join('\n');
    expect(printed).toContain(`"hostKeySha256": "${sim.sftp.hostKeySha256}"`);
    expect(printed).toContain(`"port": ${sim.sftp.port}`);
  });

  it('acknowledges a NACHA file uploaded over SFTP and leaves the file where it was', async () => {
    const file = buildNachaFile({
      immediateDestination: '021000021',
      immediateOrigin: '1987654321',
      immediateDestinationName: 'Test Bank',
      immediateOriginName: 'Corridor Test Operator',
      fileCreatedAt: new Date(),
      timeZone: 'UTC',
      fileIdModifier: 'A',
      batches: [
        {
          companyName: 'CORRIDOR TEST',
          companyIdentification: '1987654321',
          standardEntryClassCode: 'PPD',
          companyEntryDescription: 'PAYOUT',
          effectiveEntryDate: '991231',
          originatingDFIIdentification: '02100002',
          entries: [
            {
              transactionCode: 22,
              receivingDFIRoutingNumber: '231380104',
              dfiAccountNumber: '55500001',
              amount: 12_34n,
              individualIdentificationNumber: 'PAYSFTP00000001',
              individualName: 'Ada Receiver',
            },
          ],
        },
      ],
    });
    const name = 'test-bank-nacha-20261130-1500-USD-01.ach';
    expect(await sftp.uploadOnce('/outbound', name, Buffer.from(file.text))).toBe('uploaded');

    const ack = parseNachaAck((await inboundFile(`${name}.ack`)).toString('utf8'));
    expect(ack).toMatchObject({ fileName: name, fileSha256: file.sha256, status: 'ACCEPTED', entryRejections: [] });
    const camt = parseCamt054((await inboundFile(`${name}.USD.camt054.xml`)).toString('utf8'));
    expect(camt.entries.map((e) => [e.direction, e.amount, e.endToEndId])).toEqual([['DEBIT', 12_34n, 'PAYSFTP00000001']]);
    // Corridor checks an upload by finding it: the bank leaves it, and the same upload is already there.
    expect(await sftp.uploadOnce('/outbound', name, Buffer.from(file.text))).toBe('already-there');
    expect((await control('GET', '/state')).body.processed).toMatchObject([{ name, sha256: file.sha256, format: 'NACHA' }]);
  });

  it('books a credit and writes a statement on request, answering amounts as strings', async () => {
    const credit = await control('POST', '/credit', { currency: 'USD', amount: '5000', reference: 'DEPOSITREF1', debtorName: 'Jane Payer' });
    expect(credit.status).toBe(201);
    expect(credit.body.bankReference).toEqual(expect.any(String));
    const camt = parseCamt054((await inboundFile(String(credit.body.report))).toString('utf8'));
    expect(camt.entries[0]).toMatchObject({ direction: 'CREDIT', amount: 5000n, creditorReference: 'DEPOSITREF1' });

    const statement = await control('POST', '/statement', { skew: '-1' });
    expect(statement.status).toBe(200);
    const [usd] = statement.body.statements as Array<Record<string, unknown>>;
    expect(usd).toMatchObject({ currency: 'USD', opening: '100000000', closing: String(100_000_000n - 12_34n + 5000n - 1n) });
    const state = await control('GET', '/state');
    expect(state.body.accounts).toMatchObject([{ currency: 'USD', balance: String(100_000_000n - 12_34n + 5000n), entriesSinceStatement: 0, statements: 1 }]);
  });

  it('answers a bad request with 400 and the field at fault, and unknown routes with 404 and 405', async () => {
    expect(await control('POST', '/credit', { currency: 'USD', amount: 12.5, reference: 'R', debtorName: 'P' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^amount:/) },
    });
    expect(await control('POST', '/credit', { currency: 'JPY', amount: '1', reference: 'R', debtorName: 'P' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^currency:/) },
    });
    expect(await control('POST', '/credit', '{not json')).toMatchObject({ status: 400, body: { error: expect.stringMatching(/not JSON/) } });
    expect(await control('POST', '/statement', { skw: '1' })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^skw:/) } });
    expect((await control('GET', '/nowhere')).status).toBe(404);
    expect((await control('GET', '/credit')).status).toBe(405);
  });

  it('restarts where it stopped: the same host key, balances and processed files; nothing answered twice', async () => {
    const before = (await control('GET', '/state')).body;
    const inboundBefore = (await sftp.list('/inbound')).map((f) => f.name);
    const hostKey = sim.sftp.hostKeySha256;
    await sftp.close();
    await sim.stop();

    sim = await startBankSimulator({
      dir,
      accounts: [{ currency: 'USD', holderName: 'Corridor Test Operator', routingNumber: '021000021', accountNumber: '000123456789' }],
      operatorPublicKey: key.public,
      pollMs: 50,
      log: (line) => logged.push(line),
    });
    sftp = await openSftp({ ...sim.sftp, privateKey: key.private, timeoutMs: 10_000 });
    expect(sim.sftp.hostKeySha256).toBe(hostKey);
    expect((await control('POST', '/process')).body).toEqual({ processed: [] });
    expect((await control('GET', '/state')).body).toEqual(before);
    expect((await sftp.list('/inbound')).map((f) => f.name)).toEqual(inboundBefore);
  });
});

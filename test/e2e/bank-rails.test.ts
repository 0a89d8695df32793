/**
 * PRODUCTION money through a partner bank, end to end: the real server (what `npm start` runs) in
 * PRODUCTION with a BANKS_FILE naming the bank simulator (src/rails/bank/simulator) behind a real
 * OpenSSH SFTP server, cut-offs every minute of the day (UTC) and the real clock. The simulator
 * validates and answers the files the server uploads, books incoming credits and writes
 * statements; the server reads them back over SFTP. PRODUCTION webhook endpoints must be https,
 * so the webhooks are read where the server keeps them (the outbox table), as
 * test/payments-production.test.ts does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ssh2 from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { parseNachaFile } from '../../src/rails/bank/nacha/index.js';
import { parsePain001, validateXml } from '../../src/rails/bank/iso20022/index.js';
import { ensureSshd } from '../../src/rails/bank/sshd.js';
import { startBankSimulator, type BankSimulator } from '../../src/rails/bank/simulator/server.js';
import { dialect } from '../helpers/env.js';
import { accountBody } from '../helpers/external-accounts.js';
import { cli, serverEnvironment, startServer, type RunningServer } from '../helpers/server.js';

const API = '/2025-10-13';
const OPERATOR_USD = { currency: 'USD', holderName: 'Corridor Test Operator', routingNumber: '021000021', accountNumber: '000123456789' };
const OPERATOR_EUR = { currency: 'EUR', holderName: 'Corridor Test Operator', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' };
/** Every minute of the day: a window closes within a minute of any instant. */
const EVERY_MINUTE = Array.from({ length: 1440 }, (_, i) => ({
  time: `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
}));

/**
 * The bank builds files on business days only (src/rails/bank/calendar.ts), and the server runs on
 * the real clock. When the real day (UTC, the bank's zone here) is a Saturday or Sunday, or becomes
 * one within the run, the server and the simulator run whole days ahead, on the next business day
 * (test/helpers/shifted-clock.mjs); on a business day they run on the real clock.
 */
const DAY_MS = 86_400_000;
const businessDay = (t: number) => ![0, 6].includes(new Date(t).getUTCDay());
const clockOffsetMs = [0, 1, 2, 3].map((d) => d * DAY_MS).find((o) => businessDay(Date.now() + o) && businessDay(Date.now() + o + 15 * 60_000))!;
const bankNow = () => new Date(Date.now() + clockOffsetMs);

const key = ssh2.utils.generateKeyPairSync('ed25519');
const simLog: string[] = [];
let simDir: string;
let sim: BankSimulator;
let server: RunningServer;
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let db: Database;
let auth: string;

async function startSimulator(ports?: { port: number; controlPort: number }) {
  return startBankSimulator({
    dir: simDir,
    accounts: [OPERATOR_USD, OPERATOR_EUR],
    routingNumber: '021000021',
    bic: 'COBADEFFXXX',
    timeZone: 'UTC',
    operatorPublicKey: key.public,
    pollMs: 100,
    log: (line) => simLog.push(line),
    now: bankNow,
    ...ports,
  });
}

beforeAll(async () => {
  ensureSshd();
  simDir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-e2e-bank-'));
  sim = await startSimulator();
  const keyFile = path.join(simDir, 'operator-key');
  fs.writeFileSync(keyFile, key.private, { mode: 0o600 });
  const banksFile = path.join(simDir, 'banks.json');
  fs.writeFileSync(
    banksFile,
    JSON.stringify({
      banks: [
        {
          id: 'partner',
          name: 'Partner Bank',
          formats: ['NACHA', 'PAIN001_SEPA'],
          accounts: [
            { ...OPERATOR_USD, bankName: 'Partner Bank' },
            { ...OPERATOR_EUR, bankName: 'Partner Bank' },
          ],
          sftp: { ...sim.sftp, privateKeyFile: keyFile },
          schedule: { timeZone: 'UTC', cutoffs: { NACHA: EVERY_MINUTE, PAIN001_SEPA: EVERY_MINUTE }, holidays: [] },
          nacha: {
            immediateDestination: '021000021',
            immediateDestinationName: 'PARTNER BANK',
            immediateOrigin: '1987654321',
            immediateOriginName: 'CORRIDOR TEST OPERATOR',
            companyId: '1987654321',
            companyName: 'CORRIDOR TEST',
            originatingDfi: '02100002',
          },
          pollIntervalMs: 1000,
        },
      ],
    }),
  );
  const ratesFile = path.join(simDir, 'rates.json');
  fs.writeFileSync(ratesFile, JSON.stringify({ asOf: bankNow().toISOString(), base: 'USD', rates: { EUR: '0.9' } }));
  const made = await serverEnvironment(dialect);
  cleanup = made.cleanup;
  const clock: Record<string, string> = clockOffsetMs
    ? { NODE_OPTIONS: `--import=${path.join(import.meta.dirname, '../helpers/shifted-clock.mjs')}`, CORRIDOR_TEST_CLOCK_OFFSET_MS: String(clockOffsetMs) }
    : {};
  env = { ...made.env, ...clock, BANKS_FILE: banksFile, RATES_FILE: ratesFile, RATES_MAX_AGE_MS: '86400000', PRODUCTION_MANUAL_RAIL: 'false' };
  server = await startServer(env);
  const { platformId } = JSON.parse(fs.readFileSync(path.join(made.dataDir, 'credentials.json'), 'utf8'));
  const token = cli(['token', 'create', '--platform', platformId, '--environment', 'PRODUCTION', '--name', 'bank-e2e', '--json'], env);
  expect(token.status, token.stderr).toBe(0);
  const t = JSON.parse(token.stdout);
  auth = `Basic ${Buffer.from(`${t.clientId}:${t.clientSecret}`).toString('base64')}`;
  db = await openDatabase({ url: env.DATABASE_URL ?? path.join(made.dataDir, 'corridor.db'), sqliteSynchronous: 'NORMAL' });
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await db?.close();
  await sim?.stop();
  if (sim) fs.rmSync(path.dirname(sim.root), { recursive: true, force: true });
  if (simDir) fs.rmSync(simDir, { recursive: true, force: true });
  await cleanup?.();
});

async function api(method: string, route: string, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${API}${route}`, {
    method,
    headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: await res.json() };
}

async function control(method: string, route: string, body?: unknown) {
  const res = await fetch(`${sim.controlUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status >= 300) throw new Error(`simulator ${route}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** Polls until `probe` answers something truthy (the server works on the real clock). */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what} at ${new Date().toISOString()}\n${await rows()}\nserver:\n${server.output().slice(-3000)}\nsimulator:\n${simLog.slice(-20).join('\n')}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What the server's bank tables hold, for a failure's message. */
async function rows() {
  const payouts = await db.executor().selectFrom('bank_payouts').select(['transaction_id', 'status', 'file_id', 'queued_at']).execute();
  const files = await db.executor().selectFrom('bank_files').select(['id', 'name', 'status', 'window_at', 'built_at', 'uploaded_at']).execute();
  return JSON.stringify({ payouts, files }, null, 1);
}

const transaction = async (id: string) => (await api('GET', `/transactions/${id}`)).body;
const statusIs = (id: string, status: string) =>
  until(`${id} ${status}`, async () => ((await transaction(id)).status === status ? transaction(id) : undefined));
const balanceOf = async (accountId: string): Promise<number> => (await api('GET', `/internal-accounts/${accountId}`)).body.balance.amount;
const payoutRow = (transactionId: string) =>
  db.executor().selectFrom('bank_payouts').selectAll().where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
const fileRow = (id: string) => db.executor().selectFrom('bank_files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const exceptions = (kind: string) => db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', kind).execute();
const processedAtBank = async (name: string) =>
  ((await control('GET', '/state')).processed as Array<{ name: string; outcome: string }>).filter((p) => p.name === name);

/** The webhooks of one transaction as the outbox stored them, oldest first: [type, status]. */
async function webhooks(transactionId: string): Promise<Array<[string, string]>> {
  const rows = await db.executor().selectFrom('webhook_events').select(['type', 'body']).where('subject', '=', transactionId).orderBy('id').execute();
  return rows.map((r) => [r.type, (JSON.parse(r.body) as { transaction: { status: string } }).transaction.status]);
}

/** The payout's file once the bank has answered it. */
async function answeredFile(transactionId: string) {
  const payout = await until(`${transactionId} in a file`, async () => {
    const p = await payoutRow(transactionId);
    return p.file_id ? p : undefined;
  });
  const file = await fileRow(payout.file_id!);
  await until(`the bank's answer to ${file.name}`, async () => (await processedAtBank(file.name)).length > 0);
  return { payout, file };
}

let customerId: string;
let usd: { id: string };
let eur: { id: string };
let usBank: { id: string };
let usReturns: { id: string };
let iban: { id: string };

beforeAll(async () => {
  const created = await api('POST', '/customers', {
    platformCustomerId: 'bank-e2e-1',
    customerType: 'INDIVIDUAL',
    fullName: 'Ada Lovelace',
    currencies: ['USD', 'EUR'],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  customerId = created.body.id;
  const approved = await api('PATCH', `/customers/${customerId}`, { customerType: 'INDIVIDUAL', kycStatus: 'APPROVED' });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const list = await api('GET', `/customers/internal-accounts?customerId=${customerId}&limit=100`);
  for (const a of list.body.data) if (a.balance.currency.code === 'USD') usd = a;
  for (const a of list.body.data) if (a.balance.currency.code === 'EUR') eur = a;
  const external = async (type: string, override: Record<string, string> = {}) => {
    const { fixture: _fixture, ...body } = accountBody(type, '000', undefined, { customerId });
    Object.assign(body.accountInfo, override);
    const r = await api('POST', '/customers/external-accounts', body);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body;
  };
  usBank = await external('US_ACCOUNT');
  // The simulator returns entries to an account ending 0003 with R03 (docs/bank-simulator.md).
  usReturns = await external('US_ACCOUNT', { accountNumber: '1234560003' });
  iban = await external('IBAN', { iban: 'DE44500105175407324931' });
}, 60_000);

describe(`bank rails end to end on ${dialect}`, { timeout: 150_000 }, () => {
  it("a deposit with the internal account's reference credits it: an INCOMING transaction, COMPLETED, and its webhook", async () => {
    for (const [account, currency, amount] of [
      [usd, 'USD', 100_000],
      [eur, 'EUR', 80_000],
    ] as const) {
      const [instruction] = (await api('GET', `/internal-accounts/${account.id}`)).body.fundingPaymentInstructions;
      const reference = instruction.accountOrWalletInfo.reference as string;
      expect(reference).toEqual(expect.any(String));
      if (currency === 'EUR') expect(instruction.accountOrWalletInfo).toMatchObject({ accountType: 'IBAN', iban: OPERATOR_EUR.iban });
      else expect(instruction.accountOrWalletInfo).toMatchObject({ accountNumber: OPERATOR_USD.accountNumber, routingNumber: OPERATOR_USD.routingNumber });
      await control('POST', '/credit', { currency, amount: String(amount), reference, debtorName: 'Jane Payer' });
      await until(`the ${currency} deposit`, async () => (await balanceOf(account.id)) === amount);
    }
    const incoming = (await api('GET', `/transactions?customerId=${customerId}&type=INCOMING`)).body.data;
    expect(incoming.map((t: any) => [t.status, t.receivedAmount.amount, t.receivedAmount.currency.code]).sort()).toEqual([
      ['COMPLETED', 100_000, 'USD'],
      ['COMPLETED', 80_000, 'EUR'],
    ]);
    for (const t of incoming) expect((await webhooks(t.id)).at(-1)).toEqual(['INCOMING_PAYMENT', 'COMPLETED']);
  });

  let jit: { transactionId: string };
  it('a JIT quote is funded by a credit with its reference and executes; a wrong amount gives FUNDING_AMOUNT_MISMATCH', async () => {
    const quote = async () => {
      const r = await api('POST', '/quotes', {
        source: { sourceType: 'REALTIME_FUNDING', customerId, currency: 'EUR' },
        destination: { destinationType: 'ACCOUNT', accountId: iban.id },
        lockedCurrencySide: 'SENDING',
        lockedCurrencyAmount: 5_000,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const good = await quote();
    const bad = await quote();
    const [instruction] = good.paymentInstructions;
    expect(instruction.accountOrWalletInfo).toMatchObject({ accountType: 'IBAN', iban: OPERATOR_EUR.iban });
    const reference = (q: any) => q.paymentInstructions[0].accountOrWalletInfo.reference as string;
    expect(reference(good)).not.toBe(reference(bad));
    await control('POST', '/credit', { currency: 'EUR', amount: String(good.totalSendingAmount), reference: reference(good), debtorName: 'Jane Payer' });
    await control('POST', '/credit', { currency: 'EUR', amount: String(good.totalSendingAmount - 1), reference: reference(bad), debtorName: 'Jane Payer' });
    await statusIs(good.transactionId, 'PROCESSING');
    expect((await payoutRow(good.transactionId)).status).toMatch(/^(QUEUED|IN_FILE|SENT)$/);
    expect((await api('GET', `/quotes/${good.id}`)).body.status).not.toBe('PENDING');
    const failed = await statusIs(bad.transactionId, 'FAILED');
    expect(failed.failureReason).toBe('FUNDING_AMOUNT_MISMATCH');
    expect((await exceptions('AMOUNT_MISMATCH')).map((e) => e.subject_id)).toEqual([bad.transactionId]);
    jit = good;
  });

  it('a credit whose reference matches nothing lands in the exceptions queue', async () => {
    await control('POST', '/credit', { currency: 'USD', amount: '1234', reference: 'NOBODY-KNOWS-ME', debtorName: 'Stranger' });
    const [exception] = await until('the exception', async () => (await exceptions('UNMATCHED_CREDIT')).length > 0 && exceptions('UNMATCHED_CREDIT'));
    expect(exception).toMatchObject({ status: 'OPEN', currency: 'USD', reference: 'NOBODY-KNOWS-ME', bank_id: 'partner' });
    expect(BigInt(exception.amount!)).toBe(1234n);
  });

  describe('payouts', () => {
    let usdPayout: string;
    let eurPayout: string;
    let returned: string;
    let firstWindow: string;
    const transferOut = async (source: string, destination: string, amount: number) => {
      const r = await api('POST', '/transfer-out', { source: { accountId: source }, destination: { accountId: destination }, amount });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      expect(r.body.status).toBe('PROCESSING');
      return r.body.id as string;
    };

    beforeAll(async () => {
      usdPayout = await transferOut(usd.id, usBank.id, 10_000);
      eurPayout = await transferOut(eur.id, iban.id, 20_000);
      returned = await transferOut(usd.id, usReturns.id, 5_000);
    });

    it('a USD payout goes out in a NACHA file, the bank acknowledges it, and it COMPLETES', async () => {
      const { payout, file } = await answeredFile(usdPayout);
      firstWindow = file.window_at;
      expect(file.format).toBe('NACHA');
      // The bytes at the bank are the bytes archived, a NACHA credit of the amount with our reference.
      const atBank = fs.readFileSync(path.join(sim.root, 'outbound', file.name));
      expect(Buffer.compare(atBank, Buffer.from(file.content))).toBe(0);
      const entries = parseNachaFile(atBank.toString('utf8')).batches.flatMap((b) => b.entries);
      const entry = entries.find((e) => e.individualIdentificationNumber.trim() === payout.reference)!;
      expect(entry).toMatchObject({ direction: 'credit', amount: 10_000n, traceNumber: payout.trace_number });
      expect(await processedAtBank(file.name)).toMatchObject([{ format: 'NACHA', outcome: expect.stringMatching(/^ACCEPTED: [1-3] booked, 0 rejected/) }]);
      await statusIs(usdPayout, 'COMPLETED');
      expect(await webhooks(usdPayout)).toEqual([
        ['OUTGOING_PAYMENT', 'PROCESSING'],
        ['OUTGOING_PAYMENT', 'COMPLETED'],
      ]);
    });

    it('a EUR payout goes out in a pain.001 valid against the schema, pain.002 accepts it, and it COMPLETES; so does the JIT payment', async () => {
      const { payout, file } = await answeredFile(eurPayout);
      expect(file.format).toBe('PAIN001_SEPA');
      const xml = fs.readFileSync(path.join(sim.root, 'outbound', file.name), 'utf8');
      expect(await validateXml(xml, 'pain.001.001.09')).toMatchObject({ valid: true });
      expect(parsePain001(xml).paymentInformation.flatMap((p) => p.transactions.map((t) => t.endToEndId))).toContain(payout.reference);
      expect(await processedAtBank(file.name)).toMatchObject([{ outcome: expect.stringMatching(/^ACCP: [12] booked, 0 rejected/) }]);
      const inbound = await until('the pain.002', async () =>
        db.executor().selectFrom('bank_inbound_files').select(['name', 'status']).where('name', 'like', `%${file.name}.pain002.xml`).executeTakeFirst(),
      );
      expect(inbound.status).toBe('APPLIED');
      await statusIs(eurPayout, 'COMPLETED');
      expect(await balanceOf(eur.id)).toBe(80_000 - 20_000);
      await statusIs(jit.transactionId, 'COMPLETED');
    });

    it('a NACHA return R03 turns a COMPLETED payout FAILED, refunds the payer and keeps the code', async () => {
      await answeredFile(returned);
      const failed = await statusIs(returned, 'FAILED');
      expect(failed.failureDetail).toMatchObject({ code: 'R03', source: 'NACHA' });
      expect((await payoutRow(returned)).reason_code).toBe('R03');
      expect(await webhooks(returned)).toEqual([
        ['OUTGOING_PAYMENT', 'PROCESSING'],
        ['OUTGOING_PAYMENT', 'COMPLETED'],
        ['OUTGOING_PAYMENT', 'FAILED'],
      ]);
      // Refunded: the 100.00 deposited less the payout that completed.
      expect(await balanceOf(usd.id)).toBe(100_000 - 10_000);
    });

    let late: string;
    it('a payout made after a cut-off waits for the next window', async () => {
      late = await transferOut(usd.id, usBank.id, 3_000);
      const payout = await payoutRow(late);
      expect(payout.queued_at > firstWindow).toBe(true);
      await new Promise((r) => setTimeout(r, 1500));
      expect(await payoutRow(late)).toMatchObject({ status: 'QUEUED', file_id: null });
      // Its window is the next one: see the next test, which sends it.
    });

    it('a crash (SIGKILL) after a file is built and before its upload is recorded sends the file once and loses none', async () => {
      // The bank goes away: the file of the next window is built but cannot be uploaded.
      const sftpPort = sim.sftp.port;
      const controlPort = Number(new URL(sim.controlUrl).port);
      // Shortly before the next cut-off, so the upload fails once or twice only (each failure doubles
      // the server's wait before it tries again).
      const stopAt = Date.parse(firstWindow) + 60_000 - 4_000;
      await new Promise((r) => setTimeout(r, Math.max(0, stopAt - bankNow().getTime())));
      await sim.stop();
      const built = await until(
        'the next window built',
        async () => {
          const p = await payoutRow(late);
          if (!p.file_id) return undefined;
          const f = await fileRow(p.file_id);
          return f.status === 'BUILT' ? f : undefined;
        },
        120_000,
      );
      expect(Date.parse(built.window_at)).toBe(Date.parse(firstWindow) + 60_000);
      // Kill it while no cycle holds the bank (the failed upload is waiting to be tried again).
      await until('the upload to fail and wait', async () => {
        const job = await db
          .executor()
          .selectFrom('jobs')
          .select(['locked_until', 'run_at', 'payload'])
          .where('kind', '=', 'bank.cycle')
          .where('dead_at', 'is', null)
          .executeTakeFirst();
        const idle =
          job && (job.locked_until === null || Date.parse(job.locked_until) < bankNow().getTime()) && Date.parse(job.run_at) > bankNow().getTime() + 300;
        return idle && (JSON.parse(job.payload) as { failures?: number }).failures! >= 1;
      });
      await server.stop('SIGKILL');
      expect((await fileRow(built.id)).status).toBe('BUILT');
      expect(fs.readdirSync(path.join(sim.root, 'outbound'))).not.toContain(built.name);

      // The bank is back (same host key, same state), then the server.
      sim = await startSimulator({ port: sftpPort, controlPort });
      expect(await processedAtBank(built.name)).toEqual([]);
      server = await startServer(env);
      await statusIs(late, 'COMPLETED');
      expect(await processedAtBank(built.name)).toMatchObject([{ outcome: expect.stringMatching(/^ACCEPTED: 1 booked, 0 rejected/) }]);
      const atBank = fs.readdirSync(path.join(sim.root, 'outbound'));
      expect(atBank.filter((n) => n === built.name)).toHaveLength(1);
      expect(atBank.filter((n) => n.startsWith('.'))).toEqual([]);
      expect(Buffer.compare(fs.readFileSync(path.join(sim.root, 'outbound', built.name)), Buffer.from(built.content))).toBe(0);
      // Every file the server built reached the bank exactly once.
      const files = await db.executor().selectFrom('bank_files').select(['name', 'status']).execute();
      const processed = (await control('GET', '/state')).processed as Array<{ name: string }>;
      for (const f of files) expect([f.name, processed.filter((p) => p.name === f.name).length]).toEqual([f.name, 1]);
    }, 180_000);
  });

  it('a statement that agrees with the ledger raises nothing; one whose balance disagrees raises a BALANCE_BREAK', async () => {
    const read = async (statementIds: string[]) =>
      until('the statements read', async () => {
        const rows = await db.executor().selectFrom('bank_balances').select('statement_id').where('statement_id', 'in', statementIds).execute();
        return rows.length === statementIds.length;
      });
    const fair = (await control('POST', '/statement', {})).statements as Array<{ statementId: string; currency: string }>;
    expect(fair.map((s) => s.currency).sort()).toEqual(['EUR', 'USD']);
    await read(fair.map((s) => s.statementId));
    expect(await exceptions('BALANCE_BREAK')).toEqual([]);

    const [skewed] = (await control('POST', '/statement', { currency: 'EUR', skew: '100' })).statements as Array<{ statementId: string }>;
    await read([skewed.statementId]);
    const [found] = await exceptions('BALANCE_BREAK');
    expect(found).toMatchObject({ subject_id: skewed.statementId, currency: 'EUR', status: 'OPEN' });
    expect(BigInt(found.amount!)).toBe(100n);
  });

  it('`corridor ledger verify` is clean at the end, the bank side included', () => {
    const r = cli(['ledger', 'verify', '--json'], env);
    expect(r.status, r.stderr + r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, problems: [] });
  });
});

/**
 * The operator's bank operations (src/rails/bank/operations.ts), shared by `npx corridor bank …`
 * and the dashboard's Bank page: files and their bytes, cancelling a queued payout, and the
 * exceptions queue resolved by note, by applying a credit to an account, or by sending it back.
 * The bank is a real OpenSSH SFTP server whose reports are written by hand (as in bank-rails.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { buildCamt053, buildCamt054 } from '../src/rails/bank/iso20022/index.js';
import { buildNachaAck, nachaAckSubject } from '../src/rails/bank/nacha/index.js';
import { bankOperationsDeps, CANCEL_MARGIN_MS, createBankOperations, type BankOperations } from '../src/rails/bank/operations.js';
import { call, type TestContext, testContext } from './helpers/context.js';
import { approvedCustomer, deliver, startTestBank, type TestBank } from './helpers/bank.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, fundedCustomer } from './helpers/payments.js';

// A Monday, 10:05 UTC: the next cut-off is 10:15.
const clock = manualClock(new Date('2026-11-30T10:05:00.000Z'));
let bank: TestBank;
let ctx: TestContext;
let prod: string;
let ops: BankOperations;
const operator = { type: 'OPERATOR' as const, name: 'ops@host' };

beforeAll(async () => {
  bank = await startTestBank();
  const ratesFile = path.join(path.dirname(bank.banksFile), 'rates.json');
  fs.writeFileSync(ratesFile, JSON.stringify({ asOf: clock.now().toISOString(), base: 'USD', rates: { EUR: '0.9' } }));
  ctx = await testContext({ clock, env: { BANKS_FILE: bank.banksFile, PRODUCTION_MANUAL_RAIL: 'false', RATES_FILE: ratesFile, RATES_MAX_AGE_MS: '86400000' } });
  prod = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
  ops = createBankOperations(bankOperationsDeps(ctx.container));
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await bank?.stop();
});

afterEach(() => expectLedgerBalanced(ctx));

const rails = () => ctx.container.bankRails;
const theBank = () => rails().banks[0];
const db = () => ctx.container.db.executor();
const txOf = async (id: string) => (await call(ctx, 'GET', `/transactions/${id}`, { auth: prod })).body;

async function customerWith(currency: string, accountType: string) {
  const { customer, internal, external } = await approvedCustomer(ctx, prod, currency, accountType);
  return { customer, account: internal, external };
}

/** Moves the clock to one minute past the next quarter-hour cut-off. */
function passCutoff() {
  const t = clock.now().getTime();
  const quarter = 15 * 60_000;
  clock.advance(Math.ceil((t + 1) / quarter) * quarter - t + 60_000);
}

let bankRef = 0;
const stamp = () =>
  clock
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
const OPERATOR_EUR = { iban: 'DE89370400440532013000', currency: 'EUR' };

/** A booked entry on the operator's EUR account, as the bank announces it (camt.054). */
async function announce(amount: bigint, direction: 'CREDIT' | 'DEBIT', reference: string) {
  const id = `OPS-NTF${++bankRef}`;
  const day = stamp().slice(0, 10);
  deliver(
    bank,
    `${id}.xml`,
    buildCamt054({
      messageId: id,
      createdAt: stamp(),
      notificationId: id,
      account: OPERATOR_EUR,
      entries: [
        {
          amount,
          direction,
          bookingDate: day,
          valueDate: day,
          bankReference: `OPS-REF-${bankRef}`,
          transactions: [{ creditorReference: reference, remittanceInformation: reference, debtor: direction === 'CREDIT' ? { name: 'A Payer' } : undefined }],
        },
      ],
    }),
  );
  await rails().worker.cycle(theBank(), { read: true });
  return `OPS-REF-${bankRef}`;
}

const exceptionFor = async (kind: string, reference: string) =>
  (await ops.listExceptions({ kind })).find((e) => e.reference === reference) ?? expect.fail(`no open ${kind} for ${reference}`);

describe('files', () => {
  it('lists the files with their status and totals, filters them, gives their bytes as uploaded and their payouts', async () => {
    const { account, external } = await customerWith('USD', 'US_ACCOUNT');
    const pulled = await call(ctx, 'POST', '/transfer-in', {
      auth: prod,
      body: { source: { accountId: external.id }, destination: { accountId: account.id }, amount: 9_000 },
    });
    expect(pulled.status).toBe(201);
    passCutoff();
    const { built, uploaded } = await rails().worker.cycle(theBank(), { read: false });
    expect(built).toHaveLength(1);
    expect(uploaded).toHaveLength(1);

    const [file] = await ops.listFiles({ bankId: 'test-bank', status: 'UPLOADED' });
    expect(file).toMatchObject({ id: built[0], bankId: 'test-bank', format: 'NACHA', status: 'UPLOADED', currency: 'USD', entryCount: 1, totalAmount: 9_000n });
    expect(file.builtAt).toBe(clock.now().toISOString());
    expect(file.uploadedAt).not.toBeNull();
    expect(file.acknowledgedAt).toBeNull();
    expect(await ops.listFiles({ status: 'ACCEPTED' })).toEqual([]);
    expect(await ops.listFiles({ bankId: 'another-bank' })).toEqual([]);
    await expect(ops.listFiles({ status: 'SENT' })).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/status must be one of BUILT, UPLOADED/),
    });

    const { content } = await ops.fileContent(file.id);
    expect(Buffer.compare(content, fs.readFileSync(path.join(bank.outbound, file.name)))).toBe(0);
    const payouts = await ops.filePayouts(file.id);
    expect(payouts).toEqual([expect.objectContaining({ transactionId: pulled.body.id, direction: 'DEBIT', amount: 9_000n, status: 'SENT' })]);
    await expect(ops.fileContent('BankFile:0190a8f1-0000-7000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'BANK_FILE_NOT_FOUND' });
  });
});

describe('cancelling a payout', () => {
  let usd: { id: string };
  let external: { id: string };

  beforeAll(async () => {
    const c = await customerWith('USD', 'US_ACCOUNT');
    usd = c.account;
    external = c.external;
    // Money in the account, from a pull the bank accepted.
    const pulled = await call(ctx, 'POST', '/transfer-in', {
      auth: prod,
      body: { source: { accountId: external.id }, destination: { accountId: usd.id }, amount: 50_000 },
    });
    passCutoff();
    const { built } = await rails().worker.cycle(theBank(), { read: false });
    const name = (await db().selectFrom('bank_files').select('name').where('id', '=', built[0]).executeTakeFirstOrThrow()).name;
    const bytes = fs.readFileSync(path.join(bank.outbound, name));
    deliver(bank, `${name}.ack`, buildNachaAck({ ...nachaAckSubject(name, bytes), acknowledgedAt: clock.now(), status: 'ACCEPTED', entryRejections: [] }));
    await rails().worker.cycle(theBank(), { read: true });
    expect((await txOf(pulled.body.id)).status).toBe('COMPLETED');
  });

  const payOut = async (amount: number) => {
    const r = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: usd.id }, destination: { accountId: external.id }, amount },
    });
    expect(r.status).toBe(201);
    return r.body.id as string;
  };

  it('a QUEUED payout cancelled before its cut-off FAILS with the payer refunded, and cannot be cancelled twice', async () => {
    const before = await balance(ctx, usd.id, prod);
    const id = await payOut(1_500);
    expect(await balance(ctx, usd.id, prod)).toBe(before - 1_500);
    const cancelled = await ops.cancelPayout(id);
    expect(cancelled).toMatchObject({ transactionId: id, status: 'CANCELLED', amount: 1_500n });
    const tx = await txOf(id);
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', refund: { status: 'COMPLETED' } });
    expect(await balance(ctx, usd.id, prod)).toBe(before);
    const row = await db().selectFrom('bank_payouts').selectAll().where('transaction_id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('CANCELLED');
    await expect(ops.cancelPayout(id)).rejects.toMatchObject({
      status: 409,
      code: 'BANK_PAYOUT_NOT_CANCELLABLE',
      message: expect.stringMatching(/is CANCELLED/),
    });
    // The next window builds no file for it.
    passCutoff();
    expect((await rails().worker.cycle(theBank(), { read: false })).built).toEqual([]);
  });

  it('refuses a payout already in a file, one too close to its cut-off, and an unknown one', async () => {
    const sent = await payOut(700);
    passCutoff();
    await rails().worker.cycle(theBank(), { read: false });
    await expect(ops.cancelPayout(sent)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/is SENT in file BankFile:.*only a QUEUED payout/),
    });
    expect((await txOf(sent)).status).toBe('PROCESSING');

    // One minute past a cut-off; the next is 14 minutes away: move to within the margin of it.
    const late = await payOut(800);
    clock.advance(14 * 60_000 - CANCEL_MARGIN_MS + 1);
    await expect(ops.cancelPayout(late)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/due in the file of the .* cut-off/) });
    expect((await txOf(late)).status).toBe('PROCESSING');
    passCutoff();
    await rails().worker.cycle(theBank(), { read: false });

    await expect(ops.cancelPayout('Transaction:0190a8f1-0000-7000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'BANK_PAYOUT_NOT_FOUND' });
  });
});

describe('the exceptions queue', () => {
  let eur: { id: string };

  beforeAll(async () => {
    eur = (await customerWith('EUR', 'IBAN')).account;
  });

  it('lists an unmatched credit with its age; it cannot be closed with a note, and is applied to an account as a deposit', async () => {
    const bankReference = await announce(4_321n, 'CREDIT', 'SOMEONE-FORGOT-THE-REF');
    clock.advance(2 * 3600_000);
    const open = await exceptionFor('UNMATCHED_CREDIT', 'SOMEONE-FORGOT-THE-REF');
    expect(open).toMatchObject({ status: 'OPEN', bankId: 'test-bank', currency: 'EUR', amount: 4_321n, ageSeconds: 2 * 3600, resolution: null });

    await expect(ops.resolveException(open.id, { action: 'NOTE', note: 'looked at it' }, operator)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/apply it to an internal account .* or send it back/),
    });
    const usdAccount = (await customerWith('USD', 'US_ACCOUNT')).account;
    await expect(ops.resolveException(open.id, { action: 'APPLY_TO', accountId: usdAccount.id }, operator)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/holds USD; the credit is EUR/),
    });
    const sandboxAccount = (await fundedCustomer(ctx, ['EUR'], 0)).accounts.EUR;
    await expect(ops.resolveException(open.id, { action: 'APPLY_TO', accountId: sandboxAccount.id }, operator)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/SANDBOX account/),
    });

    const before = await balance(ctx, eur.id, prod);
    const resolved = await ops.resolveException(open.id, { action: 'APPLY_TO', accountId: eur.id, note: 'payer phoned: their customer' }, operator);
    expect(resolved).toMatchObject({
      status: 'RESOLVED',
      resolution: { action: 'APPLY_TO', accountId: eur.id, note: 'payer phoned: their customer', by: operator },
    });
    expect(resolved.resolution!.at).toBe(clock.now().toISOString());
    expect(await balance(ctx, eur.id, prod)).toBe(before + 4_321);
    const entry = await db().selectFrom('bank_statement_entries').selectAll().where('bank_reference', '=', bankReference).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ matched_kind: 'DEPOSIT', matched_id: eur.id, platform_id: ctx.platform.platformId, environment: 'PRODUCTION' });
    const deposits = (await call(ctx, 'GET', '/transactions', { auth: prod, query: { type: 'INCOMING' } })).body.data.filter(
      (t: { destination?: { accountId?: string } }) => t.destination?.accountId === eur.id,
    );
    expect(deposits).toEqual([expect.objectContaining({ status: 'COMPLETED', receivedAmount: expect.objectContaining({ amount: 4_321 }) })]);

    // Resolved once: a second resolution is refused, and it leaves the open queue.
    await expect(ops.resolveException(open.id, { action: 'SEND_BACK' }, operator)).rejects.toMatchObject({ status: 409, code: 'BANK_EXCEPTION_RESOLVED' });
    expect((await ops.listExceptions()).map((e) => e.id)).not.toContain(open.id);
    expect((await ops.listExceptions({ state: 'RESOLVED' })).map((e) => e.id)).toContain(open.id);
  });

  it('a credit sent back becomes RETURNED_TO_PAYER; the debit paying it back is paired with it; the next statement agrees with the ledger', async () => {
    const creditRef = await announce(2_000n, 'CREDIT', 'WRONG-BENEFICIARY');
    const credit = await exceptionFor('UNMATCHED_CREDIT', 'WRONG-BENEFICIARY');
    await ops.resolveException(credit.id, { action: 'SEND_BACK', note: 'not our customer' }, operator);
    const creditEntry = await db().selectFrom('bank_statement_entries').selectAll().where('bank_reference', '=', creditRef).executeTakeFirstOrThrow();
    expect(creditEntry.matched_kind).toBe('RETURNED_TO_PAYER');

    // The operator pays it back from the bank's own channels: the bank reports a debit no payout names.
    const debitRef = await announce(2_000n, 'DEBIT', 'RETURN WRONG-BENEFICIARY');
    const debit = await exceptionFor('UNMATCHED_DEBIT', 'RETURN WRONG-BENEFICIARY');
    // A note is a reason; without the note a debit is paired only with a credit sent back of its amount.
    const other = await announce(999n, 'DEBIT', 'BANK FEE');
    const fee = await exceptionFor('UNMATCHED_DEBIT', 'BANK FEE');
    await expect(ops.resolveException(fee.id, { action: 'SEND_BACK' }, operator)).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/no credit sent back of 999 EUR/),
    });
    await expect(ops.resolveException(fee.id, { action: 'NOTE', note: '  ' }, operator)).rejects.toMatchObject({
      status: 400,
      message: /a note saying why is required/,
    });
    await ops.resolveException(fee.id, { action: 'NOTE', note: 'monthly account fee' }, operator);
    expect(
      (await db().selectFrom('bank_statement_entries').select('matched_kind').where('bank_reference', '=', other).executeTakeFirstOrThrow()).matched_kind,
    ).toBe('SUSPENSE');

    const paired = await ops.resolveException(debit.id, { action: 'SEND_BACK' }, operator);
    expect(paired.resolution).toMatchObject({ action: 'SEND_BACK', pairedEntryId: creditEntry.id });
    const debitEntry = await db().selectFrom('bank_statement_entries').selectAll().where('bank_reference', '=', debitRef).executeTakeFirstOrThrow();
    expect(debitEntry).toMatchObject({ matched_kind: 'RETURNED_TO_PAYER', matched_id: creditEntry.id });

    // The statement: the bank holds what it held before Corridor plus every entry it booked.
    const booked = await db().selectFrom('bank_statement_entries').select(['direction', 'amount']).where('currency', '=', 'EUR').execute();
    const net = booked.reduce((sum, e) => sum + (e.direction === 'CREDIT' ? BigInt(e.amount) : -BigInt(e.amount)), 0n);
    const day = stamp().slice(0, 10);
    deliver(
      bank,
      'OPS-STMT-1.xml',
      buildCamt053({
        messageId: 'OPS-STMT-1',
        createdAt: stamp(),
        statementId: 'OPS-STMT-1',
        account: OPERATOR_EUR,
        openingBalance: { amount: 1_000_000n + net, date: day },
        closingBalance: { amount: 1_000_000n + net, date: day },
        entries: [],
      }),
    );
    await rails().worker.cycle(theBank(), { read: true });
    expect(await ops.listExceptions({ kind: 'BALANCE_BREAK' })).toEqual([]);
  });

  it('lists by state, kind and bank, and refuses what it does not know', async () => {
    const all = await ops.listExceptions({ state: 'ALL' });
    expect(all.length).toBeGreaterThanOrEqual(4);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort().reverse());
    expect(await ops.listExceptions({ state: 'ALL', bankId: 'another-bank' })).toEqual([]);
    await expect(ops.listExceptions({ kind: 'NOPE' })).rejects.toMatchObject({ status: 400, message: /kind must be one of/ });
    await expect(ops.resolveException('BankException:0190a8f1-0000-7000-8000-000000000000', { action: 'NOTE', note: 'x' }, operator)).rejects.toMatchObject({
      status: 404,
      code: 'BANK_EXCEPTION_NOT_FOUND',
    });
  });

  it('status: per bank, what waits, the files by status, the open exceptions and the last report read', async () => {
    const [s] = await ops.status();
    expect(s).toMatchObject({ bankId: 'test-bank', name: 'Test Bank', configured: true, queuedPayouts: 0, openExceptions: expect.any(Number) });
    expect(s.filesByStatus.UPLOADED).toBeGreaterThanOrEqual(2);
    expect(s.lastReportAt).not.toBeNull();
    const open = await ops.listExceptions({ bankId: 'test-bank' });
    expect(s.openExceptions).toBe(open.length);
  });
});

describe("the dashboard's bank routes", () => {
  const ORIGIN = 'http://localhost:80';
  const PASSWORD = 'correct horse battery staple';
  type Browser = { cookie: string; csrf: string };

  async function send(b: Browser, method: 'GET' | 'POST' | 'PUT', url: string, body?: object, headers: Record<string, string> = {}) {
    const res = await ctx.app.inject({
      method,
      url,
      headers: { host: 'localhost:80', origin: ORIGIN, cookie: b.cookie, 'x-csrf-token': b.csrf, ...headers },
      ...(body === undefined ? {} : { payload: body }),
    });
    return {
      status: res.statusCode,
      text: res.body,
      headers: res.headers,
      body: String(res.headers['content-type']).startsWith('application/json') ? res.json() : undefined,
    };
  }

  async function signIn(email: string, role: 'ADMIN' | 'VIEWER', platformId = ctx.platform.platformId): Promise<Browser> {
    await ctx.container.dashboard.createUser({ platformId, email, role, password: PASSWORD });
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/dashboard/api/session',
      headers: { host: 'localhost:80', origin: ORIGIN },
      payload: { email, password: PASSWORD },
    });
    const b = { cookie: String(res.headers['set-cookie'] ?? '').split(';')[0], csrf: res.json().csrfToken as string };
    expect((await send(b, 'PUT', '/dashboard/api/session/environment', { environment: 'PRODUCTION' })).status).toBe(200);
    return b;
  }

  it("answers ADMIN users of the operator's platform in PRODUCTION: files, a download, the queue, a resolution audited", async () => {
    const admin = await signIn('bank-admin@example.com', 'ADMIN');
    const files = await send(admin, 'GET', '/dashboard/api/bank/files');
    expect(files.status).toBe(200);
    const file = files.body.data[0];
    expect(file).toMatchObject({ bankId: 'test-bank', status: expect.any(String), totalAmount: expect.any(Number) });
    const download = await send(admin, 'GET', `/dashboard/api/bank/files/${file.id}/content`);
    expect(download.status).toBe(200);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="${file.name}"`);
    expect(Buffer.from(download.text).equals((await ops.fileContent(file.id)).content)).toBe(true);

    await announce(555n, 'CREDIT', 'DASHBOARD-UNKNOWN');
    const queue = await send(admin, 'GET', '/dashboard/api/bank/exceptions', undefined);
    const open = queue.body.data.find((e: { reference: string }) => e.reference === 'DASHBOARD-UNKNOWN');
    expect(open).toMatchObject({ kind: 'UNMATCHED_CREDIT', amount: 555, ageSeconds: 0 });

    // A write without the session's CSRF token is refused and changes nothing.
    const forged = await send(admin, 'POST', `/dashboard/api/bank/exceptions/${open.id}/resolve`, { action: 'SEND_BACK' }, { 'x-csrf-token': 'forged' });
    expect(forged.status).toBe(403);
    expect((await ops.exception(open.id)).status).toBe('OPEN');
    const refused = await send(admin, 'POST', `/dashboard/api/bank/exceptions/${open.id}/resolve`, { action: 'NOTE', note: 'seen' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_INPUT' } });

    const resolved = await send(admin, 'POST', `/dashboard/api/bank/exceptions/${open.id}/resolve`, { action: 'SEND_BACK', note: 'unknown payer' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({ status: 'RESOLVED', resolution: { action: 'SEND_BACK', by: { type: 'USER', name: 'bank-admin@example.com' } } });
    const again = await send(admin, 'POST', `/dashboard/api/bank/exceptions/${open.id}/resolve`, { action: 'SEND_BACK' });
    expect(again).toMatchObject({ status: 409, body: { code: 'BANK_EXCEPTION_RESOLVED' } });
    const audited = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'POST /dashboard/api/bank/exceptions/:id/resolve')
      .where('target', '=', open.id)
      .orderBy('id')
      .execute();
    expect(audited.map((a) => [a.actor, a.outcome, Number(a.status_code)])).toEqual([
      ['bank-admin@example.com', 'FAILED', 403],
      ['bank-admin@example.com', 'FAILED', 400],
      ['bank-admin@example.com', 'SUCCEEDED', 200],
      ['bank-admin@example.com', 'FAILED', 409],
    ]);
  });

  it('refuses other roles, other platforms and the sandbox', async () => {
    const viewer = await signIn('bank-viewer@example.com', 'VIEWER');
    expect((await send(viewer, 'GET', '/dashboard/api/bank/status')).status).toBe(403);
    const other = await ctx.newPlatform('Another platform');
    const otherAdmin = await signIn('other-bank-admin@example.com', 'ADMIN', other.platformId);
    const theirs = await send(otherAdmin, 'GET', '/dashboard/api/bank/exceptions');
    expect(theirs).toMatchObject({ status: 403, body: { message: expect.stringMatching(/operator's platform/) } });
    const admin = await signIn('bank-admin-2@example.com', 'ADMIN');
    expect((await send(admin, 'PUT', '/dashboard/api/session/environment', { environment: 'SANDBOX' })).status).toBe(200);
    expect(await send(admin, 'GET', '/dashboard/api/bank/status')).toMatchObject({ status: 403, body: { message: expect.stringMatching(/PRODUCTION/) } });
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/dashboard/api/bank/status' });
    expect(anonymous.statusCode).toBe(401);
  });
});

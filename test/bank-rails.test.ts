/**
 * PRODUCTION money through a partner bank, in process: payouts and pulls queued by the bank rail,
 * built into files at the bank's cut-off, uploaded once to a real OpenSSH SFTP server, and settled
 * by the bank's reports read from its inbound folder (src/rails/bank). The bank's side is played
 * here by writing its reports by hand with the format modules; test/e2e/bank-rails.test.ts runs the
 * same against the real server and the bank simulator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/common/clock.js';
import { buildCamt053, buildCamt054, buildPain002, parsePain001, validateXml } from '../src/rails/bank/iso20022/index.js';
import { buildNachaAck, nachaAckSubject, parseNachaFile } from '../src/rails/bank/nacha/index.js';
import { call, expectError, testContext, type TestContext } from './helpers/context.js';
import { approve as approveCustomer, approvedCustomer as approvedProductionCustomer, deliver, startTestBank, type TestBank } from './helpers/bank.js';
import { expectLedgerBalanced } from './helpers/ledger.js';
import { balance, externalAccount, fundedCustomer } from './helpers/payments.js';

// A Monday, 10:05 UTC: the next cut-off is 10:15.
const clock = manualClock(new Date('2026-11-30T10:05:00.000Z'));
let bank: TestBank;
let ctx: TestContext;
let prod: string;

beforeAll(async () => {
  bank = await startTestBank();
  // PRODUCTION quotes need the operator's rates; a file written now stays fresh for the test.
  const ratesFile = path.join(path.dirname(bank.banksFile), 'rates.json');
  fs.writeFileSync(ratesFile, JSON.stringify({ asOf: clock.now().toISOString(), base: 'USD', rates: { EUR: '0.9' } }));
  ctx = await testContext({ clock, env: { BANKS_FILE: bank.banksFile, PRODUCTION_MANUAL_RAIL: 'false', RATES_FILE: ratesFile, RATES_MAX_AGE_MS: '86400000' } });
  prod = await ctx.platform.token(['VIEW', 'TRANSACT', 'MANAGE'], 'PRODUCTION');
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  await bank?.stop();
});

afterEach(() => expectLedgerBalanced(ctx));

const approve = (customerId: string) => approveCustomer(ctx, prod, customerId);
const approvedCustomer = (currency: string, accountType: string) => approvedProductionCustomer(ctx, prod, currency, accountType);

const rails = () => ctx.container.bankRails;
const theBank = () => rails().banks[0];
const payoutRow = (transactionId: string) =>
  ctx.container.db.executor().selectFrom('bank_payouts').selectAll().where('transaction_id', '=', transactionId).executeTakeFirstOrThrow();
const fileRow = (id: string) => ctx.container.db.executor().selectFrom('bank_files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const status = async (id: string) => (await call(ctx, 'GET', `/transactions/${id}`, { auth: prod })).body.status as string;

/** Passes the next cut-off and runs one cycle of the bank (build, upload, read). */
async function nextWindow() {
  clock.advance(15 * 60_000);
  return rails().worker.cycle(theBank(), { read: true });
}

/** The bank takes a file we uploaded: its acknowledgement in the inbound folder. */
function acknowledge(name: string, rejections: Array<{ traceNumber: string; code: string; text: string }> = []) {
  const bytes = fs.readFileSync(path.join(bank.outbound, name));
  const ack = buildNachaAck({
    ...nachaAckSubject(name, bytes),
    acknowledgedAt: new Date(clock.now().getTime()),
    status: 'ACCEPTED',
    entryRejections: rejections,
  });
  deliver(bank, `${name}.ack`, ack);
}

describe('USD through NACHA files', () => {
  let customer: { id: string };
  let usd: { id: string };
  let usBank: { id: string };

  beforeAll(async () => {
    ({ customer, internal: usd, external: usBank } = await approvedCustomer('USD', 'US_ACCOUNT'));
  });

  it('a pull waits for the cut-off, leaves in a NACHA debit file uploaded once, and completes when the bank accepts the file', async () => {
    const pulled = await call(ctx, 'POST', '/transfer-in', {
      auth: prod,
      body: { source: { accountId: usBank.id }, destination: { accountId: usd.id }, amount: 50_000 },
    });
    expect(pulled.status).toBe(201);
    expect(pulled.body.status).toBe('PROCESSING');
    expect((await payoutRow(pulled.body.id)).status).toBe('QUEUED');

    // Before the cut-off nothing is built.
    expect((await rails().worker.cycle(theBank(), { read: false })).built).toEqual([]);
    const { built, uploaded } = await nextWindow();
    expect(built).toHaveLength(1);
    expect(uploaded).toHaveLength(1);
    const payout = await payoutRow(pulled.body.id);
    expect(payout.status).toBe('SENT');
    const file = await fileRow(payout.file_id!);
    expect(file.status).toBe('UPLOADED');
    // The bytes at the bank are the bytes archived, and a valid NACHA debit of the amount.
    const atBank = fs.readFileSync(path.join(bank.outbound, file.name));
    expect(Buffer.compare(atBank, Buffer.from(file.content))).toBe(0);
    const nacha = parseNachaFile(atBank.toString('utf8'));
    const [entry] = nacha.batches.flatMap((b) => b.entries);
    expect(entry).toMatchObject({ direction: 'debit', amount: 50_000n, traceNumber: payout.trace_number });
    expect(entry.individualIdentificationNumber.trim()).toBe(payout.reference);

    // Another cycle sends nothing again.
    expect((await rails().worker.cycle(theBank(), { read: true })).uploaded).toEqual([]);

    acknowledge(file.name);
    const { read } = await rails().worker.cycle(theBank(), { read: true });
    expect(read.map((r) => r.status)).toEqual(['APPLIED']);
    expect(await status(pulled.body.id)).toBe('COMPLETED');
    expect(await balance(ctx, usd.id, prod)).toBe(50_000);
    expect((await fileRow(file.id)).status).toBe('ACCEPTED');
  });

  it('a payout queued after a cut-off waits for the next window', async () => {
    const paid = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: usd.id }, destination: { accountId: usBank.id }, amount: 1_000 },
    });
    expect(paid.body.status).toBe('PROCESSING');
    // One minute past the last cut-off: the window ahead closes in 14 minutes.
    clock.advance(60_000);
    expect((await rails().worker.cycle(theBank(), { read: false })).built).toEqual([]);
    expect((await payoutRow(paid.body.id)).status).toBe('QUEUED');
    const { built } = await nextWindow();
    expect(built).toHaveLength(1);
    expect((await payoutRow(paid.body.id)).status).toBe('SENT');
    acknowledge((await fileRow(built[0])).name);
    await rails().worker.cycle(theBank(), { read: true });
    expect(await status(paid.body.id)).toBe('COMPLETED');
  });

  it('an entry the bank rejects in its acknowledgement fails, and the payer is refunded', async () => {
    const before = await balance(ctx, usd.id, prod);
    const paid = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: usd.id }, destination: { accountId: usBank.id }, amount: 2_500 },
    });
    expect(await balance(ctx, usd.id, prod)).toBe(before - 2_500);
    const { built } = await nextWindow();
    const payout = await payoutRow(paid.body.id);
    acknowledge((await fileRow(built[0])).name, [{ traceNumber: payout.trace_number!, code: 'R03', text: 'No account' }]);
    await rails().worker.cycle(theBank(), { read: true });
    const tx = (await call(ctx, 'GET', `/transactions/${paid.body.id}`, { auth: prod })).body;
    expect(tx).toMatchObject({ status: 'FAILED', failureReason: 'OFFRAMP_FAILED', failureDetail: { code: 'R03', source: 'NACHA' } });
    expect(tx.failureDetail.description).toMatch(/account/i);
    expect((await payoutRow(paid.body.id)).reason_code).toBe('R03');
    expect(await balance(ctx, usd.id, prod)).toBe(before);
  });

  it('the same report read twice (another name, the same bytes) is applied once; a file that is no report is kept as refused, with an exception', async () => {
    const paid = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: usd.id }, destination: { accountId: usBank.id }, amount: 700 },
    });
    const { built } = await nextWindow();
    const name = (await fileRow(built[0])).name;
    acknowledge(name);
    fs.copyFileSync(path.join(bank.inbound, `${name}.ack`), path.join(bank.inbound, `${name}.ack.copy`));
    deliver(bank, 'garbage.txt', 'this is not a bank file');
    const { read } = await rails().worker.cycle(theBank(), { read: true });
    expect(read.map((r) => r.status).sort()).toEqual(['APPLIED', 'DUPLICATE', 'REFUSED']);
    expect(await status(paid.body.id)).toBe('COMPLETED');
    const refused = await ctx.container.db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', 'FILE_REFUSED').execute();
    expect(refused).toHaveLength(1);
    expect(JSON.parse(refused[0].details)).toMatchObject({ file: 'garbage.txt' });
    // Read once: a later cycle downloads none of them again.
    expect((await rails().worker.cycle(theBank(), { read: true })).read).toEqual([]);
  });
});

describe('what no bank carries', () => {
  it('is refused when the quote or transfer is made, naming the account and what the banks carry', async () => {
    const { customer, accounts } = await fundedCustomer(ctx, ['USD'], 0, prod);
    await approve(customer.id);
    const gbp = await externalAccount(ctx, 'GBP_ACCOUNT', '000', { customerId: customer.id, auth: prod });
    const r = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: accounts.USD.id }, destination: { accountId: gbp.id }, amount: 100 },
    });
    expectError(r, 400, 'INVALID_INPUT');
    expect(JSON.stringify(r.body.details)).toContain('destination.accountId');
    expect(r.body.details.fields[0].message).toMatch(/no partner bank carries payouts in GBP to GBP_ACCOUNT.*test-bank: NACHA \(USD, EUR\)/);
  });
});

const OPERATOR_EUR = { iban: 'DE89370400440532013000', currency: 'EUR' };
let bankRef = 0;
const stamp = () =>
  clock
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

/** A booked entry on the operator's EUR account, as the bank announces it (camt.054). */
function announce(entries: Array<{ amount: bigint; direction: 'CREDIT' | 'DEBIT'; endToEndId?: string; reference?: string; returnReason?: string }>) {
  const id = `NTF${++bankRef}`;
  const day = stamp().slice(0, 10);
  const xml = buildCamt054({
    messageId: id,
    createdAt: stamp(),
    notificationId: id,
    account: OPERATOR_EUR,
    entries: entries.map((e, i) => ({
      amount: e.amount,
      direction: e.direction,
      bookingDate: day,
      valueDate: day,
      bankReference: `BANKREF-${bankRef}-${i}`,
      transactions: [
        {
          endToEndId: e.endToEndId,
          creditorReference: e.reference,
          remittanceInformation: e.reference,
          debtor: e.direction === 'CREDIT' ? { name: 'A Payer' } : undefined,
          returnReasonCode: e.returnReason,
        },
      ],
    })),
  });
  deliver(bank, `${id}.xml`, xml);
  return entries.map((_, i) => `BANKREF-${bankRef}-${i}`);
}

/** An end-of-day statement of the operator's EUR account (camt.053) with no entries of its own. */
const statement = (id: string, opening: bigint, closing: bigint) => {
  const day = stamp().slice(0, 10);
  deliver(
    bank,
    `${id}.xml`,
    buildCamt053({
      messageId: id,
      createdAt: stamp(),
      statementId: id,
      account: OPERATOR_EUR,
      openingBalance: { amount: opening, date: day },
      closingBalance: { amount: closing, date: day },
      entries: [],
    }),
  );
};

describe('EUR through SEPA pain.001, money in by reference, and the statement', () => {
  let customer: { id: string };
  let eur: { id: string; fundingReference?: string };
  let iban: { id: string };

  beforeAll(async () => {
    ({ customer, internal: eur, external: iban } = await approvedCustomer('EUR', 'IBAN'));
  });

  it("an internal account's funding instructions show the operator's collection account, and a credit with its reference is a deposit", async () => {
    const account = (await call(ctx, 'GET', `/internal-accounts/${eur.id}`, { auth: prod })).body;
    const [instruction] = account.fundingPaymentInstructions;
    expect(instruction.accountOrWalletInfo).toMatchObject({ accountType: 'IBAN', iban: OPERATOR_EUR.iban, swiftBic: 'COBADEFFXXX', bankName: 'Test Bank' });
    const reference = instruction.accountOrWalletInfo.reference as string;
    expect(reference).toMatch(/^CRD/);
    announce([{ amount: 100_000n, direction: 'CREDIT', reference }]);
    const { read } = await rails().worker.cycle(theBank(), { read: true });
    expect(read.map((r) => r.status)).toEqual(['APPLIED']);
    expect(await balance(ctx, eur.id, prod)).toBe(100_000);
    const deposits = (await call(ctx, 'GET', `/transactions?customerId=${customer.id}`, { auth: prod })).body.data;
    expect(deposits).toHaveLength(1);
    expect(deposits[0]).toMatchObject({ type: 'INCOMING', status: 'COMPLETED' });
  });

  it('a payout leaves in a pain.001 valid against the official schema; pain.002 accepts it and it completes; its debit on the statement clears it', async () => {
    const paid = await call(ctx, 'POST', '/transfer-out', {
      auth: prod,
      body: { source: { accountId: eur.id }, destination: { accountId: iban.id }, amount: 30_000 },
    });
    expect(paid.body.status).toBe('PROCESSING');
    const { built } = await nextWindow();
    const file = await fileRow(built[0]);
    const xml = Buffer.from(file.content).toString('utf8');
    expect(await validateXml(xml, 'pain.001.001.09')).toMatchObject({ valid: true });
    const pain = parsePain001(xml);
    const payout = await payoutRow(paid.body.id);
    expect(pain.paymentInformation.flatMap((p) => p.transactions.map((t) => t.endToEndId))).toEqual([payout.reference]);

    deliver(
      bank,
      `${file.name}.pain002.xml`,
      buildPain002({
        messageId: `STS${file.id.slice(-8)}`,
        createdAt: stamp(),
        originalMessageId: pain.messageId,
        groupStatus: 'ACCP',
        transactions: [{ originalPaymentInformationId: `${pain.messageId}-1`, originalEndToEndId: payout.reference, status: 'ACCP' }],
      }),
    );
    announce([{ amount: 30_000n, direction: 'DEBIT', endToEndId: payout.reference }]);
    await rails().worker.cycle(theBank(), { read: true });
    expect(await status(paid.body.id)).toBe('COMPLETED');
    const entries = await ctx.container.db.executor().selectFrom('bank_statement_entries').selectAll().where('matched_id', '=', paid.body.id).execute();
    expect(entries.map((e) => e.matched_kind)).toEqual(['PAYOUT']);
  });

  it('a credit that matches nobody waits in suspense as an exception', async () => {
    announce([{ amount: 1_234n, direction: 'CREDIT', reference: 'NOBODY-KNOWS-ME' }]);
    await rails().worker.cycle(theBank(), { read: true });
    const [exception] = await ctx.container.db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', 'UNMATCHED_CREDIT').execute();
    expect(exception).toMatchObject({ status: 'OPEN', currency: 'EUR', reference: 'NOBODY-KNOWS-ME' });
    expect(BigInt(exception.amount!)).toBe(1_234n);
  });

  it('a JIT quote is paid to the collection account and executes when its credit arrives; a wrong amount fails with FUNDING_AMOUNT_MISMATCH', async () => {
    const quote = async () =>
      (
        await call(ctx, 'POST', '/quotes', {
          auth: prod,
          body: {
            source: { sourceType: 'REALTIME_FUNDING', customerId: customer.id, currency: 'EUR' },
            destination: { destinationType: 'ACCOUNT', accountId: iban.id },
            lockedCurrencySide: 'SENDING',
            lockedCurrencyAmount: 5_000,
          },
        })
      ).body;
    const good = await quote();
    const [instruction] = good.paymentInstructions;
    expect(instruction.accountOrWalletInfo).toMatchObject({ accountType: 'IBAN', iban: OPERATOR_EUR.iban });
    const bad = await quote();
    announce([
      { amount: BigInt(good.totalSendingAmount), direction: 'CREDIT', reference: instruction.accountOrWalletInfo.reference },
      { amount: BigInt(bad.totalSendingAmount) - 1n, direction: 'CREDIT', reference: bad.paymentInstructions[0].accountOrWalletInfo.reference },
    ]);
    await rails().worker.cycle(theBank(), { read: true });
    expect(await status(good.transactionId)).toBe('PROCESSING');
    expect((await payoutRow(good.transactionId)).status).toBe('QUEUED');
    const failed = (await call(ctx, 'GET', `/transactions/${bad.transactionId}`, { auth: prod })).body;
    expect(failed).toMatchObject({ status: 'FAILED', failureReason: 'FUNDING_AMOUNT_MISMATCH' });
    const mismatch = await ctx.container.db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', 'AMOUNT_MISMATCH').execute();
    expect(mismatch.map((m) => m.subject_id)).toEqual([bad.transactionId]);
  });

  it('a statement whose closing balance agrees with the ledger raises nothing; one that disagrees raises a balance break', async () => {
    // Everything the bank booked so far was announced: the statement has no new entries.
    const booked = await ctx.container.db
      .executor()
      .selectFrom('bank_statement_entries')
      .select(['direction', 'amount'])
      .where('currency', '=', 'EUR')
      .execute();
    const net = booked.reduce((sum, e) => sum + (e.direction === 'CREDIT' ? BigInt(e.amount) : -BigInt(e.amount)), 0n);
    const before = 5_000_000n; // the operator's money there before Corridor's first movement
    statement('STMT-1', before + net, before + net);
    await rails().worker.cycle(theBank(), { read: true });
    const breaks = () => ctx.container.db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', 'BALANCE_BREAK').execute();
    expect(await breaks()).toEqual([]);
    statement('STMT-2', before + net, before + net + 10n);
    await rails().worker.cycle(theBank(), { read: true });
    const [found] = await breaks();
    expect(found).toMatchObject({ subject_id: 'STMT-2', currency: 'EUR' });
    expect(BigInt(found.amount!)).toBe(10n);
  });

  it('a payout the bank accepted but whose debit no statement shows by the next day is an exception, raised once', async () => {
    const { built } = await nextWindow();
    const file = await fileRow(built[0]);
    const [waiting] = await ctx.container.db.executor().selectFrom('bank_payouts').selectAll().where('file_id', '=', file.id).execute();
    const pain = parsePain001(Buffer.from(file.content).toString('utf8'));
    deliver(
      bank,
      `${file.name}.pain002.xml`,
      buildPain002({
        messageId: `STS${file.id.slice(-8)}`,
        createdAt: stamp(),
        originalMessageId: pain.messageId,
        groupStatus: 'ACCP',
        transactions: [{ originalPaymentInformationId: `${pain.messageId}-1`, originalEndToEndId: waiting.reference, status: 'ACCP' }],
      }),
    );
    await rails().worker.cycle(theBank(), { read: true });
    expect(await status(waiting.transaction_id)).toBe('COMPLETED');
    const unreported = () => ctx.container.db.executor().selectFrom('bank_exceptions').selectAll().where('kind', '=', 'UNREPORTED_PAYOUT').execute();
    const balanceNow = BigInt(
      (await ctx.container.db.executor().selectFrom('bank_balances').select('bank_amount').where('statement_id', '=', 'STMT-1').executeTakeFirstOrThrow())
        .bank_amount,
    );
    // The same day: not overdue yet.
    statement('STMT-3', balanceNow, balanceNow);
    await rails().worker.cycle(theBank(), { read: true });
    expect(await unreported()).toEqual([]);
    clock.advance(24 * 3_600_000);
    statement('STMT-4', balanceNow, balanceNow);
    statement('STMT-5', balanceNow, balanceNow);
    await rails().worker.cycle(theBank(), { read: true });
    expect((await unreported()).map((e) => e.subject_id)).toEqual([waiting.transaction_id]);
  });
});

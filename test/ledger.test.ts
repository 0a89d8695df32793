import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/common/errors.js';
import type { Scope } from '../src/common/scope.js';
import { MAX_BALANCE, verifyLedger } from '../src/ledger/index.js';
import { dialect, PG_URL, testContext, type TestContext } from './helpers/context.js';
import { randomSchemaName } from '../src/db/database.js';
import { newId } from '../src/common/ids.js';
import pg from 'pg';

const run = promisify(execFile);
import { customerWithAccounts, expectLedgerBalanced, fund } from './helpers/ledger.js';
import { ensureBuilt } from './helpers/server.js';

let ctx: TestContext;
let scope: Scope;
beforeAll(async () => {
  ctx = await testContext();
  scope = { platformId: ctx.platform.platformId, environment: 'SANDBOX' };
});

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(e)}`);
  return e;
}

/** A customer's USD and EUR accounts, the USD one funded with `amount`. */
async function funded(amount: number) {
  const { accounts } = await customerWithAccounts(ctx, ['USD', 'EUR']);
  if (amount) await fund(ctx, accounts.USD.id, amount);
  return { usd: accounts.USD.id as string, eur: accounts.EUR.id as string };
}

describe('posted transfers', () => {
  it('moves money between accounts of one currency, linked transfers all or none', async () => {
    const { usd } = await funded(1000);
    const fees = await ctx.container.ledger.systemAccount(scope, 'FEES', 'USD');
    const payouts = await ctx.container.ledger.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'USD');
    const j = await ctx.container.ledger.transfer(scope, {
      businessId: 'Transaction:test-1',
      transfers: [
        { debitAccountId: usd, creditAccountId: payouts, amount: 900n, code: 'PAYOUT' },
        { debitAccountId: usd, creditAccountId: fees, amount: 100n, code: 'FEE' },
      ],
    });
    expect(j.transfers.map((t) => [t.phase, t.amount])).toEqual([
      ['POSTED', 900n],
      ['POSTED', 100n],
    ]);
    expect((await ctx.container.ledger.balance(scope, usd))?.available).toBe(0n);
    expect((await ctx.container.ledger.balance(scope, fees))?.posted).toBe(100n);
    await expectLedgerBalanced(ctx);
  });

  it('refuses a debit beyond the available balance (INSUFFICIENT_FUNDS), changing nothing', async () => {
    const { usd } = await funded(500);
    const fees = await ctx.container.ledger.systemAccount(scope, 'FEES', 'USD');
    const err = await rejection(
      ctx.container.ledger.transfer(scope, {
        businessId: 'Transaction:test-2',
        transfers: [
          { debitAccountId: usd, creditAccountId: fees, amount: 300n, code: 'FEE' },
          { debitAccountId: usd, creditAccountId: fees, amount: 201n, code: 'FEE' },
        ],
      }),
    );
    expect(err.status).toBe(400);
    expect(err.code).toBe('INSUFFICIENT_FUNDS');
    expect(err.details).toMatchObject({ accountId: usd, available: 500, requested: 501 });
    expect((await ctx.container.ledger.balance(scope, usd))?.available).toBe(500n);
    await expectLedgerBalanced(ctx);
  });

  it('refuses currencies that differ, accounts of another scope and bad amounts as bugs', async () => {
    const { usd, eur } = await funded(100);
    const l = ctx.container.ledger;
    await expect(
      l.transfer(scope, { businessId: 'x', transfers: [{ debitAccountId: usd, creditAccountId: eur, amount: 1n, code: 'TRANSFER' }] }),
    ).rejects.toThrow(/FX_LIQUIDITY/);
    const other: Scope = { platformId: (await ctx.newPlatform()).platformId, environment: 'SANDBOX' };
    const theirs = await l.systemAccount(other, 'FEES', 'USD');
    await expect(
      l.transfer(scope, { businessId: 'x', transfers: [{ debitAccountId: usd, creditAccountId: theirs, amount: 1n, code: 'FEE' }] }),
    ).rejects.toThrow(/no ledger account/);
    for (const amount of [0n, -1n, MAX_BALANCE + 1n]) {
      await expect(l.transfer(scope, { businessId: 'x', transfers: [{ debitAccountId: usd, creditAccountId: theirs, amount, code: 'FEE' }] })).rejects.toThrow(
        /amount/,
      );
    }
    await expectLedgerBalanced(ctx);
  });

  it('refuses a balance beyond 2^53-1 so JSON numbers stay exact', async () => {
    const { usd } = await funded(0);
    const source = await ctx.container.ledger.systemAccount(scope, 'FUNDING', 'USD');
    await ctx.container.ledger.transfer(scope, {
      businessId: usd,
      transfers: [{ debitAccountId: source, creditAccountId: usd, amount: MAX_BALANCE - 10n, code: 'FUNDING' }],
    });
    const err = await rejection(
      fund(ctx, usd, 11).then((r) => {
        throw new ApiError(r.status, r.body.code, r.body.message, r.body.details);
      }),
    );
    expect(err.code).toBe('BALANCE_LIMIT_EXCEEDED');
    expect(err.status).toBe(400);
    expect((await fund(ctx, usd, 10)).body.balance.amount).toBe(Number.MAX_SAFE_INTEGER);
    // The system account on the other side is not capped: it passes −(2^53−1).
    const { usd: second } = await funded(0);
    await ctx.container.ledger.transfer(scope, {
      businessId: second,
      transfers: [{ debitAccountId: source, creditAccountId: second, amount: 11n, code: 'FUNDING' }],
    });
    expect((await ctx.container.ledger.balance(scope, source))?.posted).toBe(-(MAX_BALANCE + 1n));
    await expectLedgerBalanced(ctx);
  });

  it('system accounts whose lifetime totals pass 2^53 do not stop payments, and the ledger still verifies', async () => {
    // A platform of its own, whose system accounts already moved 2^62 (written straight into the
    // database, as years of payouts would have: one journal and its transfer, totals to match).
    const p = await ctx.newPlatform();
    const own: Scope = { platformId: p.platformId, environment: 'SANDBOX' };
    const l = ctx.container.ledger;
    const printer = await l.systemAccount(own, 'SANDBOX_FUNDING', 'USD');
    const payouts = await l.systemAccount(own, 'PAYOUTS_IN_FLIGHT', 'USD');
    const huge = 2n ** 62n;
    const journal = newId('Journal');
    const at = new Date().toISOString();
    await ctx.container.db.tx(async (trx) => {
      await sql`insert into ledger_journals (id, platform_id, environment, business_id, description, created_at)
        values (${journal}, ${own.platformId}, 'SANDBOX', ${journal}, 'years of payouts', ${at})`.execute(trx);
      await sql`insert into ledger_transfers (id, platform_id, environment, journal_id, phase, pending_id, code, business_id, debit_account_id, credit_account_id, currency, amount, created_at)
        values (${newId('LedgerTransfer')}, ${own.platformId}, 'SANDBOX', ${journal}, 'POSTED', null, 'PAYOUT', ${journal}, ${printer}, ${payouts}, 'USD', cast(${huge.toString()} as bigint), ${at})`.execute(
        trx,
      );
      await sql`update ledger_accounts set debits_posted = cast(${huge.toString()} as bigint) where id = ${printer}`.execute(trx);
      await sql`update ledger_accounts set credits_posted = cast(${huge.toString()} as bigint) where id = ${payouts}`.execute(trx);
    });
    await expectLedgerBalanced(ctx);

    // A deposit debits the printer below −2^62 and a payout credits PAYOUTS_IN_FLIGHT above 2^62.
    const { accounts } = await customerWithAccounts(ctx, ['USD'], { auth: p.auth });
    const usd = accounts.USD.id as string;
    expect((await fund(ctx, usd, 1000, p.auth)).status).toBe(200);
    await l.transfer(own, { businessId: 'Transaction:big-1', transfers: [{ debitAccountId: usd, creditAccountId: payouts, amount: 900n, code: 'PAYOUT' }] });
    expect((await l.balance(own, payouts))?.posted).toBe(huge + 900n);
    expect((await l.balance(own, printer))?.posted).toBe(-huge - 1000n);
    expect((await l.balance(own, usd))?.available).toBe(100n);
    await expectLedgerBalanced(ctx);
  });
});

describe('two phases', () => {
  it('a pending transfer reserves the funds; post moves them, void returns them', async () => {
    const { usd } = await funded(1000);
    const l = ctx.container.ledger;
    const payouts = await l.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'USD');
    const p1 = await l.createPending(scope, {
      businessId: 'Transaction:p1',
      transfers: [{ debitAccountId: usd, creditAccountId: payouts, amount: 600n, code: 'PAYOUT' }],
    });
    expect(await l.balance(scope, usd)).toMatchObject({ available: 400n, posted: 1000n, debitsPending: 600n });
    expect((await apiAccount(usd)).balance.amount).toBe(400);
    // The reservation counts: a second one beyond the rest is refused.
    expect(
      (
        await rejection(
          l.createPending(scope, {
            businessId: 'Transaction:p2',
            transfers: [{ debitAccountId: usd, creditAccountId: payouts, amount: 401n, code: 'PAYOUT' }],
          }),
        )
      ).code,
    ).toBe('INSUFFICIENT_FUNDS');
    const p2 = await l.createPending(scope, {
      businessId: 'Transaction:p2',
      transfers: [{ debitAccountId: usd, creditAccountId: payouts, amount: 400n, code: 'PAYOUT' }],
    });
    expect((await l.transfersOf(scope, 'Transaction:p1')).unresolvedPendingIds).toEqual([p1.transfers[0].id]);

    const posted = await l.post(scope, { pendingTransferIds: [p1.transfers[0].id] });
    expect(posted.transfers[0]).toMatchObject({ phase: 'POST_PENDING', pendingId: p1.transfers[0].id, amount: 600n, businessId: 'Transaction:p1' });
    const voided = await l.void(scope, { pendingTransferIds: [p2.transfers[0].id], businessId: 'Transaction:p2-refund' });
    expect(voided.transfers[0].phase).toBe('VOID_PENDING');
    expect(await l.balance(scope, usd)).toMatchObject({ available: 400n, posted: 400n, debitsPending: 0n });
    expect((await l.balance(scope, payouts))?.creditsPending).toBe(0n);
    expect((await l.transfersOf(scope, 'Transaction:p1')).unresolvedPendingIds).toEqual([]);
    expect((await l.transfersOf(scope, 'Transaction:p2')).unresolvedPendingIds).toEqual([]);
    await expectLedgerBalanced(ctx);
  });

  it('resolves a pending transfer once, even when post and void race', async () => {
    const { usd } = await funded(100);
    const l = ctx.container.ledger;
    const payouts = await l.systemAccount(scope, 'PAYOUTS_IN_FLIGHT', 'USD');
    const p = await l.createPending(scope, {
      businessId: 'Transaction:race',
      transfers: [{ debitAccountId: usd, creditAccountId: payouts, amount: 100n, code: 'PAYOUT' }],
    });
    const ids = [p.transfers[0].id];
    const results = await Promise.allSettled([
      l.post(scope, { pendingTransferIds: ids }),
      l.void(scope, { pendingTransferIds: ids }),
      l.post(scope, { pendingTransferIds: ids }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect((r.reason as ApiError).code).toBe('PENDING_TRANSFER_RESOLVED');
    expect((await rejection(l.void(scope, { pendingTransferIds: ids }))).status).toBe(409);
    await expect(l.post(scope, { pendingTransferIds: [newId('LedgerTransfer')] })).rejects.toThrow(/not a pending transfer/);
    await expectLedgerBalanced(ctx);
  });
});

/** The account as the API shows it. */
async function apiAccount(id: string) {
  const res = await ctx.app.inject({ method: 'GET', url: `/2025-10-13/internal-accounts/${id}`, headers: { authorization: ctx.platform.auth } });
  return JSON.parse(res.body);
}

describe('ledger verify', () => {
  it('finds tampered totals, negative balances and unbalanced scopes', async () => {
    const { usd } = await funded(250);
    expect(await verifyLedger(ctx.container.db)).toEqual([]);
    // Tampering goes through a write transaction (outside one, SQLite reads on a read-only connection).
    const tamper = (delta: number) =>
      ctx.container.db.tx((trx) => sql`update ledger_accounts set credits_posted = credits_posted + ${delta} where id = ${usd}`.execute(trx));
    await tamper(1);
    const problems = await verifyLedger(ctx.container.db);
    expect(problems.map((p) => p.kind).sort()).toEqual(['ACCOUNT_TOTALS', 'SCOPE_CURRENCY']);
    expect(problems.find((p) => p.kind === 'ACCOUNT_TOTALS')?.subject).toBe(usd);
    await tamper(-1000);
    expect((await verifyLedger(ctx.container.db)).map((p) => p.kind)).toContain('NEGATIVE_BALANCE');
    await tamper(999);
    expect(await verifyLedger(ctx.container.db)).toEqual([]);
  });

  it('`npx corridor ledger verify` prints a summary and exits 1 when the ledger does not balance', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corridor-ledger-'));
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    let exec: (statement: string) => Promise<void>;
    let cleanup = async () => undefined as void;
    if (dialect === 'postgres') {
      // The CLI works in a schema of its own, chosen through the connection string.
      const schema = randomSchemaName('cli');
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.query(`set search_path = ${schema}`);
      env.DATABASE_URL = `${PG_URL}?options=-c%20search_path%3D${schema}`;
      exec = async (statement) => void (await admin.query(statement));
      cleanup = async () => {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      };
    } else {
      const Sqlite = (await import('better-sqlite3')).default;
      exec = async (statement) => {
        const native = new Sqlite(path.join(dir, 'corridor.db'));
        // As a SQL shell would tamper: foreign keys unchecked (PostgreSQL declares none on deltas).
        native.pragma('foreign_keys = OFF');
        native.prepare(statement).run();
        native.close();
      };
    }
    try {
      ensureBuilt();
      const bin = path.resolve('bin/corridor.js');
      const ok = await run('node', [bin, 'ledger', 'verify'], { env });
      expect(ok.stdout).toMatch(/0 accounts, 0 journals, 0 transfers checked\nok:/);
      await exec("insert into platforms (id, name, created_at, updated_at) values ('Platform:p', 'p', 'x', 'x')");
      await exec(
        "insert into ledger_accounts (id, platform_id, environment, kind, system_code, currency, non_negative, credits_posted, created_at, updated_at) values ('InternalAccount:x', 'Platform:p', 'SANDBOX', 'INTERNAL', null, 'USD', 1, 5, 'x', 'x')",
      );
      // A delta of an account that does not exist counts towards nothing: reported, not skipped.
      await exec(
        "insert into ledger_deltas (id, account_id, debits_pending, debits_posted, credits_pending, credits_posted) values ('d1', 'LedgerAccount:gone', 0, 0, 0, 7)",
      );
      const failed = await run('node', [bin, 'ledger', 'verify', '--json'], { env }).then(
        () => undefined,
        (e: { code: number; stdout: string }) => e,
      );
      expect(failed?.code).toBe(1);
      const report = JSON.parse(failed!.stdout);
      expect(report).toMatchObject({ ok: false, accounts: 1 });
      expect(report.problems.map((p: { kind: string }) => p.kind)).toContain('ACCOUNT_TOTALS');
      expect(report.problems).toContainEqual({ kind: 'ACCOUNT_TOTALS', subject: 'LedgerAccount:gone', message: 'deltas of an account that does not exist' });
    } finally {
      await cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

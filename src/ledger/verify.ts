import { sql } from 'kysely';
import type { Database } from '../db/database.js';
import { toBigInt, toNumber } from '../db/values.js';
import { balanceOf, MAX_BALANCE, type LedgerAccountRow } from './accounts.js';
import { accountsWithDeltasSql } from './statements.js';

/** One thing that does not add up. */
export interface LedgerProblem {
  kind: 'ACCOUNT_TOTALS' | 'NEGATIVE_BALANCE' | 'BALANCE_LIMIT' | 'TRANSFER' | 'JOURNAL' | 'SCOPE_CURRENCY' | 'RESOLUTION';
  subject: string;
  message: string;
}

export interface LedgerSummary {
  accounts: number;
  journals: number;
  transfers: number;
}

type Totals = { dpend: bigint; dp: bigint; cpend: bigint; cp: bigint };

/**
 * Recomputes every account's running totals from the immutable transfers and proves the sums:
 * totals match, customer and platform balances are not below zero and do not pass 2^53−1 (system
 * accounts have no cap),
 * every transfer joins two accounts of its currency and scope, every journal sums to zero per
 * currency, every resolution matches a pending transfer, and every (scope, currency) sums to zero.
 * Aggregates run in the database, so memory grows with the number of accounts, not transfers.
 */
export async function verifyLedger(db: Database): Promise<LedgerProblem[]> {
  const ex = db.executor();
  const problems: LedgerProblem[] = [];
  const add = (kind: LedgerProblem['kind'], subject: string, message: string) => problems.push({ kind, subject, message });

  const recomputed = new Map<string, Totals>();
  const get = (id: string) => recomputed.get(id) ?? recomputed.set(id, { dpend: 0n, dp: 0n, cpend: 0n, cp: 0n }).get(id)!;
  // Per phase: POSTED moves posted totals; PENDING adds to pending; POST_PENDING moves pending to
  // posted; VOID_PENDING removes pending.
  for (const side of ['debit', 'credit'] as const) {
    const col = side === 'debit' ? 'debit_account_id' : 'credit_account_id';
    const rows = await sql<{ account_id: string; posted: unknown; pending: unknown }>`
      select ${sql.ref(col)} as account_id,
        sum(case when phase in ('POSTED', 'POST_PENDING') then amount else 0 end) as posted,
        sum(case when phase = 'PENDING' then amount when phase in ('POST_PENDING', 'VOID_PENDING') then -amount else 0 end) as pending
      from ledger_transfers group by ${sql.ref(col)}`.execute(ex);
    for (const r of rows.rows) {
      const t = get(r.account_id);
      if (side === 'debit') {
        t.dp = toBigInt(r.posted as bigint);
        t.dpend = toBigInt(r.pending as bigint);
      } else {
        t.cp = toBigInt(r.posted as bigint);
        t.cpend = toBigInt(r.pending as bigint);
      }
    }
  }

  // Each account's totals include its deltas not yet folded (src/ledger/fold.ts).
  const accounts = (await sql<LedgerAccountRow>`${sql.raw(accountsWithDeltasSql('all'))}`.execute(ex)).rows;
  const scopeSums = new Map<string, { posted: bigint; pending: bigint }>();
  for (const a of accounts) {
    const want = recomputed.get(a.id) ?? { dpend: 0n, dp: 0n, cpend: 0n, cp: 0n };
    const have = { dpend: toBigInt(a.debits_pending), dp: toBigInt(a.debits_posted), cpend: toBigInt(a.credits_pending), cp: toBigInt(a.credits_posted) };
    if (have.dpend !== want.dpend || have.dp !== want.dp || have.cpend !== want.cpend || have.cp !== want.cp) {
      add('ACCOUNT_TOTALS', a.id, `stored totals ${fmt(have)} differ from the transfers' ${fmt(want)}`);
    }
    const b = balanceOf(a);
    if (Number(a.non_negative) === 1 && (b.available < 0n || b.posted < 0n))
      add('NEGATIVE_BALANCE', a.id, `available ${b.available}, posted ${b.posted} (${a.currency})`);
    // Only customer and platform balances leave as JSON numbers; system accounts are bigint all the way.
    if (Number(a.non_negative) === 1 && (b.available > MAX_BALANCE || b.available < -MAX_BALANCE || b.posted + b.creditsPending > MAX_BALANCE))
      add('BALANCE_LIMIT', a.id, `balance beyond ±${MAX_BALANCE}`);
    if (have.dpend < 0n || have.cpend < 0n) add('ACCOUNT_TOTALS', a.id, 'a pending total is negative');
    const key = `${a.platform_id} ${a.environment} ${a.currency}`;
    const s = scopeSums.get(key) ?? { posted: 0n, pending: 0n };
    s.posted += have.cp - have.dp;
    s.pending += have.cpend - have.dpend;
    scopeSums.set(key, s);
  }
  // A delta counts towards its account's totals only through the account: one without its account would count nowhere.
  const strayDeltas = await sql<{ account_id: string }>`
    select distinct d.account_id from ledger_deltas d left join ledger_accounts a on a.id = d.account_id where a.id is null limit 1000`.execute(ex);
  for (const r of strayDeltas.rows) add('ACCOUNT_TOTALS', r.account_id, 'deltas of an account that does not exist');
  for (const [key, s] of scopeSums) {
    if (s.posted !== 0n || s.pending !== 0n) add('SCOPE_CURRENCY', key, `accounts sum to posted ${s.posted}, pending ${s.pending} instead of 0`);
  }

  // Transfers whose accounts disagree with them, or that do not move a positive amount.
  const badTransfers = await sql<{ id: string }>`
    select t.id from ledger_transfers t
      left join ledger_accounts d on d.id = t.debit_account_id
      left join ledger_accounts c on c.id = t.credit_account_id
    where d.id is null or c.id is null or t.amount <= 0 or t.debit_account_id = t.credit_account_id
      or d.currency <> t.currency or c.currency <> t.currency
      or d.platform_id <> t.platform_id or c.platform_id <> t.platform_id
      or d.environment <> t.environment or c.environment <> t.environment
    limit 1000`.execute(ex);
  for (const r of badTransfers.rows) add('TRANSFER', r.id, 'accounts missing, of another currency or scope, or amount not positive');

  // Each journal, per currency of its accounts: debits equal credits, and it has transfers.
  const journals = await sql<{ journal_id: string; currency: string; net: unknown }>`
    select t.journal_id, a.currency,
      sum(case when a.id = t.credit_account_id then t.amount else -t.amount end) as net
    from ledger_transfers t join ledger_accounts a on a.id = t.debit_account_id or a.id = t.credit_account_id
    group by t.journal_id, a.currency`.execute(ex);
  for (const r of journals.rows)
    if (toBigInt(r.net as bigint) !== 0n) add('JOURNAL', r.journal_id, `${r.currency} postings sum to ${toBigInt(r.net as bigint)}`);
  const empty = await sql<{
    id: string;
  }>`select j.id from ledger_journals j where not exists (select 1 from ledger_transfers t where t.journal_id = j.id) limit 1000`.execute(ex);
  for (const r of empty.rows) add('JOURNAL', r.id, 'journal has no transfers');

  // A resolution must repeat its pending transfer exactly.
  const resolutions = await sql<{ id: string }>`
    select r.id from ledger_transfers r left join ledger_transfers p on p.id = r.pending_id
    where (r.phase in ('POST_PENDING', 'VOID_PENDING') and (p.id is null or p.phase <> 'PENDING' or p.amount <> r.amount
        or p.debit_account_id <> r.debit_account_id or p.credit_account_id <> r.credit_account_id))
      or (r.phase in ('POSTED', 'PENDING') and r.pending_id is not null)
    limit 1000`.execute(ex);
  for (const r of resolutions.rows) add('RESOLUTION', r.id, 'does not match the pending transfer it resolves');

  return problems;
}

export async function ledgerSummary(db: Database): Promise<LedgerSummary> {
  const ex = db.executor();
  const count = async (table: 'ledger_accounts' | 'ledger_journals' | 'ledger_transfers') =>
    toNumber(
      (
        await ex
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n as bigint,
    );
  return { accounts: await count('ledger_accounts'), journals: await count('ledger_journals'), transfers: await count('ledger_transfers') };
}

function fmt(t: Totals): string {
  return `(debits ${t.dp} posted/${t.dpend} pending, credits ${t.cp} posted/${t.cpend} pending)`;
}

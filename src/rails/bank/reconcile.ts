/**
 * A statement's closing balance against the ledger. The bank side of the ledger is BANK_CASH, one
 * system account per platform and currency (recipes.ts bankLegs), moved by every entry the bank
 * reported; money that matched nobody is not any platform's yet and waits in suspense (an open
 * exception). So, for the operator's account at a bank in one currency:
 *
 *   bank's closing balance = baseline + Σ BANK_CASH (debits − credits, every platform) + suspense
 *
 * where the baseline is what the account held before Corridor's first movement: the opening
 * balance of the first statement read, less the entries of that statement Corridor had already
 * recorded from earlier notifications. A difference is a break: an exception with both figures.
 */
import { newId } from '../../common/ids.js';
import type { Executor } from '../../db/database.js';
import type { Ledger } from '../../ledger/index.js';
import { raiseException } from './exceptions.js';
import type { BankProfile } from './profile.js';
import type { BookedEntry } from './reports.js';

export interface StatementFacts {
  statementId: string;
  currency: string;
  opening?: { amount: bigint; date: string };
  closing: { amount: bigint; date: string };
  entries: BookedEntry[];
}

const signed = (e: { direction: string; amount: bigint }) => (e.direction === 'CREDIT' ? BigInt(e.amount) : -BigInt(e.amount));

/** Σ BANK_CASH of every platform in PRODUCTION, in one currency, with movements not yet folded. */
async function bankCash(trx: Executor, ledger: Ledger, currency: string): Promise<bigint> {
  const accounts = await trx
    .selectFrom('ledger_accounts')
    .select(['id', 'platform_id', 'environment'])
    .where('system_code', '=', 'BANK_CASH')
    .where('environment', '=', 'PRODUCTION')
    .where('currency', '=', currency)
    .execute();
  let total = 0n;
  for (const a of accounts) {
    const balance = await ledger.balance({ platformId: a.platform_id, environment: 'PRODUCTION' }, a.id);
    // posted = credits − debits; the bank's money is the other way round.
    if (balance) total -= balance.posted;
  }
  return total;
}

/**
 * Money at the bank that belongs to no platform: entries nobody's reference named, and credits an
 * operator decided to send back (RETURNED_TO_PAYER) — theirs until the payment back is booked and
 * paired with them, when the two cancel out.
 */
async function suspense(trx: Executor, bankId: string, currency: string): Promise<bigint> {
  const rows = await trx
    .selectFrom('bank_statement_entries')
    .select(['direction', 'amount'])
    .where('bank_id', '=', bankId)
    .where('currency', '=', currency)
    .where('matched_kind', 'in', ['SUSPENSE', 'RETURNED_TO_PAYER'])
    .execute();
  return rows.reduce((sum, r) => sum + signed({ direction: r.direction, amount: BigInt(r.amount) }), 0n);
}

/**
 * Payouts the bank took (acknowledged, or sent) whose money never left the operator's account on
 * its statements: a file whose effective date is before this statement's day should be booked by
 * now. Each becomes an exception once, with its age; the money is still in flight in the ledger.
 */
async function unreportedPayouts(trx: Executor, bank: BankProfile, s: StatementFacts, now: Date): Promise<void> {
  const overdue = await trx
    .selectFrom('bank_payouts as p')
    .innerJoin('bank_files as f', 'f.id', 'p.file_id')
    .select(['p.transaction_id', 'p.reference', 'p.amount', 'p.status', 'f.name', 'f.effective_date'])
    .where('p.bank_id', '=', bank.id)
    .where('p.currency', '=', s.currency)
    .where('p.direction', '=', 'CREDIT')
    .where('p.status', 'in', ['SENT', 'ACCEPTED'])
    .where('f.effective_date', '<', s.closing.date)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('bank_statement_entries as e').select('e.id').whereRef('e.matched_id', '=', 'p.transaction_id').where('e.matched_kind', '=', 'PAYOUT'),
        ),
      ),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb.selectFrom('bank_exceptions as x').select('x.id').whereRef('x.subject_id', '=', 'p.transaction_id').where('x.kind', '=', 'UNREPORTED_PAYOUT'),
        ),
      ),
    )
    .execute();
  for (const p of overdue)
    await raiseException(trx, {
      bankId: bank.id,
      kind: 'UNREPORTED_PAYOUT',
      currency: s.currency,
      amount: BigInt(p.amount),
      reference: p.reference,
      subjectId: p.transaction_id,
      details: { file: p.name, effectiveDate: p.effective_date, status: p.status, statementId: s.statementId, statementDate: s.closing.date },
      now: now.toISOString(),
    });
}

export async function reconcileStatement(trx: Executor, ledger: Ledger, bank: BankProfile, s: StatementFacts, now: Date): Promise<void> {
  // A statement sent again (another file, the same statement): compared once.
  const compared = await trx
    .selectFrom('bank_balances')
    .select('id')
    .where('bank_id', '=', bank.id)
    .where('statement_id', '=', s.statementId)
    .executeTakeFirst();
  if (compared) return;
  const baselineId = `BASELINE:${s.currency}`;
  let baseline = await trx
    .selectFrom('bank_balances')
    .select('bank_amount')
    .where('bank_id', '=', bank.id)
    .where('statement_id', '=', baselineId)
    .executeTakeFirst()
    .then((r) => (r ? BigInt(r.bank_amount) : undefined));
  if (baseline === undefined) {
    // The first statement: what the account held before, from its opening balance, less what of
    // it Corridor had recorded already (notifications that came before this statement).
    const opening = s.opening?.amount ?? s.closing.amount - s.entries.reduce((sum, e) => sum + signed(e), 0n);
    // Every entry recorded so far is either in this statement or was booked before it began (its
    // notification came first), and so is already in the opening balance.
    const recordedBefore = await trx
      .selectFrom('bank_statement_entries')
      .select(['direction', 'amount', 'bank_reference'])
      .where('bank_id', '=', bank.id)
      .where('currency', '=', s.currency)
      .execute();
    const inThisStatement = new Set(s.entries.map((e) => e.bankReference));
    const outside = recordedBefore.filter((r) => !inThisStatement.has(r.bank_reference));
    baseline = opening - outside.reduce((sum, r) => sum + signed({ direction: r.direction, amount: BigInt(r.amount) }), 0n);
    await trx
      .insertInto('bank_balances')
      .values({
        id: newId('BankBalance'),
        bank_id: bank.id,
        currency: s.currency,
        statement_id: baselineId,
        balance_date: s.opening?.date ?? s.closing.date,
        bank_amount: baseline,
        ledger_amount: 0n,
        created_at: now.toISOString(),
      })
      .execute();
  }
  const ledgerSide = baseline + (await bankCash(trx, ledger, s.currency)) + (await suspense(trx, bank.id, s.currency));
  await trx
    .insertInto('bank_balances')
    .values({
      id: newId('BankBalance'),
      bank_id: bank.id,
      currency: s.currency,
      statement_id: s.statementId,
      balance_date: s.closing.date,
      bank_amount: s.closing.amount,
      ledger_amount: ledgerSide,
      created_at: now.toISOString(),
    })
    .execute();
  await unreportedPayouts(trx, bank, s, now);
  if (ledgerSide !== s.closing.amount)
    await raiseException(trx, {
      bankId: bank.id,
      kind: 'BALANCE_BREAK',
      currency: s.currency,
      amount: s.closing.amount - ledgerSide,
      subjectId: s.statementId,
      details: { statementId: s.statementId, date: s.closing.date, bankClosingBalance: s.closing.amount, ledgerBalance: ledgerSide, baseline },
      now: now.toISOString(),
    });
}

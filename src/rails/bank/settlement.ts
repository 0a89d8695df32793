/**
 * What a bank's report does, applied in the transaction that records the report (inbound.ts):
 * - an acknowledgement or pain.002 accepts a payout (PROCESSING → COMPLETED, its reservation
 *   posted) or rejects it (→ FAILED, the payer refunded);
 * - a return (NACHA R-code, or a camt credit with return information) turns a COMPLETED payout
 *   FAILED with the payer refunded, as the sandbox's returned pattern shows;
 * - a notification of change corrects the external account and is logged;
 * - every booked entry on the operator's account is matched by the reference it carries: a
 *   payout leaving, a returned payout, a deposit to an internal account, a JIT payment; and moves
 *   the bank side of the ledger (recipes.ts bankLegs). What matches nothing waits in suspense as
 *   an exception; a statement's closing balance is compared with the ledger (reconcile.ts).
 * Statuses change only through the lifecycle, money only through the ledger's recipes.
 */
import { newId } from '../../common/ids.js';
import type { Scope } from '../../common/scope.js';
import type { Executor } from '../../db/database.js';
import type { BankPayoutsTable, BankStatementEntriesTable } from '../../db/tables/bank-rails.js';
import { bankLegs, type Ledger } from '../../ledger/index.js';
import type { FailureDetail, Lifecycle } from '../../modules/transactions/lifecycle.js';
import { transactionRepository, type TransactionRow } from '../../modules/transactions/repository.js';
import type { FailureReason } from '../types.js';
import { exceptionRow, raiseException } from './exceptions.js';
import { returnCodeInfo } from './nacha/index.js';
import { isoMessageIdOf } from './payout-file.js';
import type { BankProfile } from './profile.js';
import type { BankReport, BookedEntry } from './reports.js';
import { reconcileStatement } from './reconcile.js';

export interface SettlementDeps {
  now: () => Date;
  ledger: Ledger;
  lifecycle: Lifecycle;
  /** A deposit to an internal account found by its funding reference (an INCOMING transaction and its webhook). */
  deposit(
    trx: Executor,
    account: { id: string; platform_id: string; environment: string; customer_id: string | null; currency: string },
    amount: bigint,
    cause: string,
  ): Promise<void>;
  /** A JIT payment arriving for its quote's transaction: executes it, or fails it with FUNDING_AMOUNT_MISMATCH. */
  fundJit(trx: Executor, tx: TransactionRow, amount: bigint, cause: string): Promise<'EXECUTED' | 'MISMATCH'>;
  /** Applies a notification of change to the external account (and logs it). */
  correctAccount(trx: Executor, payout: BankPayoutsTable, change: { code: string; accountNumber?: string; routingNumber?: string }): Promise<void>;
}

const scopeOf = (row: { platform_id: string; environment: string }): Scope => ({
  platformId: row.platform_id,
  environment: row.environment as Scope['environment'],
});

/** Why a payout failed, in the spec's failureReason set: a bank refused or returned it. */
const reasonOf = (payout: BankPayoutsTable): FailureReason => (payout.direction === 'CREDIT' ? 'OFFRAMP_FAILED' : 'QUOTE_EXECUTION_FAILED');

/** The bank's own code, kept on the transaction (failureDetail) and so in its webhook. */
function detailOf(payout: BankPayoutsTable, code: string): FailureDetail {
  if (payout.format === 'NACHA') return { code, description: returnCodeInfo(code)?.description, source: 'NACHA' };
  return { code, description: ISO_STATUS_REASONS[code], source: 'ISO20022' };
}

/** The ISO 20022 external status reason codes a bank most often gives for a payout it refuses or returns. */
const ISO_STATUS_REASONS: Record<string, string> = {
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AC06: 'Blocked account',
  AG01: 'Transaction forbidden on this type of account',
  AM04: 'Insufficient funds',
  AM05: 'Duplication',
  BE01: 'Inconsistent with end customer',
  MD07: 'End customer deceased',
  MS02: 'Not specified reason customer generated',
  MS03: 'Not specified reason agent generated',
  RC01: 'Bank identifier incorrect',
  RR04: 'Regulatory reason',
};

/** References looked up per statement in one `in (…)` of at most this many. */
const LOOKUP_CHUNK = 500;
/** Rows per insert of a statement's entries and exceptions (15 columns: well under SQLite's 32,766 parameters). */
const WRITE_CHUNK = 500;

/** A statement's entries' counterparts, read once per statement (knownFor), and the rows its entries leave to write. */
interface Known {
  /** bank references already recorded for this bank, and those recorded since */
  seen: Set<string>;
  payouts: Map<string, BankPayoutsTable>;
  accounts: Map<string, Array<{ id: string; platform_id: string; environment: string; customer_id: string | null; currency: string }>>;
  /** ids of PRODUCTION REALTIME (JIT) transactions by reference */
  jit: Map<string, string[]>;
  /** rows not written yet (writeRows), many to an insert: nothing reads them before the statement's reconciliation */
  entries: BankStatementEntriesTable[];
  exceptions: ReturnType<typeof exceptionRow>[];
}

export function createSettlement(deps: SettlementDeps) {
  const { ledger, lifecycle } = deps;

  async function payoutBy(trx: Executor, where: { reference?: string; fileId?: string }): Promise<BankPayoutsTable[]> {
    let q = trx.selectFrom('bank_payouts').selectAll();
    if (where.reference !== undefined) q = q.where('reference', '=', where.reference);
    if (where.fileId !== undefined) q = q.where('file_id', '=', where.fileId).orderBy('transaction_id');
    return q.execute();
  }

  async function transactionOf(trx: Executor, payout: BankPayoutsTable): Promise<TransactionRow | undefined> {
    return transactionRepository.find(trx, scopeOf(payout), payout.transaction_id);
  }

  async function mark(trx: Executor, payout: BankPayoutsTable, status: BankPayoutsTable['status'], reasonCode: string | null) {
    await trx
      .updateTable('bank_payouts')
      .set({ status, reason_code: reasonCode, updated_at: deps.now().toISOString() })
      .where('transaction_id', '=', payout.transaction_id)
      .execute();
  }

  /** The bank took the payout: it completes (its reservation posted). */
  async function accept(trx: Executor, payout: BankPayoutsTable, cause: string) {
    if (payout.status !== 'SENT' && payout.status !== 'IN_FILE') return;
    await mark(trx, payout, 'ACCEPTED', null);
    const tx = await transactionOf(trx, payout);
    if (tx?.status === 'PROCESSING') await lifecycle.complete(tx, cause);
  }

  /** The bank refused the payout: it fails and the payer is refunded (the reservation voided). */
  async function reject(trx: Executor, payout: BankPayoutsTable, code: string, cause: string) {
    if (payout.status !== 'SENT' && payout.status !== 'IN_FILE') return;
    await mark(trx, payout, 'REJECTED', code);
    const tx = await transactionOf(trx, payout);
    if (tx?.status === 'PROCESSING') await lifecycle.fail(tx, reasonOf(payout), 'COMPLETED', cause, detailOf(payout, code));
  }

  /** The receiving bank sent a completed payout back: COMPLETED → FAILED, the payer refunded. */
  async function returned(trx: Executor, bank: BankProfile, payout: BankPayoutsTable, code: string, cause: string) {
    if (payout.status === 'RETURNED') return;
    if (payout.status !== 'ACCEPTED') {
      // A return of what we have not seen accepted: settle the order of events first, then return.
      await accept(trx, payout, 'accepted by the bank (its return arrived first)');
      payout = { ...payout, status: 'ACCEPTED' };
    }
    await mark(trx, payout, 'RETURNED', code);
    const tx = await transactionOf(trx, payout);
    if (tx?.status !== 'COMPLETED') return;
    if (payout.direction === 'DEBIT') {
      // A pull returned after its money was credited: taking it back from the customer's balance
      // is a decision for the operator (the balance may have been spent).
      await raiseException(trx, {
        bankId: bank.id,
        kind: 'UNMATCHED_DEBIT',
        currency: payout.currency,
        amount: BigInt(payout.amount),
        reference: payout.reference,
        subjectId: payout.transaction_id,
        details: { why: 'a pull was returned after its money was credited', returnCode: code },
        now: deps.now().toISOString(),
      });
      return;
    }
    await lifecycle.returnPayment(tx, reasonOf(payout), cause, detailOf(payout, code));
  }

  async function applyNachaAck(trx: Executor, bank: BankProfile, report: Extract<BankReport, { kind: 'NACHA_ACK' }>, inboundId: string) {
    const { ack } = report;
    const file = await trx.selectFrom('bank_files').selectAll().where('bank_id', '=', bank.id).where('name', '=', ack.fileName).executeTakeFirst();
    const now = deps.now().toISOString();
    if (!file || file.sha256 !== ack.fileSha256) {
      await raiseException(trx, {
        bankId: bank.id,
        kind: 'FILE_REFUSED',
        subjectId: inboundId,
        details: {
          why: file ? 'the acknowledgement names our file with other bytes' : 'the acknowledgement names a file we never sent',
          fileName: ack.fileName,
        },
        now,
      });
      return;
    }
    const rejected = new Map(ack.entryRejections.map((r) => [r.traceNumber, r]));
    await trx
      .updateTable('bank_files')
      .set({
        status: ack.status === 'ACCEPTED' ? 'ACCEPTED' : 'REJECTED',
        acknowledged_at: now,
        reason: ack.reason ? `${ack.reason.code} ${ack.reason.text}` : null,
      })
      .where('id', '=', file.id)
      .execute();
    for (const payout of await payoutBy(trx, { fileId: file.id })) {
      const entryRejection = payout.trace_number ? rejected.get(payout.trace_number) : undefined;
      if (ack.status === 'REJECTED') await reject(trx, payout, ack.reason!.code, `bank rejected file ${file.name}: ${ack.reason!.code} ${ack.reason!.text}`);
      else if (entryRejection)
        await reject(trx, payout, entryRejection.code, `bank rejected the entry in ${file.name}: ${entryRejection.code} ${entryRejection.text}`);
      else await accept(trx, payout, `bank accepted file ${file.name}`);
    }
  }

  async function applyNachaReturns(trx: Executor, bank: BankProfile, report: Extract<BankReport, { kind: 'NACHA_RETURNS' }>) {
    const now = deps.now().toISOString();
    for (const r of report.returns) {
      const [payout] = await payoutBy(trx, { reference: r.reference });
      if (!payout || payout.bank_id !== bank.id) {
        await raiseException(trx, {
          bankId: bank.id,
          kind: 'UNKNOWN_PAYOUT',
          amount: r.amount,
          reference: r.reference,
          details: { why: 'a return of an entry we did not send', returnCode: r.code, traceNumber: r.traceNumber },
          now,
        });
        continue;
      }
      const info = returnCodeInfo(r.code);
      await returned(trx, bank, payout, r.code, `returned by the receiving bank: ${r.code} ${info?.description ?? ''}`.trim());
    }
    for (const c of report.changes) {
      const [payout] = await payoutBy(trx, { reference: c.reference });
      if (!payout) {
        await raiseException(trx, {
          bankId: bank.id,
          kind: 'UNKNOWN_PAYOUT',
          reference: c.reference,
          details: { why: 'a notification of change for an entry we did not send', changeCode: c.code },
          now,
        });
        continue;
      }
      await deps.correctAccount(trx, payout, { code: c.code, ...c.corrected });
    }
  }

  async function applyPain002(trx: Executor, bank: BankProfile, report: Extract<BankReport, { kind: 'pain.002.001.10' }>, inboundId: string) {
    const files = await trx.selectFrom('bank_files').selectAll().where('bank_id', '=', bank.id).where('format', 'in', ['PAIN001', 'PAIN001_SEPA']).execute();
    const file = files.find((f) => isoMessageIdOf(f.name) === report.originalMessageId);
    const now = deps.now().toISOString();
    if (!file) {
      await raiseException(trx, {
        bankId: bank.id,
        kind: 'FILE_REFUSED',
        subjectId: inboundId,
        details: { why: 'a status report for a message we never sent', originalMessageId: report.originalMessageId },
        now,
      });
      return;
    }
    const byReference = new Map(report.transactions.map((t) => [t.reference, t]));
    const groupRejected = report.groupStatus === 'RJCT';
    await trx
      .updateTable('bank_files')
      .set({ status: groupRejected ? 'REJECTED' : 'ACCEPTED', acknowledged_at: now })
      .where('id', '=', file.id)
      .execute();
    for (const payout of await payoutBy(trx, { fileId: file.id })) {
      const t = byReference.get(payout.reference);
      const status = t?.status ?? report.groupStatus;
      if (status === 'RJCT') {
        const code = t?.reasonCode ?? 'RJCT';
        await reject(trx, payout, code, `bank rejected the payment in ${file.name}: ${code}`);
      } else if (['ACCP', 'ACSC', 'ACSP', 'ACTC', 'ACWC'].includes(status)) await accept(trx, payout, `bank accepted ${file.name} (${status})`);
      // PDNG, PART without this payment's own status: nothing decided yet.
    }
  }

  /**
   * What a statement's entries are matched against, read for all of them in a few statements (in
   * chunks) rather than a few per entry: the bank references already recorded, payouts by
   * reference, PRODUCTION internal accounts by funding reference, and JIT payments by reference
   * (their ids only: a matched one is read again, as its status may change within the file).
   * Payouts' and accounts' fields used here never change.
   */
  async function knownFor(trx: Executor, bank: BankProfile, entries: readonly BookedEntry[]): Promise<Known> {
    const known: Known = { seen: new Set(), payouts: new Map(), accounts: new Map(), jit: new Map(), entries: [], exceptions: [] };
    const chunks = <T>(xs: T[]) => Array.from({ length: Math.ceil(xs.length / LOOKUP_CHUNK) }, (_, i) => xs.slice(i * LOOKUP_CHUNK, (i + 1) * LOOKUP_CHUNK));
    const push = <V>(map: Map<string, V[]>, key: string | null, value: V) => key !== null && map.set(key, [...(map.get(key) ?? []), value]);
    for (const refs of chunks([...new Set(entries.map((e) => e.bankReference))])) {
      const rows = await trx
        .selectFrom('bank_statement_entries')
        .select('bank_reference')
        .where('bank_id', '=', bank.id)
        .where('bank_reference', 'in', refs)
        .execute();
      for (const r of rows) known.seen.add(r.bank_reference);
    }
    for (const refs of chunks([...new Set(entries.flatMap((e) => e.references))])) {
      for (const p of await trx.selectFrom('bank_payouts').selectAll().where('reference', 'in', refs).execute())
        if (!known.payouts.has(p.reference)) known.payouts.set(p.reference, p);
      const accounts = await trx
        .selectFrom('internal_accounts')
        .select(['id', 'platform_id', 'environment', 'customer_id', 'currency', 'funding_reference'])
        .where('environment', '=', 'PRODUCTION')
        .where('funding_reference', 'in', refs)
        .execute();
      for (const a of accounts) push(known.accounts, a.funding_reference, a);
      const jit = await trx
        .selectFrom('transactions')
        .select(['id', 'reference'])
        .where('environment', '=', 'PRODUCTION')
        .where('funding', '=', 'REALTIME')
        .where('reference', 'in', refs)
        .execute();
      for (const t of jit) push(known.jit, t.reference, t.id);
    }
    return known;
  }

  /** The statement's entries and exceptions, many rows to an insert. */
  async function writeRows(trx: Executor, known: Known): Promise<void> {
    for (let i = 0; i < known.exceptions.length; i += WRITE_CHUNK)
      await trx
        .insertInto('bank_exceptions')
        .values(known.exceptions.slice(i, i + WRITE_CHUNK))
        .execute();
    for (let i = 0; i < known.entries.length; i += WRITE_CHUNK)
      await trx
        .insertInto('bank_statement_entries')
        .values(known.entries.slice(i, i + WRITE_CHUNK))
        .execute();
    known.exceptions = [];
    known.entries = [];
  }

  /** One booked entry: recorded once (by the bank's reference), matched, and its bank-side legs posted. */
  async function applyEntry(trx: Executor, bank: BankProfile, entry: BookedEntry, inboundId: string, known: Known): Promise<void> {
    if (known.seen.has(entry.bankReference)) return;
    known.seen.add(entry.bankReference);
    const now = deps.now().toISOString();
    const match = await matchEntry(trx, bank, entry, now, known);
    known.entries.push({
      id: newId('BankEntry'),
      bank_id: bank.id,
      bank_reference: entry.bankReference,
      inbound_file_id: inboundId,
      currency: entry.currency,
      direction: entry.direction,
      amount: entry.amount,
      booking_date: entry.bookingDate,
      reference: match.reference ?? entry.references[0] ?? null,
      matched_kind: match.kind,
      matched_id: match.id ?? null,
      platform_id: match.scope?.platformId ?? null,
      environment: match.scope?.environment ?? null,
      created_at: now,
    });
    // Written as they come, a chunk at a time: a 100,000-entry statement holds no more than that in memory.
    if (known.entries.length >= WRITE_CHUNK) await writeRows(trx, known);
  }

  type Match = { kind: string; id?: string; scope?: Scope; reference?: string };

  async function matchEntry(trx: Executor, bank: BankProfile, entry: BookedEntry, now: string, known: Known): Promise<Match> {
    const post = (scope: Scope, businessId: string, direction: 'IN' | 'OUT', counterpart: 'FUNDING' | 'PAYOUTS_IN_FLIGHT') =>
      bankLegs(ledger, scope, { currency: entry.currency, amount: entry.amount, direction, counterpart }).then((transfers) =>
        ledger.transfer(scope, { businessId, description: `bank ${bank.id}: ${entry.bankReference}`, transfers }),
      );
    for (const reference of entry.references) {
      const payout = known.payouts.get(reference);
      if (payout && payout.bank_id === bank.id && BigInt(payout.amount) === entry.amount) {
        const scope = scopeOf(payout);
        if (entry.direction === 'DEBIT' && payout.direction === 'CREDIT') {
          // The payout left the operator's account.
          await post(scope, payout.transaction_id, 'OUT', 'PAYOUTS_IN_FLIGHT');
          return { kind: 'PAYOUT', id: payout.transaction_id, scope, reference };
        }
        if (entry.direction === 'CREDIT' && payout.direction === 'CREDIT') {
          // A payout came back: its money is at the bank again; the payment itself is returned.
          await post(scope, payout.transaction_id, 'IN', 'PAYOUTS_IN_FLIGHT');
          if (entry.returnReason) await returned(trx, bank, payout, entry.returnReason, `returned by the receiving bank: ${entry.returnReason}`);
          return { kind: 'PAYOUT_RETURN', id: payout.transaction_id, scope, reference };
        }
        if (entry.direction === 'CREDIT' && payout.direction === 'DEBIT') {
          // A pull's money arrived.
          await post(scope, payout.transaction_id, 'IN', 'FUNDING');
          return { kind: 'PULL', id: payout.transaction_id, scope, reference };
        }
      }
      if (entry.direction !== 'CREDIT') continue;
      const account = known.accounts.get(reference) ?? [];
      if (account.length === 1 && account[0].currency === entry.currency) {
        const scope = scopeOf(account[0]);
        await post(scope, account[0].id, 'IN', 'FUNDING');
        await deps.deposit(trx, account[0], entry.amount, `deposit received at ${bank.name} (${entry.bankReference})`);
        return { kind: 'DEPOSIT', id: account[0].id, scope, reference };
      }
      const jitIds = known.jit.get(reference) ?? [];
      const jit =
        jitIds.length === 1 ? [(await trx.selectFrom('transactions').selectAll().where('id', '=', jitIds[0]).executeTakeFirstOrThrow()) as TransactionRow] : [];
      if (jit.length === 1 && jit[0].sending_currency === entry.currency) {
        const tx = jit[0];
        const scope = scopeOf(tx);
        await post(scope, tx.id, 'IN', 'FUNDING');
        const outcome = await deps.fundJit(trx, tx, entry.amount, `payment received at ${bank.name} with the quote's reference (${entry.bankReference})`);
        if (outcome === 'MISMATCH')
          // The money is at the bank and belongs to the payer: an operator sends it back.
          await raiseException(trx, {
            bankId: bank.id,
            kind: 'AMOUNT_MISMATCH',
            currency: entry.currency,
            amount: entry.amount,
            reference,
            subjectId: tx.id,
            details: { expected: BigInt(tx.sent_amount), received: entry.amount, bankReference: entry.bankReference },
            now,
          });
        return { kind: 'JIT', id: tx.id, scope, reference };
      }
    }
    // Nobody's: suspense, for an operator to apply or send back.
    const exception = exceptionRow({
      bankId: bank.id,
      kind: entry.direction === 'CREDIT' ? 'UNMATCHED_CREDIT' : 'UNMATCHED_DEBIT',
      currency: entry.currency,
      amount: entry.amount,
      reference: entry.references[0] ?? null,
      details: { bankReference: entry.bankReference, bookingDate: entry.bookingDate, references: entry.references, counterparty: entry.counterpartyName },
      now,
    });
    known.exceptions.push(exception);
    return { kind: 'SUSPENSE', id: exception.id };
  }

  return {
    async apply(trx: Executor, bank: BankProfile, report: BankReport, inboundId: string): Promise<void> {
      switch (report.kind) {
        case 'NACHA_ACK':
          return applyNachaAck(trx, bank, report, inboundId);
        case 'NACHA_RETURNS':
          return applyNachaReturns(trx, bank, report);
        case 'pain.002.001.10':
          return applyPain002(trx, bank, report, inboundId);
        case 'camt.054':
        case 'camt.053':
          for (const statement of report.statements) {
            const known = await knownFor(trx, bank, statement.entries);
            for (const entry of statement.entries) await applyEntry(trx, bank, entry, inboundId, known);
            await writeRows(trx, known);
            if (report.kind === 'camt.053' && statement.closing)
              await reconcileStatement(trx, ledger, bank, { ...statement, closing: statement.closing }, deps.now());
          }
          return;
      }
    },
  };
}

export type Settlement = ReturnType<typeof createSettlement>;

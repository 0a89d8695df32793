/**
 * Breaks between the bank and the ledger that a person must decide: a credit nobody's reference
 * names, a statement whose balance is not the ledger's, a file refused, a payout the bank never
 * reported. Each is kept with its facts and its age until an operator resolves it (bank/cli.ts),
 * and resolving one is audited like every operator command.
 */
import { newId } from '../../common/ids.js';
import type { Executor } from '../../db/database.js';

export type ExceptionKind =
  'UNMATCHED_CREDIT' | 'UNMATCHED_DEBIT' | 'AMOUNT_MISMATCH' | 'BALANCE_BREAK' | 'FILE_REFUSED' | 'UNKNOWN_PAYOUT' | 'UNREPORTED_PAYOUT';

export interface NewException {
  bankId: string;
  kind: ExceptionKind;
  currency?: string;
  amount?: bigint;
  reference?: string | null;
  subjectId?: string;
  details: Record<string, unknown>;
  now: string;
}

/** An exception's row, for an insert of many at once (a statement's unmatched entries). */
export function exceptionRow(e: NewException) {
  return {
    id: newId('BankException'),
    bank_id: e.bankId,
    kind: e.kind,
    status: 'OPEN',
    currency: e.currency ?? null,
    amount: e.amount ?? null,
    reference: e.reference ?? null,
    subject_id: e.subjectId ?? null,
    details: JSON.stringify(e.details, (_, v) => (typeof v === 'bigint' ? v.toString() : v)),
    created_at: e.now,
    resolved_at: null,
    resolution: null,
  };
}

export async function raiseException(trx: Executor, e: NewException): Promise<string> {
  const row = exceptionRow(e);
  await trx.insertInto('bank_exceptions').values(row).execute();
  return row.id;
}

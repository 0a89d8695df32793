import type { LedgerTransfersTable } from '../db/schema.js';

/** The ledger's vocabulary: what callers pass in and get back, and what each phase does. */
export const TRANSFER_CODES = ['FUNDING', 'DEPOSIT', 'PAYOUT', 'FX', 'FEE', 'REFUND', 'TRANSFER', 'REVERSAL', 'ADJUSTMENT', 'BANK'] as const;
export type TransferCode = (typeof TRANSFER_CODES)[number];

export interface TransferInput {
  debitAccountId: string;
  creditAccountId: string;
  amount: bigint;
  code: TransferCode;
  /** The currency of both accounts, when the caller knows it: the ledger then checks it in the update instead of reading the accounts first. */
  currency?: string;
}

export interface JournalInput {
  /** The business object these transfers belong to (Transaction:…, Quote:…, InternalAccount:…). */
  businessId: string;
  description?: string;
  transfers: TransferInput[];
}

export interface ResolveInput {
  pendingTransferIds: string[];
  /** Defaults to the business object of the pending transfers. */
  businessId?: string;
  description?: string;
}

export interface Transfer {
  id: string;
  journalId: string;
  phase: 'POSTED' | 'PENDING' | 'POST_PENDING' | 'VOID_PENDING';
  pendingId: string | null;
  code: string;
  businessId: string;
  debitAccountId: string;
  creditAccountId: string;
  currency: string;
  amount: bigint;
  createdAt: string;
}

export interface Journal {
  id: string;
  businessId: string;
  transfers: Transfer[];
}

export const MAX_TRANSFERS = 100;

export function toTransfer(r: LedgerTransfersTable): Transfer {
  return {
    id: r.id,
    journalId: r.journal_id,
    phase: r.phase as Transfer['phase'],
    pendingId: r.pending_id,
    code: r.code,
    businessId: r.business_id,
    debitAccountId: r.debit_account_id,
    creditAccountId: r.credit_account_id,
    currency: r.currency,
    amount: BigInt(r.amount),
    createdAt: r.created_at,
  };
}

/** Changes to one account's four running totals. */
export interface Delta {
  debitsPending: bigint;
  debitsPosted: bigint;
  creditsPending: bigint;
  creditsPosted: bigint;
}

export const zero = (): Delta => ({ debitsPending: 0n, debitsPosted: 0n, creditsPending: 0n, creditsPosted: 0n });

/** What a transfer of this phase does to its two accounts. */
export function addEffect(deltas: Map<string, Delta>, t: Pick<Transfer, 'phase' | 'debitAccountId' | 'creditAccountId' | 'amount'>) {
  const d = deltas.get(t.debitAccountId) ?? zero();
  const c = deltas.get(t.creditAccountId) ?? zero();
  const a = t.amount;
  if (t.phase === 'POSTED') {
    d.debitsPosted += a;
    c.creditsPosted += a;
  } else if (t.phase === 'PENDING') {
    d.debitsPending += a;
    c.creditsPending += a;
  } else if (t.phase === 'POST_PENDING') {
    d.debitsPending -= a;
    d.debitsPosted += a;
    c.creditsPending -= a;
    c.creditsPosted += a;
  } else {
    d.debitsPending -= a;
    c.creditsPending -= a;
  }
  deltas.set(t.debitAccountId, d);
  deltas.set(t.creditAccountId, c);
}

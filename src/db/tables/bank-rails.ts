/** Row types: PRODUCTION bank rails (migration 961; conventions in db/schema.ts). */

/** QUEUED → IN_FILE → SENT → ACCEPTED (→ RETURNED) | REJECTED; CANCELLED when an operator cancels its file before upload. */
export type BankPayoutStatus = 'QUEUED' | 'IN_FILE' | 'SENT' | 'ACCEPTED' | 'REJECTED' | 'RETURNED' | 'CANCELLED';

export interface BankPayoutsTable {
  transaction_id: string;
  platform_id: string;
  environment: string;
  bank_id: string;
  /** PayoutFormat (src/rails/bank/profile.ts) */
  format: string;
  /** CREDIT: a payout; DEBIT: a pull (transfer-in from a US account) */
  direction: string;
  currency: string;
  amount: bigint;
  /** 15 characters the bank carries back: NACHA individual id, ISO EndToEndId */
  reference: string;
  /** JSON: who and where (name, account details, type), as the file states them */
  counterparty: string;
  status: BankPayoutStatus;
  file_id: string | null;
  trace_number: string | null;
  /** the bank's return or reject code (R03, AC04…) */
  reason_code: string | null;
  queued_at: string;
  updated_at: string;
}

/** BUILT → UPLOADED → ACCEPTED | REJECTED; CANCELLED before upload. */
export type BankFileStatus = 'BUILT' | 'UPLOADED' | 'ACCEPTED' | 'REJECTED' | 'CANCELLED';

export interface BankFilesTable {
  /** BankFile:<uuid v7> */
  id: string;
  bank_id: string;
  format: string;
  name: string;
  sha256: string;
  content: Buffer;
  /** the cut-off this file was built for */
  window_at: string;
  effective_date: string;
  currency: string;
  entry_count: number | bigint;
  total_amount: bigint;
  status: BankFileStatus;
  reason: string | null;
  built_at: string;
  uploaded_at: string | null;
  acknowledged_at: string | null;
}

export interface BankInboundFilesTable {
  /** BankInbound:<uuid v7> */
  id: string;
  bank_id: string;
  name: string;
  sha256: string;
  /** what it was read as: pain.002.001.10, camt.053.001.08, NACHA_RETURN, NACHA_ACK…; null when not recognised */
  kind: string | null;
  content: Buffer;
  /** APPLIED | REFUSED | DUPLICATE (the same bytes under another name, applied once already) */
  status: string;
  problem: string | null;
  received_at: string;
}

export interface BankStatementEntriesTable {
  id: string;
  bank_id: string;
  /** the bank's own id of the entry (AcctSvcrRef): a camt.054 and the day's camt.053 report it once each */
  bank_reference: string;
  inbound_file_id: string;
  currency: string;
  /** CREDIT | DEBIT */
  direction: string;
  amount: bigint;
  booking_date: string;
  /** our reference found in it (a funding reference, a payout reference) */
  reference: string | null;
  /** DEPOSIT | JIT | PAYOUT | PAYOUT_RETURN | FILE | EXCEPTION */
  matched_kind: string | null;
  matched_id: string | null;
  platform_id: string | null;
  environment: string | null;
  created_at: string;
}

export interface BankBalancesTable {
  id: string;
  bank_id: string;
  currency: string;
  statement_id: string;
  balance_date: string;
  bank_amount: bigint;
  ledger_amount: bigint;
  created_at: string;
}

export interface BankExceptionsTable {
  /** BankException:<uuid v7> */
  id: string;
  bank_id: string;
  /** UNMATCHED_CREDIT | UNMATCHED_DEBIT | AMOUNT_MISMATCH | BALANCE_BREAK | FILE_REFUSED | UNKNOWN_PAYOUT | UNREPORTED_PAYOUT */
  kind: string;
  /** OPEN | RESOLVED */
  status: string;
  currency: string | null;
  amount: bigint | null;
  reference: string | null;
  /** what it is about: a statement entry, a file, a payout */
  subject_id: string | null;
  /** JSON: the facts an operator needs */
  details: string;
  created_at: string;
  resolved_at: string | null;
  /** JSON: how it was resolved, by whom */
  resolution: string | null;
}

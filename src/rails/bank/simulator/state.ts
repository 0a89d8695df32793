/**
 * What the simulated bank remembers between runs, in one JSON file written atomically (a
 * temporary file, fsync, rename): the files it processed (name and SHA-256), each account's
 * balance since its last statement and the entries booked since, its counters, and the reports
 * it decided to write but may not have delivered yet. A simulator killed at any instant restarts
 * where it stopped: a file is answered once, a report delivered once, a bank reference never reused.
 *
 * Amounts are bigint minor units, kept in JSON as decimal strings.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BankTransactionCode } from '../iso20022/index.js';

export interface BookedParty {
  name?: string;
  iban?: string;
  otherId?: string;
}

/** One entry on an account, as camt.054 announced it and the next camt.053 lists it. */
export interface BookedEntry {
  bankReference: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: bigint;
  bookingDate: string;
  valueDate: string;
  /** Refs/EndToEndId: the payout's reference, or the reference of an incoming credit. */
  reference: string;
  bankTransactionCode: BankTransactionCode;
  /** The debtor of a credit, the creditor of a debit. */
  counterparty?: BookedParty;
  creditorReference?: string;
  remittanceInformation?: string;
  returnReasonCode?: string;
  returnReasonText?: string;
}

export interface AccountState {
  currency: string;
  /** The last statement's closing balance (or the configured opening balance before the first). */
  opening: bigint;
  /** The day the open period began: the last statement's date, or the day the account was opened. */
  openingDate: string;
  /** Statements written so far (the next one's sequence number is this plus one). */
  statements: number;
  /** Booked since the last statement, in booking order. */
  entries: BookedEntry[];
}

export interface ProcessedFile {
  name: string;
  sha256: string;
  /** NACHA, PAIN001 or UNREADABLE. */
  format: string;
  /** ACCEPTED, PART, REJECTED (with the reason) or IGNORED (a name the bank cannot answer). */
  outcome: string;
  at: string;
  /** The reports written for it, in order. */
  reports: string[];
}

/** A report decided on and not yet in the inbound folder. */
export interface PendingReport {
  name: string;
  content: string;
}

export interface BankState {
  version: 1;
  /** Random, made once per state file: in every bank reference and message id, so a bank started afresh never repeats one Corridor has seen. */
  instance: string;
  nextBankReference: number;
  nextReport: number;
  nextMessage: number;
  processed: ProcessedFile[];
  /** pain.001 message ids already taken: a second file with one is a duplicate (DU01). */
  messageIds: string[];
  accounts: AccountState[];
  pending: PendingReport[];
}

export function newState(): BankState {
  return {
    version: 1,
    instance: randomBytes(3).toString('hex').toUpperCase(),
    nextBankReference: 1,
    nextReport: 1,
    nextMessage: 1,
    processed: [],
    messageIds: [],
    accounts: [],
    pending: [],
  };
}

// JSON has no bigint: amounts are written as strings and read back by their field names.
const BIGINT_FIELDS = new Set(['amount', 'opening']);

export function readState(file: string): BankState | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let state: BankState;
  try {
    state = JSON.parse(text, (key, value: unknown) => (BIGINT_FIELDS.has(key) && typeof value === 'string' ? BigInt(value) : value)) as BankState;
  } catch (e) {
    throw new Error(`the simulator's state file ${file} is not valid JSON (${(e as Error).message}); move it away to start the bank afresh`);
  }
  if (state?.version !== 1 || !Array.isArray(state.accounts) || !Array.isArray(state.processed)) {
    throw new Error(`${file} is not a state file of this simulator (version 1); move it away to start the bank afresh`);
  }
  return state;
}

/** Replaces the state file as a whole: a reader (or a crash) sees the old state or the new, never half. */
export function writeState(file: string, state: BankState): void {
  const text = JSON.stringify(state, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value), 2);
  writeFileAtomic(file, `${text}\n`);
}

/** Writes a file under a temporary dotted name beside it, flushes it, then renames it into place. */
export function writeFileAtomic(file: string, content: string | Buffer): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = fs.openSync(temp, 'w', 0o644);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/**
 * The partner bank, over a folder: Corridor's payout files arrive in <root>/outbound, the bank's
 * reports leave through <root>/inbound (server.ts puts an OpenSSH SFTP server in front of both).
 * For each new file the bank validates it as a bank would (NACHA rules; the official XSD for
 * pain.001), answers it (a NACHA acknowledgement or a pain.002), books what it paid on the
 * operator's account and announces it at once in a camt.054, and plays the receiving banks of the
 * test account patterns (patterns.ts): rejections, returns, notifications of change. On request it
 * books an incoming credit, and writes the end-of-day camt.053 statements.
 *
 * Why it is built the way it is:
 * - Each operation works on a copy of the state and commits it whole (state.ts), reports first
 *   recorded as pending and only then written: a crash never answers a file twice or loses an
 *   answer, and bank references never repeat.
 * - Reports are written under a temporary dotted name and renamed, so Corridor never reads half
 *   a file; their names start with a counter, because Corridor reads the folder by modification
 *   time and then by name (SFTP times are whole seconds), and an acknowledgement must come before
 *   the notification and the return of the same file.
 * - Outbound files are left where they are: Corridor checks an upload by finding it there.
 * - Days are compressed: a payment, its booking and its return happen at the moment the file is
 *   processed, so a rehearsal sees in seconds what takes a bank days.
 * - Operations run one at a time (the poller, the control API and a test may call at once).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  buildCamt053,
  buildCamt054,
  buildPain002,
  currencyDecimals,
  detectIsoMessage,
  parsePain001,
  validateXml,
  type BankTransactionCode,
  type CamtAccountInput,
  type CamtEntryInput,
  type Pain001File,
  type Pain002Transaction,
} from '../iso20022/index.js';
import {
  buildNachaAck,
  nachaAckSubject,
  parseNachaFile,
  returnCodeInfo,
  validateNachaFile,
  type NachaAckEntryRejection,
  type NachaProblem,
} from '../nacha/index.js';
import { validateIban } from '../../../identifiers/iban.js';
import { checkAccounts, defaultOpeningBalance, type SimulatedAccount, type SimulatedBankSetup } from './accounts.js';
import { buildChangeFile, buildReturnFile, correctedAccountField, julianDay, type RdfiChange, type RdfiReturn } from './nacha-reports.js';
import { nachaOutcome, pain001Outcome } from './patterns.js';
import {
  newState,
  readState,
  writeFileAtomic,
  writeState,
  type AccountState,
  type BankState,
  type BookedEntry,
  type BookedParty,
  type ProcessedFile,
} from './state.js';

export interface SimulatedBankOptions extends SimulatedBankSetup {
  /** Holds outbound/ (Corridor's files) and inbound/ (the bank's reports); both are made if missing. */
  root: string;
  stateFile: string;
  now?: () => Date;
  /** One line per file processed and report written. */
  log?: (line: string) => void;
}

export interface CreditInput {
  currency: string;
  /** Minor units, above zero. */
  amount: bigint;
  /** What the payer quoted: the structured creditor reference and the remittance text. */
  reference: string;
  debtorName: string;
  /** The payer's IBAN, or another account number. */
  debtorAccount?: string;
}

export interface CreditResult {
  bankReference: string;
  report: string;
  balance: bigint;
}

export interface StatementOptions {
  /** Minor units added to the reported closing balance only (a bank's error, for break tests). */
  skew?: bigint;
  /** Only this account's statement; default every account's. */
  currency?: string;
}

export interface StatementResult {
  currency: string;
  statementId: string;
  report: string;
  opening: bigint;
  /** As reported (with the skew). */
  closing: bigint;
  entries: number;
}

export interface ProcessResult {
  name: string;
  format: string;
  outcome: string;
  reports: string[];
}

export interface AccountSnapshot {
  currency: string;
  balance: bigint;
  opening: bigint;
  openingDate: string;
  entriesSinceStatement: number;
  statements: number;
}

export interface BankSnapshot {
  instance: string;
  accounts: AccountSnapshot[];
  processed: ProcessedFile[];
  /** Reports decided but not yet written (only after a failure to write). */
  pending: string[];
}

export interface SimulatedBank {
  readonly outboundDir: string;
  readonly inboundDir: string;
  /** Answers every file of outbound/ not processed before (by name and SHA-256); `ready` may hold a file back. */
  processOutbound(opts?: { ready?: (file: { name: string; size: number; mtimeMs: number }) => boolean }): Promise<ProcessResult[]>;
  credit(input: CreditInput): Promise<CreditResult>;
  statement(opts?: StatementOptions): Promise<StatementResult[]>;
  snapshot(): BankSnapshot;
  /** Resolves once the operations called so far are over. */
  idle(): Promise<void>;
}

/** A request the bank refuses (unknown currency, bad amount): the control API answers it with 400. */
export class SimulatorInputError extends Error {
  override readonly name = 'SimulatorInputError';
}

// Bank transaction codes (ISO external code set): ACH transactions and returns for NACHA, SEPA or
// domestic credit transfers for pain.001 and incoming credits.
const BTC = {
  achPayout: { domain: 'PMNT', family: 'ICDT', subFamily: 'ATXN' },
  achPayoutReturn: { domain: 'PMNT', family: 'ICDT', subFamily: 'ARET' },
  achPull: { domain: 'PMNT', family: 'IDDT', subFamily: 'ATXN' },
  achPullReturn: { domain: 'PMNT', family: 'IDDT', subFamily: 'ARET' },
  sepaPayout: { domain: 'PMNT', family: 'ICDT', subFamily: 'ESCT' },
  payout: { domain: 'PMNT', family: 'ICDT', subFamily: 'DMCT' },
  payoutReturn: { domain: 'PMNT', family: 'ICDT', subFamily: 'RRTN' },
  sepaIncoming: { domain: 'PMNT', family: 'RCDT', subFamily: 'ESCT' },
  incoming: { domain: 'PMNT', family: 'RCDT', subFamily: 'DMCT' },
} satisfies Record<string, BankTransactionCode>;

/** Names an acknowledgement can carry (its FILE-NAME line); Corridor's file names are of this kind. */
const ANSWERABLE_NAME = /^[A-Za-z0-9._-]{1,200}$/;
const FILE_ID_MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** NACHA transaction codes of forward entries; 21, 26, 31, 36 are returns and notifications of change. */
const FORWARD_CODES = new Set([22, 23, 24, 27, 28, 29, 32, 33, 34, 37, 38, 39]);

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const instant = (at: Date) => at.toISOString().replace(/\.\d{3}Z$/, 'Z');

function decodeText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** An acknowledgement's reason text: printable ASCII, 1-200 characters, no outer spaces. */
function ackText(text: string): string {
  const clean = text
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200)
    .trimEnd();
  return clean === '' ? 'refused' : clean;
}

const describeProblems = (problems: NachaProblem[]) =>
  `line ${problems[0].line}: ${problems[0].message} [${problems[0].rule}]${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;

/** Compares two decimal texts by value ("12.50" and "12.5" are equal). */
function sameDecimal(a: string, b: string): boolean {
  const norm = (s: string) => {
    const [whole, fraction = ''] = s.trim().replace(/^\+/, '').split('.');
    return `${whole.replace(/^0+(?=\d)/, '')}.${fraction.replace(/0+$/, '')}`;
  };
  return norm(a) === norm(b);
}

function controlSum(amounts: { amount: bigint; currency: string }[]): string {
  const scale = Math.max(0, ...amounts.map((a) => currencyDecimals(a.currency)));
  let total = 0n;
  for (const a of amounts) total += a.amount * 10n ** BigInt(scale - currencyDecimals(a.currency));
  const digits = total.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/** The MsgId of a pain.001 the XSD refused, if it can be found at all: the pain.002 must name something. */
function guessMessageId(text: string | undefined): string {
  const found = text === undefined ? undefined : /<(?:[A-Za-z_][\w.-]*:)?MsgId>\s*([^<\s][^<]{0,34}?)\s*<\//.exec(text)?.[1];
  return found ?? 'NOTPROVIDED';
}

export function createSimulatedBank(opts: SimulatedBankOptions): SimulatedBank {
  checkAccounts(opts.accounts, 'the simulated bank');
  const outboundDir = path.join(opts.root, 'outbound');
  const inboundDir = path.join(opts.root, 'inbound');
  for (const dir of [outboundDir, inboundDir]) fs.mkdirSync(dir, { recursive: true });
  const now = opts.now ?? (() => new Date());
  const log = opts.log ?? (() => {});
  const timeZone = opts.timeZone ?? 'UTC';
  const configured = new Map(opts.accounts.map((a) => [a.currency, a]));

  const dateIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const timeIn = (at: Date) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at).replace(':', '');

  let state: BankState = readState(opts.stateFile) ?? newState();
  // An account configured since the last run opens now; known ones keep their history.
  for (const a of opts.accounts) {
    if (!state.accounts.some((s) => s.currency === a.currency)) {
      state.accounts.push({
        currency: a.currency,
        opening: a.openingBalance ?? defaultOpeningBalance(a.currency),
        openingDate: dateIn(now()),
        statements: 0,
        entries: [],
      });
    }
  }
  writeState(opts.stateFile, state);
  // Reports decided before a crash and not yet written.
  deliverPending();

  let queue: Promise<unknown> = Promise.resolve();
  function exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    const run = queue.then(work);
    queue = run.catch(() => {});
    return run;
  }

  /** Makes a draft the state: saved first, then its pending reports written. */
  function commit(draft: BankState): void {
    writeState(opts.stateFile, draft);
    state = draft;
    deliverPending();
  }

  function deliverPending(): void {
    if (state.pending.length === 0) return;
    for (const report of state.pending) {
      const file = path.join(inboundDir, report.name);
      // Written before a crash that came before the state could say so: not written again.
      if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === report.content) continue;
      writeFileAtomic(file, report.content);
      log(`wrote inbound/${report.name}`);
    }
    state = { ...state, pending: [] };
    writeState(opts.stateFile, state);
  }

  // --- helpers on a draft ---------------------------------------------------------------------

  const bankReference = (d: BankState) => `SIM${d.instance}${String(d.nextBankReference++).padStart(10, '0')}`;
  const messageId = (d: BankState, kind: 'N' | 'S' | 'P') => `SIM${d.instance}${kind}${String(d.nextMessage++).padStart(10, '0')}`;
  function report(d: BankState, suffix: string, content: string): string {
    const name = `${String(d.nextReport++).padStart(6, '0')}-${suffix}`;
    d.pending.push({ name, content });
    return name;
  }
  const accountOf = (d: BankState, currency: string): AccountState | undefined => d.accounts.find((a) => a.currency === currency && configured.has(currency));

  type Unbooked = Omit<BookedEntry, 'bankReference' | 'bookingDate' | 'valueDate'>;
  function book(d: BankState, account: AccountState, entries: Unbooked[], at: Date): BookedEntry[] {
    const date = dateIn(at);
    const booked = entries.map((e): BookedEntry => ({ ...e, bankReference: bankReference(d), bookingDate: date, valueDate: date }));
    account.entries.push(...booked);
    return booked;
  }

  function camtAccount(currency: string): CamtAccountInput {
    const a: SimulatedAccount = configured.get(currency)!;
    const bic = a.bic ?? opts.bic;
    return {
      ...(a.iban !== undefined ? { iban: a.iban } : { otherId: a.accountNumber! }),
      currency,
      ...(a.holderName !== undefined ? { name: a.holderName } : {}),
      ...(bic !== undefined ? { servicerBic: bic } : {}),
    };
  }

  function camtEntry(e: BookedEntry): CamtEntryInput {
    return {
      amount: e.amount,
      direction: e.direction,
      status: 'BOOK',
      bookingDate: e.bookingDate,
      valueDate: e.valueDate,
      bankReference: e.bankReference,
      bankTransactionCode: e.bankTransactionCode,
      transactions: [
        {
          endToEndId: e.reference,
          ...(e.counterparty ? (e.direction === 'CREDIT' ? { debtor: e.counterparty } : { creditor: e.counterparty }) : {}),
          ...(e.remittanceInformation !== undefined ? { remittanceInformation: e.remittanceInformation } : {}),
          ...(e.creditorReference !== undefined ? { creditorReference: e.creditorReference } : {}),
          ...(e.returnReasonCode !== undefined ? { returnReasonCode: e.returnReasonCode, returnReasonText: e.returnReasonText } : {}),
        },
      ],
    };
  }

  /** One camt.054 per account with entries: every booking announced at once. */
  function notify(d: BankState, label: string, entries: Map<string, BookedEntry[]>, at: Date): string[] {
    const names: string[] = [];
    for (const [currency, list] of entries) {
      if (list.length === 0) continue;
      const id = messageId(d, 'N');
      const xml = buildCamt054({ messageId: id, createdAt: instant(at), notificationId: id, account: camtAccount(currency), entries: list.map(camtEntry) });
      names.push(report(d, `${label}.${currency}.camt054.xml`, xml));
    }
    return names;
  }

  // --- NACHA ----------------------------------------------------------------------------------

  function answerNacha(d: BankState, name: string, bytes: Buffer, text: string | undefined, duplicateOf: string | undefined): Omit<ProcessResult, 'name'> {
    const at = now();
    const subject = nachaAckSubject(name, bytes);
    const refuse = (code: string, why: string) => {
      const ack = buildNachaAck({ ...subject, acknowledgedAt: at, status: 'REJECTED', reason: { code, text: ackText(why) }, entryRejections: [] });
      return { format: 'NACHA', outcome: `REJECTED ${code}: ${why}`, reports: [report(d, `${name}.ack`, ack)] };
    };
    const problems: NachaProblem[] = text === undefined ? [{ line: 0, rule: 'charset', message: 'the file is not ASCII text' }] : validateNachaFile(text);
    if (problems.length > 0) return refuse('INVALID_FILE', describeProblems(problems));
    if (duplicateOf !== undefined) return refuse('DUPLICATE_FILE', `the same bytes were received before as ${duplicateOf}`);
    const file = parseNachaFile(text!);
    if (opts.routingNumber !== undefined && file.header.immediateDestination !== opts.routingNumber) {
      return refuse('WRONG_DESTINATION', `the file is addressed to routing number ${file.header.immediateDestination}; this bank is ${opts.routingNumber}`);
    }
    const foreign = file.batches.flatMap((b) => b.entries.filter((e) => b.header.standardEntryClassCode === 'COR' || !FORWARD_CODES.has(e.transactionCode)));
    if (foreign.length > 0) {
      return refuse(
        'UNSUPPORTED_ENTRY',
        `entry ${foreign[0].traceNumber} (transaction code ${foreign[0].transactionCode}) is a return or a notification of change; an originator sends forward entries only`,
      );
    }
    const account = accountOf(d, 'USD');
    if (!account) return refuse('NO_USD_ACCOUNT', 'the originator has no USD account at this bank');

    const rejections: NachaAckEntryRejection[] = [];
    const returns: RdfiReturn[] = [];
    const changes: RdfiChange[] = [];
    const forward: Unbooked[] = [];
    const back: Unbooked[] = [];
    for (const batch of file.batches) {
      for (const entry of batch.entries) {
        const outcome = nachaOutcome(entry.dfiAccountNumber);
        if (outcome.kind === 'REJECTED') {
          rejections.push({ traceNumber: entry.traceNumber, code: outcome.code, text: returnCodeInfo(outcome.code)!.description });
          continue;
        }
        const reference = entry.individualIdentificationNumber || entry.traceNumber;
        const counterparty: BookedParty = { name: entry.individualName, otherId: entry.dfiAccountNumber };
        // A credit entry pays the receiver from the operator's account; a debit entry pulls into it.
        const pays = entry.direction === 'credit';
        if (entry.amount > 0n) {
          forward.push({
            direction: pays ? 'DEBIT' : 'CREDIT',
            amount: entry.amount,
            reference,
            counterparty,
            bankTransactionCode: pays ? BTC.achPayout : BTC.achPull,
          });
        }
        if (outcome.kind === 'RETURNED') {
          returns.push({ entry, batch: batch.header, code: outcome.code });
          if (entry.amount > 0n) {
            back.push({
              direction: pays ? 'CREDIT' : 'DEBIT',
              amount: entry.amount,
              reference,
              counterparty,
              bankTransactionCode: pays ? BTC.achPayoutReturn : BTC.achPullReturn,
              returnReasonCode: outcome.code,
              returnReasonText: returnCodeInfo(outcome.code)!.description,
            });
          }
        }
        if (outcome.kind === 'CHANGED')
          changes.push({ entry, batch: batch.header, code: outcome.code, correctedData: correctedAccountField(outcome.correctedAccountNumber) });
      }
    }
    const booked = book(d, account, [...forward, ...back], at);
    const ack = buildNachaAck({ ...subject, acknowledgedAt: at, status: 'ACCEPTED', entryRejections: rejections });
    const reports = [report(d, `${name}.ack`, ack), ...notify(d, name, new Map([['USD', booked]]), at)];
    const rdfiFile = () => ({
      original: file.header,
      createdDate: dateIn(at).slice(2).replaceAll('-', ''),
      createdTime: timeIn(at),
      fileIdModifier: FILE_ID_MODIFIERS[d.nextReport % FILE_ID_MODIFIERS.length],
      settlementDay: julianDay(dateIn(at)),
    });
    if (returns.length > 0) reports.push(report(d, `${name}.returns.ach`, buildReturnFile(rdfiFile(), returns)));
    if (changes.length > 0) reports.push(report(d, `${name}.changes.ach`, buildChangeFile(rdfiFile(), changes)));
    const outcome = `ACCEPTED: ${booked.length} booked, ${rejections.length} rejected, ${returns.length} returned, ${changes.length} changed`;
    return { format: 'NACHA', outcome, reports };
  }

  // --- pain.001 -------------------------------------------------------------------------------

  async function answerPain001(d: BankState, name: string, text: string | undefined): Promise<Omit<ProcessResult, 'name'>> {
    const at = now();
    const reject = (code: string, why: string, originalMessageId: string) => {
      const xml = buildPain002({
        messageId: messageId(d, 'P'),
        createdAt: instant(at),
        ...(opts.bic !== undefined ? { debtorAgentBic: opts.bic } : {}),
        originalMessageId,
        groupStatus: 'RJCT',
        groupReason: { code, text: why },
        transactions: [],
      });
      return { format: 'PAIN001', outcome: `REJECTED ${code}: ${why}`, reports: [report(d, `${name}.pain002.xml`, xml)] };
    };
    const message = text === undefined ? undefined : detectIsoMessage(text);
    if (message !== 'pain.001.001.09') {
      const why = message ? `${message} is not a message this bank takes (it takes pain.001.001.09)` : 'not a pain.001.001.09 document';
      return reject('FF01', why, guessMessageId(text));
    }
    const validation = await validateXml(text!, 'pain.001.001.09');
    if (!validation.valid) return reject('FF01', `the file breaks the pain.001.001.09 schema: ${validation.errors[0] ?? 'invalid'}`, guessMessageId(text));
    let file: Pain001File;
    try {
      file = parsePain001(text!);
    } catch (e) {
      return reject('FF01', `the file cannot be read: ${(e as Error).message}`, guessMessageId(text));
    }
    if (d.messageIds.includes(file.messageId)) return reject('DU01', `message id ${file.messageId} was received before`, file.messageId);
    const all = file.paymentInformation.flatMap((p) => p.transactions);
    if (file.declaredNumberOfTransactions !== all.length)
      return reject('AM18', `GrpHdr/NbOfTxs says ${file.declaredNumberOfTransactions}, the file holds ${all.length}`, file.messageId);
    if (file.declaredControlSum !== undefined && !sameDecimal(file.declaredControlSum, controlSum(all)))
      return reject('AM10', `GrpHdr/CtrlSum says ${file.declaredControlSum}, the payments add up to ${controlSum(all)}`, file.messageId);
    for (const info of file.paymentInformation) {
      if (info.declaredNumberOfTransactions !== undefined && info.declaredNumberOfTransactions !== info.transactions.length)
        return reject('AM18', `PmtInf ${info.id}: NbOfTxs says ${info.declaredNumberOfTransactions}, it holds ${info.transactions.length}`, file.messageId);
      if (info.declaredControlSum !== undefined && !sameDecimal(info.declaredControlSum, controlSum(info.transactions)))
        return reject(
          'AM10',
          `PmtInf ${info.id}: CtrlSum says ${info.declaredControlSum}, its payments add up to ${controlSum(info.transactions)}`,
          file.messageId,
        );
    }
    d.messageIds.push(file.messageId);

    // Forward bookings first, returns after, per account; statuses in file order.
    const statuses: { tx: Pain002Transaction; forwardIndex?: { currency: string; index: number } }[] = [];
    const forward = new Map<string, Unbooked[]>();
    const back = new Map<string, Unbooked[]>();
    for (const info of file.paymentInformation) {
      const debtor = d.accounts.find((a) => {
        const c = configured.get(a.currency);
        return (
          c !== undefined &&
          ((info.debtorAccount.iban !== undefined && c.iban === info.debtorAccount.iban) ||
            (info.debtorAccount.otherId !== undefined && c.accountNumber === info.debtorAccount.otherId))
        );
      });
      for (const tx of info.transactions) {
        const base = {
          originalPaymentInformationId: info.id,
          originalEndToEndId: tx.endToEndId,
          ...(tx.instructionId !== undefined ? { originalInstructionId: tx.instructionId } : {}),
        };
        if (!debtor) {
          statuses.push({ tx: { ...base, status: 'RJCT', reasonCode: 'AC02', reasonText: 'the debtor account is not an account of this bank' } });
          continue;
        }
        if (tx.currency !== debtor.currency) {
          statuses.push({
            tx: { ...base, status: 'RJCT', reasonCode: 'AM03', reasonText: `the debtor account is in ${debtor.currency}, the payment in ${tx.currency}` },
          });
          continue;
        }
        const creditorAccount = tx.creditorAccount?.iban ?? tx.creditorAccount?.otherId;
        const outcome = pain001Outcome(creditorAccount);
        if (outcome.kind === 'REJECTED') {
          statuses.push({ tx: { ...base, status: 'RJCT', reasonCode: outcome.code, reasonText: 'incorrect account number (test account pattern 0002)' } });
          continue;
        }
        const sepa = info.serviceLevel === 'SEPA';
        const counterparty: BookedParty = {
          ...(tx.creditorName !== undefined ? { name: tx.creditorName } : {}),
          ...(tx.creditorAccount?.iban !== undefined
            ? { iban: tx.creditorAccount.iban }
            : tx.creditorAccount?.otherId !== undefined
              ? { otherId: tx.creditorAccount.otherId }
              : {}),
        };
        const list = forward.get(debtor.currency) ?? [];
        list.push({ direction: 'DEBIT', amount: tx.amount, reference: tx.endToEndId, counterparty, bankTransactionCode: sepa ? BTC.sepaPayout : BTC.payout });
        forward.set(debtor.currency, list);
        statuses.push({ tx: { ...base, status: 'ACCP' }, forwardIndex: { currency: debtor.currency, index: list.length - 1 } });
        if (outcome.kind === 'RETURNED') {
          const returned = back.get(debtor.currency) ?? [];
          returned.push({
            direction: 'CREDIT',
            amount: tx.amount,
            reference: tx.endToEndId,
            counterparty,
            bankTransactionCode: BTC.payoutReturn,
            returnReasonCode: outcome.code,
            returnReasonText: 'account closed (test account pattern 0003)',
          });
          back.set(debtor.currency, returned);
        }
      }
    }
    const booked = new Map<string, BookedEntry[]>();
    for (const [currency, list] of forward) booked.set(currency, book(d, accountOf(d, currency)!, [...list, ...(back.get(currency) ?? [])], at));
    const accepted = statuses.filter((s) => s.tx.status === 'ACCP').length;
    const groupStatus = accepted === statuses.length ? 'ACCP' : accepted === 0 ? 'RJCT' : 'PART';
    const pain002 = buildPain002({
      messageId: messageId(d, 'P'),
      createdAt: instant(at),
      ...(opts.bic !== undefined ? { debtorAgentBic: opts.bic } : {}),
      originalMessageId: file.messageId,
      originalCreatedAt: file.createdAt,
      originalNumberOfTransactions: all.length,
      groupStatus,
      transactions: statuses.map((s) =>
        s.forwardIndex ? { ...s.tx, accountServicerReference: booked.get(s.forwardIndex.currency)![s.forwardIndex.index].bankReference } : s.tx,
      ),
    });
    const reports = [report(d, `${name}.pain002.xml`, pain002), ...notify(d, name, booked, at)];
    const bookedCount = [...booked.values()].reduce((n, l) => n + l.length, 0);
    return { format: 'PAIN001', outcome: `${groupStatus}: ${bookedCount} booked, ${statuses.length - accepted} rejected`, reports };
  }

  async function answer(d: BankState, name: string, bytes: Buffer, digest: string): Promise<Omit<ProcessResult, 'name'>> {
    if (!ANSWERABLE_NAME.test(name)) {
      log(`outbound/${name}: a name an answer cannot carry (letters, digits, ".", "_", "-" only); left unanswered`);
      return { format: 'UNREADABLE', outcome: 'IGNORED: name', reports: [] };
    }
    const text = decodeText(bytes);
    if (text?.trimStart().startsWith('<')) return answerPain001(d, name, text);
    const duplicateOf = d.processed.find((p) => p.sha256 === digest)?.name;
    return answerNacha(d, name, bytes, text, duplicateOf);
  }

  async function processOutbound(o: { ready?: (file: { name: string; size: number; mtimeMs: number }) => boolean } = {}): Promise<ProcessResult[]> {
    const files = fs
      .readdirSync(outboundDir, { withFileTypes: true })
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .flatMap((e) => {
        const stat = fs.statSync(path.join(outboundDir, e.name), { throwIfNoEntry: false });
        return stat ? [{ name: e.name, stat }] : [];
      })
      // In the order they arrived, as a bank's pickup job takes them.
      .sort((a, b) => a.stat.mtimeMs - b.stat.mtimeMs || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const results: ProcessResult[] = [];
    for (const { name, stat } of files) {
      if (o.ready && !o.ready({ name, size: stat.size, mtimeMs: stat.mtimeMs })) continue;
      let bytes: Buffer;
      try {
        bytes = fs.readFileSync(path.join(outboundDir, name));
      } catch (e) {
        // Removed since the listing (someone tidied the folder): nothing to answer.
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw e;
      }
      const digest = sha256(bytes);
      if (state.processed.some((p) => p.name === name && p.sha256 === digest)) continue;
      const draft = structuredClone(state);
      const result = await answer(draft, name, bytes, digest);
      draft.processed.push({ name, sha256: digest, format: result.format, outcome: result.outcome, at: instant(now()), reports: result.reports });
      commit(draft);
      log(`processed outbound/${name} (${result.format}): ${result.outcome}`);
      results.push({ name, ...result });
    }
    return results;
  }

  function credit(input: CreditInput): CreditResult {
    const c = input ?? ({} as CreditInput);
    const account = typeof c.currency === 'string' ? accountOf(state, c.currency) : undefined;
    if (!account)
      throw new SimulatorInputError(`currency: the bank holds no ${String(c.currency)} account (it holds ${state.accounts.map((a) => a.currency).join(', ')})`);
    if (typeof c.amount !== 'bigint' || c.amount <= 0n) throw new SimulatorInputError('amount: must be an integer of minor units above zero');
    if (typeof c.reference !== 'string' || !/^[\x21-\x7e](?:[\x20-\x7e]{0,33}[\x21-\x7e])?$/.test(c.reference))
      throw new SimulatorInputError('reference: must be 1 to 35 printable ASCII characters without outer spaces');
    if (typeof c.debtorName !== 'string' || c.debtorName.trim() === '' || c.debtorName.length > 140)
      throw new SimulatorInputError('debtorName: must be 1 to 140 characters');
    if (c.debtorAccount !== undefined && (typeof c.debtorAccount !== 'string' || !/^[A-Za-z0-9-]{1,34}$/.test(c.debtorAccount)))
      throw new SimulatorInputError('debtorAccount: must be an IBAN or an account number of 1 to 34 letters, digits or dashes');
    const at = now();
    const draft = structuredClone(state);
    const target = accountOf(draft, account.currency)!;
    const payer: BookedParty = { name: c.debtorName.trim() };
    if (c.debtorAccount !== undefined) {
      if (validateIban(c.debtorAccount) === null) payer.iban = c.debtorAccount.toUpperCase();
      else payer.otherId = c.debtorAccount;
    }
    const [entry] = book(
      draft,
      target,
      [
        {
          direction: 'CREDIT',
          amount: c.amount,
          reference: c.reference,
          counterparty: payer,
          creditorReference: c.reference,
          remittanceInformation: c.reference,
          bankTransactionCode: target.currency === 'EUR' ? BTC.sepaIncoming : BTC.incoming,
        },
      ],
      at,
    );
    const [name] = notify(draft, `credit-${entry.bankReference}`, new Map([[target.currency, [entry]]]), at);
    commit(draft);
    log(`booked an incoming credit of ${c.amount} ${target.currency} minor units, reference ${c.reference}: ${entry.bankReference}`);
    return { bankReference: entry.bankReference, report: name, balance: balanceOf(accountOf(state, target.currency)!) };
  }

  function statement(o: StatementOptions = {}): StatementResult[] {
    const skew = o.skew ?? 0n;
    if (typeof skew !== 'bigint') throw new SimulatorInputError('skew: must be an integer of minor units');
    if (o.currency !== undefined && !accountOf(state, o.currency)) throw new SimulatorInputError(`currency: the bank holds no ${o.currency} account`);
    const at = now();
    const date = dateIn(at);
    const draft = structuredClone(state);
    const results: StatementResult[] = [];
    for (const account of draft.accounts) {
      if (!configured.has(account.currency) || (o.currency !== undefined && account.currency !== o.currency)) continue;
      const closing = balanceOf(account);
      const sequence = account.statements + 1;
      const statementId = `${draft.instance}-${account.currency}-${sequence}`;
      const xml = buildCamt053({
        messageId: messageId(draft, 'S'),
        createdAt: instant(at),
        statementId,
        electronicSequenceNumber: BigInt(sequence),
        from: account.openingDate,
        to: date,
        account: camtAccount(account.currency),
        openingBalance: { amount: account.opening, date: account.openingDate },
        closingBalance: { amount: closing + skew, date },
        entries: account.entries.map(camtEntry),
      });
      const name = report(draft, `statement-${account.currency}-${date}-${sequence}.camt053.xml`, xml);
      results.push({
        currency: account.currency,
        statementId,
        report: name,
        opening: account.opening,
        closing: closing + skew,
        entries: account.entries.length,
      });
      // The next period opens at the true balance: a skew is a wrong figure in one report, not lost money.
      account.opening = closing;
      account.openingDate = date;
      account.entries = [];
      account.statements = sequence;
    }
    commit(draft);
    for (const r of results) log(`statement ${r.statementId}: opening ${r.opening}, closing ${r.closing}, ${r.entries} entries`);
    return results;
  }

  function balanceOf(account: AccountState): bigint {
    return account.entries.reduce((sum, e) => (e.direction === 'CREDIT' ? sum + e.amount : sum - e.amount), account.opening);
  }

  return {
    outboundDir,
    inboundDir,
    processOutbound: (o) => exclusive(() => processOutbound(o)),
    credit: (input) => exclusive(() => credit(input)),
    statement: (o) => exclusive(() => statement(o)),
    snapshot: () => ({
      instance: state.instance,
      accounts: state.accounts
        .filter((a) => configured.has(a.currency))
        .map((a) => ({
          currency: a.currency,
          balance: balanceOf(a),
          opening: a.opening,
          openingDate: a.openingDate,
          entriesSinceStatement: a.entries.length,
          statements: a.statements,
        })),
      processed: state.processed.map((p) => ({ ...p, reports: [...p.reports] })),
      pending: state.pending.map((p) => p.name),
    }),
    idle: () => queue.then(() => {}),
  };
}

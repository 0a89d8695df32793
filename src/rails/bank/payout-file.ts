/**
 * The bytes of one payout file: the payouts of one bank, format, currency and cut-off, in the
 * order they were queued. Pure: the same payouts, window and settings give the same bytes (the
 * file's time is the cut-off's, its names come from the window), so a file rebuilt after a crash
 * is the file that may already have been sent.
 */
import { createHash } from 'node:crypto';
import { buildNachaFile, type NachaEntryInput } from './nacha/index.js';
import { buildPain001, type Pain001Payment } from './iso20022/pain001.js';
import type { BankProfile, OperatorAccount, PayoutFormat } from './profile.js';
import type { Counterparty } from './rail.js';

export interface FilePayout {
  reference: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: bigint;
  currency: string;
  counterparty: Counterparty;
}

export interface FileWindow {
  cutoffAt: Date;
  /** YYYY-MM-DD of the cut-off day at the bank. */
  localDate: string;
  sameDay: boolean;
  /** YYYY-MM-DD: NACHA effective entry date, ISO requested execution date. */
  effectiveDate: string;
}

export interface BuiltFile {
  name: string;
  content: Buffer;
  sha256: string;
  /** NACHA: each payout's trace number, in the order given. */
  traceNumbers?: string[];
}

const yymmdd = (date: string) => date.slice(2).replaceAll('-', '');

/** The operator's account in `currency` at the bank (validated at start: bank/config.ts). */
export function operatorAccount(bank: BankProfile, currency: string): OperatorAccount {
  const account = bank.accounts.find((a) => a.currency === currency);
  if (!account) throw new Error(`bank ${bank.id} has no ${currency} account`);
  return account;
}

/**
 * The file's name: bank, format, the cut-off's local day and time, the currency and a sequence of
 * the day (NACHA's file id modifier), so names sort in sending order and never repeat.
 */
export function payoutFileName(bank: BankProfile, format: PayoutFormat, window: FileWindow, currency: string, sequence: number): string {
  const hhmm = new Intl.DateTimeFormat('en-GB', { timeZone: bank.schedule.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .format(window.cutoffAt)
    .replace(':', '');
  const ext = format === 'NACHA' ? 'ach' : 'xml';
  return `${bank.id}-${format.toLowerCase().replace('_', '-')}-${window.localDate.replaceAll('-', '')}-${hhmm}-${currency}-${String(sequence).padStart(2, '0')}.${ext}`;
}

/**
 * A pain.001's MsgId, which its pain.002 names again, from the file's name: the window's day and
 * time, currency and sequence ("202611281500EUR01"). Unique per bank (a bank's reports come to its
 * own folder), and short enough for the PmtInfIds derived from it (35 characters).
 */
export function isoMessageIdOf(fileName: string): string {
  const m = /-(\d{8})-(\d{4})-([A-Z]{3})-(\d{2})\.xml$/.exec(fileName);
  if (!m) throw new Error(`${fileName} is not the name of a pain.001 file Corridor built`);
  return `${m[1]}${m[2]}${m[3]}${m[4]}`;
}

const MODIFIERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function buildPayoutFile(
  bank: BankProfile,
  format: PayoutFormat,
  window: FileWindow,
  currency: string,
  sequence: number,
  payouts: readonly FilePayout[],
): BuiltFile {
  const name = payoutFileName(bank, format, window, currency, sequence);
  const account = operatorAccount(bank, currency);
  let text: string;
  let traceNumbers: string[] | undefined;
  if (format === 'NACHA') {
    const nacha = bank.nacha!;
    // PPD for people, CCD for companies: one batch each, credits and debits together.
    const batches = (['PPD', 'CCD'] as const)
      .map((sec) => ({ sec, entries: payouts.filter((p) => (p.counterparty.kind === 'BUSINESS' ? 'CCD' : 'PPD') === sec) }))
      .filter((b) => b.entries.length > 0);
    const entry = (p: FilePayout): NachaEntryInput => {
      const savings = p.counterparty.accountCategory === 'SAVINGS';
      return {
        transactionCode: p.direction === 'CREDIT' ? (savings ? 32 : 22) : savings ? 37 : 27,
        receivingDFIRoutingNumber: p.counterparty.routingNumber!,
        dfiAccountNumber: p.counterparty.accountNumber!,
        amount: p.amount,
        individualIdentificationNumber: p.reference,
        individualName: p.counterparty.name,
      };
    };
    const built = buildNachaFile({
      immediateDestination: nacha.immediateDestination,
      immediateOrigin: nacha.immediateOrigin,
      immediateDestinationName: nacha.immediateDestinationName,
      immediateOriginName: nacha.immediateOriginName,
      fileCreatedAt: window.cutoffAt,
      timeZone: bank.schedule.timeZone,
      fileIdModifier: MODIFIERS[(sequence - 1) % MODIFIERS.length],
      batches: batches.map(({ sec, entries }) => ({
        companyName: nacha.companyName,
        companyIdentification: nacha.companyId,
        standardEntryClassCode: sec,
        companyEntryDescription: 'PAYOUT',
        effectiveEntryDate: yymmdd(window.effectiveDate),
        sameDay: window.sameDay || undefined,
        sameDaySettlementTime: window.sameDay ? '1700' : undefined,
        originatingDFIIdentification: nacha.originatingDfi,
        entries: entries.map(entry),
      })),
    });
    text = built.text;
    // Back in the order given: by batch, then entry.
    const byReference = new Map<string, string>();
    batches.forEach((b, i) => b.entries.forEach((p, j) => byReference.set(p.reference, built.traceNumbers[i][j])));
    traceNumbers = payouts.map((p) => byReference.get(p.reference)!);
  } else {
    const messageId = isoMessageIdOf(name);
    const payment = (p: FilePayout): Pain001Payment => ({
      endToEndId: p.reference,
      amount: p.amount,
      currency: p.currency,
      requestedExecutionDate: window.effectiveDate,
      debtor: { name: account.holderName, account: { iban: account.iban! }, bic: account.bic! },
      creditor: {
        name: p.counterparty.name,
        account: p.counterparty.iban ? { iban: p.counterparty.iban } : { otherId: p.counterparty.accountNumber ?? '' },
        bic: p.counterparty.bic,
        country: p.counterparty.country,
      },
      remittanceInformation: p.reference,
    });
    text = buildPain001({
      profile: format === 'PAIN001_SEPA' ? 'SEPA' : 'GENERIC',
      messageId,
      createdAt: window.cutoffAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
      initiatingParty: { name: account.holderName },
      payments: payouts.map(payment),
    });
  }
  const content = Buffer.from(text, 'utf8');
  return { name, content, sha256: createHash('sha256').update(content).digest('hex'), traceNumbers };
}

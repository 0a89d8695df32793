/**
 * What a file from a bank says, in one shape whatever its format: detected from its first bytes,
 * parsed by the format's own reader (nacha/, iso20022/), and reduced to the facts settlement.ts
 * applies. A file that is none of these, or that its reader refuses, throws: the caller keeps it
 * as REFUSED and nothing of it is applied.
 */
import { NACHA_ACK_MAGIC, nachaChanges, nachaReturns, parseNachaAck, parseNachaFile, type NachaAck } from './nacha/index.js';
import { detectIsoMessage, parseCamt053, parseCamt054, parsePain002, type CamtEntry } from './iso20022/index.js';

/** One booked movement on the operator's account, as a camt.053 or camt.054 reports it. */
export interface BookedEntry {
  /** The bank's own id of the entry (AcctSvcrRef), which a notification and the day's statement share. */
  bankReference: string;
  currency: string;
  direction: 'CREDIT' | 'DEBIT';
  amount: bigint;
  bookingDate: string;
  /** The references found in it: EndToEndId, the structured creditor reference, the remittance text. */
  references: string[];
  /** A returned payment's reason (RtrInf/Rsn/Cd). */
  returnReason?: string;
  counterpartyName?: string;
}

export type BankReport =
  | { kind: 'NACHA_ACK'; ack: NachaAck }
  | {
      kind: 'NACHA_RETURNS';
      returns: Array<{ reference: string; traceNumber: string; code: string; amount: bigint }>;
      changes: Array<{ reference: string; code: string; correctedData: string; corrected?: { accountNumber?: string; routingNumber?: string } }>;
    }
  | {
      kind: 'pain.002.001.10';
      originalMessageId: string;
      groupStatus: string;
      transactions: Array<{ reference: string; status: string; reasonCode?: string }>;
    }
  | {
      kind: 'camt.054' | 'camt.053';
      message: string;
      /** Each statement (camt.053) or notification (camt.054) of the file, per account. */
      statements: ReportedStatement[];
    };

export interface ReportedStatement {
  statementId: string;
  currency: string;
  entries: BookedEntry[];
  /** camt.053: the statement's balances. */
  opening?: { amount: bigint; date: string };
  closing?: { amount: bigint; date: string };
}

export function readReport(content: Buffer): BankReport {
  const text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  const start = text.trimStart();
  if (start.startsWith(NACHA_ACK_MAGIC)) return { kind: 'NACHA_ACK', ack: parseNachaAck(text) };
  if (start.startsWith('<')) return readIso(text);
  if (start.startsWith('1')) {
    const file = parseNachaFile(text);
    return {
      kind: 'NACHA_RETURNS',
      returns: nachaReturns(file).map((r) => ({
        reference: r.entry.individualIdentificationNumber.trim(),
        traceNumber: r.originalTraceNumber,
        code: r.returnCode,
        amount: r.entry.amount,
      })),
      changes: nachaChanges(file).map((c) => ({
        reference: c.entry.individualIdentificationNumber.trim(),
        code: c.changeCode,
        correctedData: c.correctedData,
        corrected: c.corrected,
      })),
    };
  }
  throw new Error('not a file Corridor reads: neither a NACHA file, a NACHA acknowledgement nor an ISO 20022 message');
}

function bookedEntry(e: CamtEntry): BookedEntry {
  const references = [
    e.endToEndId,
    e.creditorReference,
    e.reference,
    e.remittanceInformation,
    ...e.transactions.flatMap((t) => [t.endToEndId, t.creditorReference]),
  ];
  return {
    bankReference: e.bankReference,
    currency: e.currency,
    direction: e.direction,
    amount: e.amount,
    bookingDate: e.bookingDate,
    references: [...new Set(references.filter((r): r is string => typeof r === 'string' && r.trim() !== '').map((r) => r.trim()))],
    returnReason: e.returnReasonCode,
    counterpartyName: e.counterpartyName,
  };
}

function readIso(xml: string): BankReport {
  const message = detectIsoMessage(xml);
  if (message === 'pain.002.001.10') {
    const p = parsePain002(xml);
    return {
      kind: message,
      originalMessageId: p.originalMessageId,
      groupStatus: p.groupStatus ?? '',
      transactions: p.transactions.map((t) => ({ reference: t.originalEndToEndId, status: t.status, reasonCode: t.reasonCode })),
    };
  }
  if (message?.startsWith('camt.053') || message?.startsWith('camt.054')) {
    const statement = message.startsWith('camt.053');
    const report = statement ? parseCamt053(xml) : parseCamt054(xml);
    return {
      kind: statement ? 'camt.053' : 'camt.054',
      message,
      statements: report.statements.map((s) => ({
        statementId: s.id,
        currency: s.account.currency,
        opening: s.openingBalance,
        closing: s.closingBalance,
        // Only booked entries move money; a pending one is announced again when it books.
        entries: s.entries.filter((e) => e.status === 'BOOK').map(bookedEntry),
      })),
    };
  }
  throw new Error(message ? `${message} is not a report Corridor reads from a bank` : 'an XML document that is not an ISO 20022 message Corridor reads');
}

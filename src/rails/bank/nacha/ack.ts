/**
 * The acknowledgement of an uploaded NACHA file. Nacha defines no format for an ODFI to confirm
 * that it took a file, and banks each use their own; this is Corridor's, written by the bank
 * simulator and read by the ingest, and the shape a bank's own acknowledgement is translated into.
 *
 * A text of "KEY: value" lines in this order, each once, "\n" line ends ("\r\n" read too), ending
 * with END:
 *
 *     CORRIDOR-NACHA-ACK/1
 *     FILE-NAME: corridor-261128-A.ach
 *     FILE-SHA256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
 *     FILE-CREATION: 261128 0930 A
 *     BATCH-COUNT: 2
 *     ENTRY-COUNT: 5
 *     TOTAL-DEBIT: 0
 *     TOTAL-CREDIT: 1234567
 *     ACKNOWLEDGED-AT: 2026-11-28T14:35:00Z
 *     STATUS: ACCEPTED
 *     ENTRY-REJECTED: 121042880000003 R03 No account/unable to locate account
 *     END
 *
 * - FILE-NAME is the uploaded name (letters, digits, ".", "_", "-"); FILE-SHA256 the lower-case hex
 *   SHA-256 of the bytes received, which names the file beyond doubt.
 * - FILE-CREATION (YYMMDD HHMM modifier, from the file header; HHMM is "----" when the file left
 *   its optional time blank), BATCH-COUNT, ENTRY-COUNT (entry detail records, addenda not counted)
 *   and the totals in cents are what the bank read from the file. When it could not read it (not
 *   valid NACHA) each of these five lines carries "-", and only REJECTED is allowed.
 * - ACKNOWLEDGED-AT is a UTC instant to the second.
 * - STATUS is ACCEPTED or REJECTED. REJECTED is followed by one line "REASON: CODE text" (the whole
 *   file is refused, nothing will settle). ACCEPTED may be followed by any number of lines
 *   "ENTRY-REJECTED: trace-number CODE text" for entries the bank refused while taking the rest,
 *   each trace number once.
 * - A CODE is 1-20 of A-Z, 0-9, "_", "-"; a text 1-200 printable ASCII characters.
 */

import { createHash } from 'node:crypto';
import { NachaError } from './errors.js';
import { isDigits, isValidHhmm, isValidYymmdd } from './fields.js';
import { parseNachaFile } from './parse.js';

export const NACHA_ACK_MAGIC = 'CORRIDOR-NACHA-ACK/1';

/** What the bank read from the acknowledged file. */
export interface NachaAckFileSummary {
  fileCreationDate: string;
  /** HHMM, or '' when the file left it blank. */
  fileCreationTime: string;
  fileIdModifier: string;
  batchCount: number;
  /** Entry detail records (addenda not counted). */
  entryCount: number;
  totalDebit: bigint;
  totalCredit: bigint;
}

export interface NachaAckReason {
  code: string;
  text: string;
}

export interface NachaAckEntryRejection extends NachaAckReason {
  traceNumber: string;
}

export interface NachaAck {
  fileName: string;
  fileSha256: string;
  /** null when the bank could not read the file (REJECTED only). */
  file: NachaAckFileSummary | null;
  acknowledgedAt: Date;
  status: 'ACCEPTED' | 'REJECTED';
  /** Required with REJECTED, absent with ACCEPTED. */
  reason?: NachaAckReason;
  /** Only with ACCEPTED. */
  entryRejections: NachaAckEntryRejection[];
}

const FILE_NAME = /^[A-Za-z0-9._-]{1,255}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const CODE = /^[A-Z0-9_-]{1,20}$/;
const TEXT = /^[\x21-\x7e](?:[\x20-\x7e]{0,198}[\x21-\x7e])?$/;
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const UNKNOWN = '-';
const NO_TIME = '----';

/** The file name, hash and summary to acknowledge, from the bytes received; summary null when they are not valid NACHA. */
export function nachaAckSubject(fileName: string, bytes: string | Uint8Array): { fileName: string; fileSha256: string; file: NachaAckFileSummary | null } {
  const fileSha256 = createHash('sha256').update(bytes).digest('hex');
  let file: NachaAckFileSummary | null = null;
  try {
    const text = typeof bytes === 'string' ? bytes : new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const f = parseNachaFile(text);
    file = {
      fileCreationDate: f.header.fileCreationDate,
      fileCreationTime: f.header.fileCreationTime,
      fileIdModifier: f.header.fileIdModifier,
      batchCount: f.control.batchCount,
      entryCount: f.batches.reduce((n, b) => n + b.entries.length, 0),
      totalDebit: f.control.totalDebit,
      totalCredit: f.control.totalCredit,
    };
  } catch (err) {
    if (!(err instanceof NachaError) && !(err instanceof TypeError)) throw err;
  }
  return { fileName, fileSha256, file };
}

function checkReason(field: string, r: NachaAckReason | undefined): NachaAckReason {
  if (!r || !CODE.test(r.code ?? '')) throw new NachaError(`${field}.code`, 'must be 1-20 of A-Z, 0-9, "_", "-"');
  if (!TEXT.test(r.text ?? '')) throw new NachaError(`${field}.text`, 'must be 1-200 printable ASCII characters without leading or trailing space');
  return r;
}

function instant(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function buildNachaAck(ack: NachaAck): string {
  if (!FILE_NAME.test(ack.fileName ?? '')) throw new NachaError('fileName', 'must be 1-255 of letters, digits, ".", "_", "-"');
  if (!SHA256.test(ack.fileSha256 ?? '')) throw new NachaError('fileSha256', 'must be 64 lower-case hex digits');
  if (!(ack.acknowledgedAt instanceof Date) || Number.isNaN(ack.acknowledgedAt.getTime())) throw new NachaError('acknowledgedAt', 'must be a valid Date');
  if (ack.status !== 'ACCEPTED' && ack.status !== 'REJECTED') throw new NachaError('status', 'must be ACCEPTED or REJECTED');
  const rejections = ack.entryRejections ?? [];
  const lines = [NACHA_ACK_MAGIC, `FILE-NAME: ${ack.fileName}`, `FILE-SHA256: ${ack.fileSha256}`];
  const f = ack.file;
  if (f === null) {
    if (ack.status !== 'REJECTED') throw new NachaError('file', 'an unreadable file can only be REJECTED');
    lines.push(...['FILE-CREATION', 'BATCH-COUNT', 'ENTRY-COUNT', 'TOTAL-DEBIT', 'TOTAL-CREDIT'].map((k) => `${k}: ${UNKNOWN}`));
  } else {
    if (!isValidYymmdd(f.fileCreationDate ?? '')) throw new NachaError('file.fileCreationDate', 'must be YYMMDD');
    if (f.fileCreationTime !== '' && !isValidHhmm(f.fileCreationTime ?? '')) throw new NachaError('file.fileCreationTime', 'must be HHMM or empty');
    if (!/^[A-Z0-9]$/.test(f.fileIdModifier ?? '')) throw new NachaError('file.fileIdModifier', 'must be A-Z or 0-9');
    for (const k of ['batchCount', 'entryCount'] as const)
      if (!Number.isSafeInteger(f[k]) || f[k] < 0) throw new NachaError(`file.${k}`, 'must be a natural number');
    for (const k of ['totalDebit', 'totalCredit'] as const)
      if (typeof f[k] !== 'bigint' || f[k] < 0n) throw new NachaError(`file.${k}`, 'must be a bigint of cents, zero or more');
    lines.push(
      `FILE-CREATION: ${f.fileCreationDate} ${f.fileCreationTime || NO_TIME} ${f.fileIdModifier}`,
      `BATCH-COUNT: ${f.batchCount}`,
      `ENTRY-COUNT: ${f.entryCount}`,
      `TOTAL-DEBIT: ${f.totalDebit}`,
      `TOTAL-CREDIT: ${f.totalCredit}`,
    );
  }
  lines.push(`ACKNOWLEDGED-AT: ${instant(ack.acknowledgedAt)}`, `STATUS: ${ack.status}`);
  if (ack.status === 'REJECTED') {
    const r = checkReason('reason', ack.reason);
    if (rejections.length > 0) throw new NachaError('entryRejections', 'a REJECTED file has no per-entry rejections: every entry is refused');
    lines.push(`REASON: ${r.code} ${r.text}`);
  } else {
    if (ack.reason !== undefined) throw new NachaError('reason', 'only a REJECTED file has a reason');
    rejections.forEach((e, i) => {
      if (!isDigits(e.traceNumber ?? '', 15)) throw new NachaError(`entryRejections[${i}].traceNumber`, 'must be 15 digits');
      if (rejections.findIndex((x) => x.traceNumber === e.traceNumber) !== i)
        throw new NachaError(`entryRejections[${i}].traceNumber`, `${e.traceNumber} is rejected twice`);
      const r = checkReason(`entryRejections[${i}]`, e);
      lines.push(`ENTRY-REJECTED: ${e.traceNumber} ${r.code} ${r.text}`);
    });
  }
  lines.push('END');
  return lines.join('\n') + '\n';
}

/** Reads an acknowledgement strictly: every line in its place, every value well-formed. */
export function parseNachaAck(text: string): NachaAck {
  if (typeof text !== 'string') throw new NachaError('ack', 'an acknowledgement is text');
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  let i = 0;
  const fail = (message: string, line = i + 1): never => {
    throw new NachaError(`line ${line}`, message);
  };
  if (lines[0] !== NACHA_ACK_MAGIC) fail(`an acknowledgement starts with ${NACHA_ACK_MAGIC}`);
  i = 1;
  const take = (key: string): string => {
    const l = lines[i];
    if (l === undefined) fail(`the acknowledgement ends before ${key} (truncated?)`);
    const prefix = `${key}: `;
    if (!l.startsWith(prefix)) fail(`expected ${key}, found ${JSON.stringify(l.slice(0, 40))}`);
    i += 1;
    return l.slice(prefix.length);
  };
  const fileName = take('FILE-NAME');
  if (!FILE_NAME.test(fileName)) fail('FILE-NAME must be 1-255 of letters, digits, ".", "_", "-"', i);
  const fileSha256 = take('FILE-SHA256');
  if (!SHA256.test(fileSha256)) fail('FILE-SHA256 must be 64 lower-case hex digits', i);

  const creation = take('FILE-CREATION');
  const creationLine = i;
  const raw = { batchCount: take('BATCH-COUNT'), entryCount: take('ENTRY-COUNT'), totalDebit: take('TOTAL-DEBIT'), totalCredit: take('TOTAL-CREDIT') };
  const unknown = [creation, ...Object.values(raw)].filter((v) => v === UNKNOWN).length;
  let file: NachaAckFileSummary | null = null;
  if (unknown === 5) file = null;
  else if (unknown > 0) fail('FILE-CREATION, BATCH-COUNT, ENTRY-COUNT and the totals are all "-" or none', creationLine);
  else {
    const m = /^([0-9]{6}) ([0-9]{4}|----) ([A-Z0-9])$/.exec(creation);
    if (!m || !isValidYymmdd(m[1]) || (m[2] !== NO_TIME && !isValidHhmm(m[2]))) fail('FILE-CREATION must be "YYMMDD HHMM modifier"', creationLine);
    const natural = (v: string, key: string, line: number): string =>
      /^(0|[1-9][0-9]*)$/.test(v) ? v : fail(`${key} must be a natural number without leading zeros`, line);
    file = {
      fileCreationDate: m![1],
      fileCreationTime: m![2] === NO_TIME ? '' : m![2],
      fileIdModifier: m![3],
      batchCount: Number(natural(raw.batchCount, 'BATCH-COUNT', creationLine + 1)),
      entryCount: Number(natural(raw.entryCount, 'ENTRY-COUNT', creationLine + 2)),
      totalDebit: BigInt(natural(raw.totalDebit, 'TOTAL-DEBIT', creationLine + 3)),
      totalCredit: BigInt(natural(raw.totalCredit, 'TOTAL-CREDIT', creationLine + 4)),
    };
  }

  const at = take('ACKNOWLEDGED-AT');
  const t = INSTANT.exec(at);
  const acknowledgedAt = new Date(at);
  if (!t || Number.isNaN(acknowledgedAt.getTime()) || instant(acknowledgedAt) !== at) fail('ACKNOWLEDGED-AT must be a UTC instant YYYY-MM-DDTHH:MM:SSZ', i);
  const status = take('STATUS');
  if (status !== 'ACCEPTED' && status !== 'REJECTED') fail('STATUS must be ACCEPTED or REJECTED', i);
  if (file === null && status !== 'REJECTED') fail('an unreadable file can only be REJECTED', i);

  const codeAndText = (v: string, key: string): NachaAckReason => {
    const sp = v.indexOf(' ');
    const code = sp < 0 ? v : v.slice(0, sp);
    const reasonText = sp < 0 ? '' : v.slice(sp + 1);
    if (!CODE.test(code)) fail(`${key} code must be 1-20 of A-Z, 0-9, "_", "-"`, i);
    if (!TEXT.test(reasonText)) fail(`${key} text must be 1-200 printable ASCII characters`, i);
    return { code, text: reasonText };
  };
  let reason: NachaAckReason | undefined;
  const entryRejections: NachaAckEntryRejection[] = [];
  if (status === 'REJECTED') reason = codeAndText(take('REASON'), 'REASON');
  else
    while (lines[i]?.startsWith('ENTRY-REJECTED: ')) {
      const v = take('ENTRY-REJECTED');
      const trace = v.slice(0, 15);
      if (!isDigits(trace, 15) || v[15] !== ' ') fail('ENTRY-REJECTED starts with a 15-digit trace number', i);
      if (entryRejections.some((e) => e.traceNumber === trace)) fail(`entry ${trace} is rejected twice`, i);
      entryRejections.push({ traceNumber: trace, ...codeAndText(v.slice(16), 'ENTRY-REJECTED') });
    }
  if (lines[i] !== 'END')
    fail(lines[i] === undefined ? 'the acknowledgement ends without END (truncated?)' : `expected END, found ${JSON.stringify(lines[i].slice(0, 40))}`);
  if (i + 1 !== lines.length) fail('nothing may follow END', i + 2);
  return { fileName, fileSha256, file, acknowledgedAt, status: status as NachaAck['status'], ...(reason ? { reason } : {}), entryRejections };
}

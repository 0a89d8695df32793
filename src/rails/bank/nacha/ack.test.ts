import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type NachaAck, buildNachaAck, nachaAckSubject, parseNachaAck } from './ack.js';
import { buildNachaFile } from './build.js';
import { NachaError } from './errors.js';
import { fixture } from './fixtures/edit.js';
import { MIXED_DEBIT } from './fixtures/inputs.js';

const built = buildNachaFile(MIXED_DEBIT);

const accepted: NachaAck = {
  ...nachaAckSubject('corridor-261127-C.ach', built.text),
  acknowledgedAt: new Date('2026-11-27T19:20:00Z'),
  status: 'ACCEPTED',
  entryRejections: [{ traceNumber: '121042880000003', code: 'R03', text: 'No account/unable to locate account' }],
};

const ACCEPTED_TEXT = [
  'CORRIDOR-NACHA-ACK/1',
  'FILE-NAME: corridor-261127-C.ach',
  `FILE-SHA256: ${built.sha256}`,
  'FILE-CREATION: 261127 1405 C',
  'BATCH-COUNT: 3',
  'ENTRY-COUNT: 4',
  'TOTAL-DEBIT: 3277',
  'TOTAL-CREDIT: 10000',
  'ACKNOWLEDGED-AT: 2026-11-27T19:20:00Z',
  'STATUS: ACCEPTED',
  'ENTRY-REJECTED: 121042880000003 R03 No account/unable to locate account',
  'END',
  '',
].join('\n');

function refusal(f: () => unknown): NachaError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(NachaError);
    return err as NachaError;
  }
  throw new Error('accepted');
}

describe('NACHA acknowledgement', () => {
  it('summarises the acknowledged file from its bytes', () => {
    const subject = nachaAckSubject('corridor-261127-C.ach', Buffer.from(built.text));
    expect(subject).toEqual({
      fileName: 'corridor-261127-C.ach',
      fileSha256: built.sha256,
      file: { fileCreationDate: '261127', fileCreationTime: '1405', fileIdModifier: 'C', batchCount: 3, entryCount: 4, totalDebit: 3277n, totalCredit: 10000n },
    });
  });

  it('writes the documented lines and reads them back', () => {
    const text = buildNachaAck(accepted);
    expect(text).toBe(ACCEPTED_TEXT);
    expect(parseNachaAck(text)).toEqual(accepted);
    expect(parseNachaAck(text.replaceAll('\n', '\r\n').trimEnd())).toEqual(accepted);
  });

  it('writes a rejection with its reason, also for a file that could not be read', () => {
    const xml = '<?xml version="1.0"?><Document/>';
    const subject = nachaAckSubject('pain001.xml', xml);
    expect(subject.file).toBeNull();
    expect(subject.fileSha256).toBe(createHash('sha256').update(xml).digest('hex'));
    const rejected: NachaAck = {
      ...subject,
      acknowledgedAt: new Date('2026-11-27T19:21:00Z'),
      status: 'REJECTED',
      reason: { code: 'NOT-NACHA', text: 'Not a NACHA file' },
      entryRejections: [],
    };
    const text = buildNachaAck(rejected);
    expect(text.split('\n').slice(3, 8)).toEqual(['FILE-CREATION: -', 'BATCH-COUNT: -', 'ENTRY-COUNT: -', 'TOTAL-DEBIT: -', 'TOTAL-CREDIT: -']);
    expect(text).toContain('\nSTATUS: REJECTED\nREASON: NOT-NACHA Not a NACHA file\nEND\n');
    expect(parseNachaAck(text)).toEqual(rejected);
  });

  it('reads a file whose creation time was left blank', () => {
    const noTime = fixture('ppd-credit.ach').replace('2611271405A', '261127    A');
    const subject = nachaAckSubject('f.ach', noTime);
    expect(subject.file?.fileCreationTime).toBe('');
    const ack: NachaAck = { ...subject, acknowledgedAt: new Date('2026-11-27T19:20:00Z'), status: 'ACCEPTED', entryRejections: [] };
    expect(buildNachaAck(ack)).toContain('FILE-CREATION: 261127 ---- A\n');
    expect(parseNachaAck(buildNachaAck(ack))).toEqual(ack);
  });

  it('refuses to write an inconsistent acknowledgement', () => {
    expect(refusal(() => buildNachaAck({ ...accepted, status: 'REJECTED' })).field).toBe('reason.code');
    expect(refusal(() => buildNachaAck({ ...accepted, status: 'REJECTED', reason: { code: 'X', text: 'y' } })).field).toBe('entryRejections');
    expect(refusal(() => buildNachaAck({ ...accepted, reason: { code: 'X', text: 'y' } })).field).toBe('reason');
    expect(refusal(() => buildNachaAck({ ...accepted, file: null })).field).toBe('file');
    expect(refusal(() => buildNachaAck({ ...accepted, fileSha256: 'ABC' })).field).toBe('fileSha256');
    expect(refusal(() => buildNachaAck({ ...accepted, fileName: '../etc/passwd' })).field).toBe('fileName');
    expect(refusal(() => buildNachaAck({ ...accepted, entryRejections: [{ traceNumber: '1', code: 'R03', text: 'x' }] })).field).toBe(
      'entryRejections[0].traceNumber',
    );
    expect(refusal(() => buildNachaAck({ ...accepted, entryRejections: [{ traceNumber: '121042880000003', code: 'R03', text: 'two\nlines' }] })).field).toBe(
      'entryRejections[0].text',
    );
    expect(refusal(() => buildNachaAck({ ...accepted, file: { ...accepted.file!, totalDebit: 1 as unknown as bigint } })).field).toBe('file.totalDebit');
    const twice = [...accepted.entryRejections, ...accepted.entryRejections];
    expect(refusal(() => buildNachaAck({ ...accepted, entryRejections: twice })).field).toBe('entryRejections[1].traceNumber');
  });

  it.each<[string, (t: string) => string, RegExp]>([
    ['a wrong first line', (t) => t.replace('CORRIDOR-NACHA-ACK/1', 'ACK'), /line 1: an acknowledgement starts with/],
    ['a missing END', (t) => t.replace('END\n', ''), /line 12: .*without END \(truncated\?\)/],
    ['a truncated text', (t) => t.split('\n').slice(0, 5).join('\n'), /line 6: the acknowledgement ends before ENTRY-COUNT/],
    ['lines out of order', (t) => t.replace(/BATCH-COUNT: 3\nENTRY-COUNT: 4/, 'ENTRY-COUNT: 4\nBATCH-COUNT: 3'), /line 5: expected BATCH-COUNT/],
    ['an unknown line', (t) => t.replace('END', 'NOTE: hi\nEND'), /line 12: expected END/],
    ['text after END', (t) => t + 'more\n', /line 13: nothing may follow END/],
    ['an upper-case hash', (t) => t.replace(built.sha256, built.sha256.toUpperCase()), /line 3: FILE-SHA256/],
    ['a negative total', (t) => t.replace('TOTAL-DEBIT: 3277', 'TOTAL-DEBIT: -3277'), /line 7: TOTAL-DEBIT/],
    ['a total with leading zeros', (t) => t.replace('TOTAL-DEBIT: 3277', 'TOTAL-DEBIT: 03277'), /line 7: TOTAL-DEBIT/],
    ['a partly unknown file', (t) => t.replace('BATCH-COUNT: 3', 'BATCH-COUNT: -'), /line 4: .*all "-" or none/],
    ['an impossible instant', (t) => t.replace('2026-11-27T19:20:00Z', '2026-11-31T19:20:00Z'), /line 9: ACKNOWLEDGED-AT/],
    ['an unknown status', (t) => t.replace('STATUS: ACCEPTED', 'STATUS: OK'), /line 10: STATUS/],
    ['a short trace number', (t) => t.replace('121042880000003 R03', '12104288003 R03'), /line 11: ENTRY-REJECTED starts with a 15-digit trace number/],
    ['a rejection without text', (t) => t.replace(' No account/unable to locate account', ''), /line 11: ENTRY-REJECTED text/],
    ['an entry rejected twice', (t) => t.replace(/(ENTRY-REJECTED: .*\n)/, '$1$1'), /line 12: entry 121042880000003 is rejected twice/],
    ['a REJECTED status without reason', (t) => t.replace('STATUS: ACCEPTED\nENTRY-REJECTED', 'STATUS: REJECTED\nENTRY-REJECTED'), /line 11: expected REASON/],
  ])('refuses %s', (_, change, message) => {
    const err = refusal(() => parseNachaAck(change(ACCEPTED_TEXT)));
    expect(err.message).toMatch(message);
  });
});

/**
 * `npx corridor bank …` as an operator types it, against a real database: a file listed and
 * downloaded byte for byte, an exception listed and resolved with a note, a resolution without a
 * way refused, and each command in the audit log. The rules themselves are tested in
 * test/bank-operations.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createContainer } from '../../src/container.js';
import { newId } from '../../src/common/ids.js';
import { raiseException } from '../../src/rails/bank/exceptions.js';
import { dialect } from '../helpers/env.js';
import { cli, serverEnvironment } from '../helpers/server.js';

describe('operator commands for the bank rails', { timeout: 180_000 }, async () => {
  const { env, dataDir, cleanup } = await serverEnvironment(dialect);
  afterAll(cleanup);
  const content = Buffer.from('101 021000021 1987654321...\n');
  const fileId = newId('BankFile');
  let exceptionId = '';
  {
    const c = await createContainer(loadConfig(env));
    try {
      await c.db.tx(async (trx) => {
        await trx
          .insertInto('bank_files')
          .values({
            id: fileId,
            bank_id: 'cli-bank',
            format: 'NACHA',
            name: 'CLI-BANK-20261130-1.ach',
            sha256: 'a'.repeat(64),
            content,
            window_at: '2026-11-30T10:15:00.000Z',
            effective_date: '2026-12-01',
            currency: 'USD',
            entry_count: 2,
            total_amount: 12_345n,
            status: 'UPLOADED',
            reason: null,
            built_at: '2026-11-30T10:15:01.000Z',
            uploaded_at: '2026-11-30T10:15:02.000Z',
            acknowledged_at: null,
          })
          .execute();
        exceptionId = await raiseException(trx, {
          bankId: 'cli-bank',
          kind: 'FILE_REFUSED',
          subjectId: 'BankInbound:x',
          details: { why: 'not a bank file', file: 'garbage.txt' },
          now: new Date().toISOString(),
        });
      });
    } finally {
      await c.close();
    }
  }

  it('lists and downloads a file, resolves an exception with a note, and records each command', () => {
    const files = cli(['bank', 'files', '--bank', 'cli-bank', '--json'], env);
    expect(files.status, files.stderr).toBe(0);
    expect(JSON.parse(files.stdout.trim())).toMatchObject({
      id: fileId,
      status: 'UPLOADED',
      entryCount: 2,
      totalAmount: 12_345,
      uploadedAt: '2026-11-30T10:15:02.000Z',
    });

    const out = path.join(dataDir, 'downloaded.ach');
    const download = cli(['bank', 'file', 'download', fileId, '--out', out], env);
    expect(download.status, download.stderr).toBe(0);
    expect(fs.readFileSync(out).equals(content)).toBe(true);
    // An existing file is not overwritten.
    const again = cli(['bank', 'file', 'download', fileId, '--out', out], env);
    expect(again.status).not.toBe(0);
    expect(again.stderr).toMatch(/cannot write .*downloaded\.ach/);

    const status = cli(['bank', 'status', '--json'], env);
    expect(JSON.parse(status.stdout.trim())).toMatchObject({ bankId: 'cli-bank', configured: false, filesByStatus: { UPLOADED: 1 }, openExceptions: 1 });

    const open = cli(['bank', 'exceptions', '--json'], env);
    expect(JSON.parse(open.stdout.trim())).toMatchObject({ id: exceptionId, kind: 'FILE_REFUSED', status: 'OPEN', ageSeconds: expect.any(Number) });

    const noWay = cli(['bank', 'exception', 'resolve', exceptionId], env);
    expect(noWay.status).not.toBe(0);
    expect(noWay.stderr).toMatch(/--note .*--apply-to .*--send-back/);
    const wrongWay = cli(['bank', 'exception', 'resolve', exceptionId, '--send-back'], env);
    expect(wrongWay.status).not.toBe(0);
    expect(wrongWay.stderr).toMatch(/only an UNMATCHED_CREDIT .* can be sent back/);

    const resolved = cli(['bank', 'exception', 'resolve', exceptionId, '--note', 'the bank confirmed it was a test upload', '--json'], env);
    expect(resolved.status, resolved.stderr).toBe(0);
    const operator = `${os.userInfo().username}@${os.hostname()}`;
    expect(JSON.parse(resolved.stdout)).toMatchObject({
      status: 'RESOLVED',
      resolution: { action: 'NOTE', note: 'the bank confirmed it was a test upload', by: { type: 'OPERATOR', name: operator } },
    });
    expect(cli(['bank', 'exceptions'], env).stdout).toBe('no open bank exception\n');

    const audit = cli(['audit', 'list', '--action', 'bank exception resolve', '--json'], env);
    const entries = audit.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.actor, e.target, e.outcome])).toEqual([
      [operator, exceptionId, 'SUCCEEDED'],
      [operator, exceptionId, 'FAILED'],
      [operator, exceptionId, 'FAILED'],
    ]);
  });
});

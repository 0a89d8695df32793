import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { print, withContainer } from '../../cli/context.js';
import type { Container } from '../../container.js';
import { isId } from '../../common/ids.js';
import { BankKeyError, importBankKey, listBankKeys } from './credentials.js';
import {
  BankOperationError,
  bankOperationsDeps,
  createBankOperations,
  EXCEPTION_KINDS,
  FILE_STATUSES,
  type BankOperations,
  type ExceptionSummary,
  type FileSummary,
  type ResolveAction,
} from './operations.js';

/** JSON with amounts as numbers of minor units, as the API writes them. */
const json = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v));

function idOf(type: 'Transaction' | 'BankFile' | 'BankException' | 'InternalAccount') {
  return (value: string) => {
    if (!isId(type, value)) throw new InvalidArgumentError(`must be a ${type} id (${type}:<uuid>)`);
    return value;
  };
}

function oneOf(values: readonly string[]) {
  return (value: string) => {
    const v = value.toUpperCase();
    if (!values.includes(v)) throw new InvalidArgumentError(`must be one of ${values.join(', ')}`);
    return v;
  };
}

/** The operator at this terminal, named as the audit log names them (src/audit/cli.ts). */
function operator(): { type: 'OPERATOR'; name: string } {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    /* no passwd entry (containers) */
  }
  return { type: 'OPERATOR', name: `${user}@${os.hostname()}` };
}

function age(seconds: number): string {
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(seconds / 86_400)}d${Math.floor((seconds % 86_400) / 3600)}h`;
}

const fileLine = (f: FileSummary) =>
  `${f.id}  ${f.bankId}  ${f.format}  ${f.status.padEnd(9)}  ${f.name}  ${f.entryCount} entries  ${f.totalAmount} ${f.currency}  built ${f.builtAt}` +
  `${f.uploadedAt ? `  uploaded ${f.uploadedAt}` : ''}${f.acknowledgedAt ? `  acknowledged ${f.acknowledgedAt}` : ''}${f.reason ? `  (${f.reason})` : ''}`;

const exceptionLine = (e: ExceptionSummary) =>
  `${e.id}  ${e.bankId}  ${e.kind.padEnd(17)}  ${e.status.padEnd(8)}  ${age(e.ageSeconds).padStart(6)}  ` +
  `${e.amount === null ? '-' : `${e.amount} ${e.currency}`}${e.reference ? `  ref ${e.reference}` : ''}` +
  `${e.resolution ? `  resolved by ${e.resolution.by.name}: ${e.resolution.action}${e.resolution.note ? ` "${e.resolution.note}"` : ''}` : ''}`;

/**
 * `npx corridor bank key import <bankId> <file>` and `bank key list`: the SFTP client keys of the
 * partner banks, kept sealed under the KEK in the database (bank/credentials.ts).
 */
export function registerBankCommands(program: Command) {
  const bank = program.command('bank').description('partner banks of the production bank rails (BANKS_FILE)');

  /** Runs an operation; a refusal becomes the command's error (exit 1, recorded as FAILED in the audit log). */
  const operate = (fn: (ops: BankOperations, c: Container) => Promise<void>) =>
    withContainer(async (c) => {
      try {
        await fn(createBankOperations(bankOperationsDeps(c)), c);
      } catch (e) {
        if (e instanceof BankOperationError) program.error(`error: ${e.message}`);
        throw e;
      }
    });

  bank
    .command('status')
    .description('per bank: payouts waiting for a cut-off, files by status, open exceptions, the last report read')
    .option('--json', 'print one JSON object per bank')
    .action(async (opts: { json?: boolean }) => {
      await operate(async (ops) => {
        const banks = await ops.status();
        if (opts.json) for (const b of banks) process.stdout.write(`${json(b)}\n`);
        else if (banks.length === 0) process.stdout.write('no partner bank is configured (BANKS_FILE) and none has rows\n');
        else
          for (const b of banks) {
            const files = Object.entries(b.filesByStatus).map(([s, n]) => `${n} ${s}`);
            const amounts = Object.entries(b.queuedAmounts).map(([cur, a]) => `${a} ${cur}`);
            process.stdout.write(
              `${b.bankId} (${b.name})${b.configured ? '' : ' — no longer in BANKS_FILE'}\n` +
                `  queued payouts   ${b.queuedPayouts}${amounts.length ? ` (${amounts.join(', ')}, minor units)` : ''}\n` +
                `  files            ${files.length ? files.join(', ') : 'none'}\n` +
                `  open exceptions  ${b.openExceptions}\n` +
                `  last report read ${b.lastReportAt ?? 'never'}\n`,
            );
          }
      });
    });

  bank
    .command('files')
    .description('payout files, newest first (amounts in minor units)')
    .option('--bank <bankId>', 'only this bank')
    .option('--status <status>', `only files in this status: ${FILE_STATUSES.join(', ')}`, oneOf(FILE_STATUSES))
    .option('--limit <n>', 'at most this many (1-1000)', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000');
      return n;
    })
    .option('--json', 'print one JSON object per file')
    .action(async (opts: { bank?: string; status?: string; limit?: number; json?: boolean }) => {
      await operate(async (ops) => {
        const files = await ops.listFiles({ bankId: opts.bank, status: opts.status, limit: opts.limit });
        if (opts.json) for (const f of files) process.stdout.write(`${json(f)}\n`);
        else process.stdout.write(files.length ? files.map((f) => `${fileLine(f)}\n`).join('') : 'no bank file matches\n');
      });
    });

  const file = bank.command('file').description('one payout file');
  file
    .command('download')
    .description('the bytes of a file exactly as archived before upload (what the bank received)')
    .argument('<fileId>', 'BankFile:<id>', idOf('BankFile'))
    .option('--out <file>', 'write to this file (refused if it exists) instead of standard output')
    .action(async (fileId: string, opts: { out?: string }) => {
      await operate(async (ops) => {
        const { file: f, content } = await ops.fileContent(fileId);
        if (!opts.out) {
          process.stdout.write(content);
          return;
        }
        const out = path.resolve(opts.out);
        try {
          // 'wx': an existing file is never overwritten by an archive copy.
          fs.writeFileSync(out, content, { flag: 'wx' });
        } catch (e) {
          program.error(`error: cannot write ${out}: ${(e as Error).message}`);
        }
        process.stderr.write(`wrote ${f.name} (${content.length} bytes, sha256 ${f.sha256}) to ${out}\n`);
      });
    });
  file
    .command('payouts')
    .description('the payouts (and pulls) a file carries (amounts in minor units)')
    .argument('<fileId>', 'BankFile:<id>', idOf('BankFile'))
    .option('--json', 'print one JSON object per payout')
    .action(async (fileId: string, opts: { json?: boolean }) => {
      await operate(async (ops) => {
        const payouts = await ops.filePayouts(fileId);
        if (opts.json) for (const p of payouts) process.stdout.write(`${json(p)}\n`);
        else
          process.stdout.write(
            payouts.length
              ? payouts
                  .map(
                    (p) =>
                      `${p.transactionId}  ${p.direction}  ${p.amount} ${p.currency}  ${p.status}  ref ${p.reference}  ${p.counterpartyName}${p.reasonCode ? `  ${p.reasonCode}` : ''}\n`,
                  )
                  .join('')
              : 'no payout in this file\n',
          );
      });
    });

  bank
    .command('payout')
    .description('payouts queued for a bank')
    .command('cancel')
    .description('cancel a QUEUED payout (or pull) before its cut-off: the payment FAILS and the payer is refunded')
    .argument('<transactionId>', 'Transaction:<id>', idOf('Transaction'))
    .option('--json', 'print the payout')
    .action(async (transactionId: string, opts: { json?: boolean }) => {
      await operate(async (ops) => {
        const p = await ops.cancelPayout(transactionId);
        process.stdout.write(
          opts.json
            ? `${json(p)}\n`
            : `payout ${p.transactionId} (${p.amount} ${p.currency} to ${p.counterpartyName}) cancelled; the payment FAILED and the payer is refunded\n`,
        );
      });
    });

  bank
    .command('exceptions')
    .description('the exceptions queue: breaks between the banks and the ledger, with their age (open ones, oldest first)')
    .option('--open', 'only open exceptions (the default)')
    .option('--all', 'open and resolved exceptions, newest first')
    .option('--kind <kind>', `only this kind: ${EXCEPTION_KINDS.join(', ')}`, oneOf(EXCEPTION_KINDS))
    .option('--bank <bankId>', 'only this bank')
    .option('--json', 'print one JSON object per exception')
    .action(async (opts: { open?: boolean; all?: boolean; kind?: string; bank?: string; json?: boolean }) => {
      if (opts.open && opts.all) program.error('error: choose --open or --all, not both');
      await operate(async (ops) => {
        const list = await ops.listExceptions({ state: opts.all ? 'ALL' : 'OPEN', kind: opts.kind, bankId: opts.bank });
        if (opts.json) for (const e of list) process.stdout.write(`${json(e)}\n`);
        else
          process.stdout.write(list.length ? list.map((e) => `${exceptionLine(e)}\n`).join('') : opts.all ? 'no bank exception\n' : 'no open bank exception\n');
      });
    });

  bank
    .command('exception')
    .description('one exception')
    .command('resolve')
    .description(
      'resolve an exception: --note for any but an unmatched credit; an UNMATCHED_CREDIT is applied to an internal account (--apply-to) or sent back to its payer (--send-back); ' +
        'the UNMATCHED_DEBIT of that payment back is resolved with --send-back too, which pairs it with the credit',
    )
    .argument('<exceptionId>', 'BankException:<id>', idOf('BankException'))
    .option('--note <text>', 'why (required alone; kept with the other two)')
    .option('--apply-to <accountId>', 'InternalAccount:<id> (PRODUCTION, same currency) that receives the credit as a deposit', idOf('InternalAccount'))
    .option('--send-back', 'the operator returns the credit to its payer')
    .option('--json', 'print the exception')
    .action(async (id: string, opts: { note?: string; applyTo?: string; sendBack?: boolean; json?: boolean }) => {
      const chosen = [opts.applyTo !== undefined, !!opts.sendBack].filter(Boolean).length;
      if (chosen > 1) program.error('error: choose one of --apply-to and --send-back');
      if (chosen === 0 && opts.note === undefined) program.error('error: say how: --note "…", --apply-to <InternalAccount id> or --send-back');
      const action: ResolveAction =
        opts.applyTo !== undefined
          ? { action: 'APPLY_TO', accountId: opts.applyTo, note: opts.note }
          : opts.sendBack
            ? { action: 'SEND_BACK', note: opts.note }
            : { action: 'NOTE', note: opts.note! };
      await operate(async (ops) => {
        const e = await ops.resolveException(id, action, operator());
        process.stdout.write(opts.json ? `${json(e)}\n` : `${exceptionLine(e)}\n`);
      });
    });
  const key = bank.command('key').description('the SFTP client key Corridor uses at each bank, sealed under the key-encryption key');
  key
    .command('import')
    .description('store a private key (OpenSSH or PEM, no passphrase) for a bank, replacing an earlier one; the file can be deleted afterwards')
    .argument('<bankId>', 'the bank id in BANKS_FILE')
    .argument('<file>', 'the private key file')
    .option('--json', 'print {bankId, publicKeySha256, replaced}')
    .action(async (bankId: string, file: string, opts: { json?: boolean }) => {
      await withContainer(async (c) => {
        // A key sealed with a key that dies with this process could never be opened again.
        if (c.secrets.source === 'this process only')
          program.error(`no key-encryption key: set CORRIDOR_KEK or CORRIDOR_KEK_FILE, or run where ${c.config.dataDir} is writable`);
        let done;
        try {
          done = await importBankKey(c.db, c.secrets, bankId, file);
        } catch (e) {
          if (e instanceof BankKeyError) program.error(e.message);
          throw e;
        }
        print(
          !!opts.json,
          done,
          `${done.replaced ? 'replaced' : 'imported'} the SFTP key of bank ${done.bankId} (public key ${done.publicKeySha256}), sealed under key-encryption key ${c.secrets.currentKekId}\n` +
            `${file} is no longer needed: delete it, and remove sftp.privateKeyFile from BANKS_FILE`,
        );
      });
    });
  key
    .command('list')
    .description('banks with an imported key, and the fingerprint of each public key')
    .option('--json', 'print one {bankId, publicKeySha256, createdAt, updatedAt} per line')
    .action(async (opts: { json?: boolean }) => {
      await withContainer(async (c) => {
        const keys = await listBankKeys(c.db);
        if (opts.json) for (const k of keys) print(true, { ...k }, '');
        else
          process.stdout.write(
            keys.length ? keys.map((k) => `${k.bankId}  ${k.publicKeySha256}  imported ${k.updatedAt}\n`).join('') : 'no bank key imported\n',
          );
      });
    });
}

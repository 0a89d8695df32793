import type { Command } from 'commander';
import { print, withContainer } from '../cli/context.js';
import { ledgerSummary, verifyLedger } from './verify.js';

/** `npx corridor ledger verify`: exit code 1 when anything does not balance. */
export function registerLedgerCommands(program: Command) {
  const ledger = program.command('ledger').description('the double-entry ledger');
  ledger
    .command('verify')
    .description('recompute every balance from its transfers and check that everything sums to zero')
    .option('--json', 'print {ok, accounts, journals, transfers, problems}')
    .action(async (opts: { json?: boolean }) => {
      const ok = await withContainer(async (c) => {
        const problems = await verifyLedger(c.db);
        const summary = await ledgerSummary(c.db);
        const lines = [
          `${summary.accounts} accounts, ${summary.journals} journals, ${summary.transfers} transfers checked`,
          ...problems.map((p) => `  ${p.kind} ${p.subject}: ${p.message}`),
          problems.length ? `${problems.length} problem(s): the ledger does NOT balance` : 'ok: every balance matches its transfers and every sum is zero',
        ];
        print(!!opts.json, { ok: problems.length === 0, ...summary, problems }, lines.join('\n'));
        return problems.length === 0;
      });
      if (!ok) process.exitCode = 1;
    });
}

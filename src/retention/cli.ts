import type { Command } from 'commander';
import { print, withContainer } from '../cli/context.js';
import { createRetentionSweeper } from './sweeper.js';

/** `npx corridor retention sweep`: what the server's sweeper does, at once, until nothing old remains. */
export function registerRetentionCommands(program: Command) {
  program
    .command('retention')
    .description('old webhook events, deliveries, attempts and receiver lookups (RETENTION_* windows)')
    .command('sweep')
    .description('remove every row older than its retention window now, in small batches')
    .option('--json', 'print the rows removed per table')
    .action(async (opts: { json?: boolean }) => {
      await withContainer(async (c) => {
        const total = await createRetentionSweeper({ db: c.db, clock: c.clock, settings: c.config.retention }).sweepAll();
        print(
          !!opts.json,
          { ...total },
          Object.entries(total)
            .map(([k, n]) => `${k}: ${n} removed`)
            .join('\n'),
        );
      });
    });
}

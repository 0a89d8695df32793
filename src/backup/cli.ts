import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { databaseUrl } from '../container.js';
import { print } from '../cli/context.js';
import { BackupError, backupSqlite } from './backup.js';

/** `npx corridor backup --to FILE`: an online copy of the embedded SQLite database. */
export function registerBackupCommands(program: Command) {
  program
    .command('backup')
    .description('copy the SQLite database to FILE while the server runs (on PostgreSQL, use pg_dump)')
    .requiredOption('--to <file>', 'where to write the copy (must not exist yet)')
    .option('--json', 'print {file, bytes}')
    .action((opts: { to: string; json?: boolean }) => {
      const config = loadConfig();
      if (config.databaseUrl) {
        program.error(
          'backup copies the embedded SQLite database; this Corridor runs on PostgreSQL (DATABASE_URL).\n' +
            'Use PostgreSQL\'s own tools instead, for example: pg_dump --format=custom --file=corridor.dump "$DATABASE_URL"\n' +
            '(see docs/operations.md, "Backups and restore")',
        );
      }
      try {
        const result = backupSqlite(databaseUrl(config), opts.to);
        print(!!opts.json, { ...result }, `backup written to ${result.file} (${result.bytes} bytes, integrity checked)`);
      } catch (e) {
        if (e instanceof BackupError) program.error(`backup failed: ${e.message}`);
        throw e;
      }
    });
}

import type { Command } from 'commander';
import { deleteCredentialsFile } from '../bootstrap.js';
import { print, withContainer } from '../cli/context.js';
import { loadConfig } from '../config.js';
import { resealAll, rotateEmbeddedKek } from './rotate.js';

/** `npx corridor keys rotate-kek` and `npx corridor credentials delete`. */
export function registerSecretCommands(program: Command) {
  const keys = program.command('keys').description('the key-encryption key that seals webhook private keys and KYC documents at rest');
  keys
    .command('rotate-kek')
    .description(
      'seal every secret at rest with the current key-encryption key (CORRIDOR_KEK; the previous one in CORRIDOR_KEK_PREVIOUS), or with --generate replace the key kept in the data directory',
    )
    .option('--generate', 'make a new key in the data directory and move every secret to it (stop the server first)')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { generate?: boolean; json?: boolean }) => {
      await withContainer(async (c) => {
        // Sealing everything with a key that dies with this process would lose every secret.
        if (c.secrets.source === 'this process only')
          program.error(`no key-encryption key: set CORRIDOR_KEK or CORRIDOR_KEK_FILE, or run where ${c.config.dataDir} is writable`);
        let report;
        try {
          report = opts.generate ? await rotateEmbeddedKek(c.db, c.secrets) : await resealAll(c.db, c.secrets);
        } catch (e) {
          program.error((e as Error).message);
        }
        print(
          !!opts.json,
          { ...report },
          `key-encryption key ${report.kekId}\nwebhook keys: ${report.webhookKeys.sealed} sealed again of ${report.webhookKeys.checked}\nUMA keys: ${report.umaKeys.sealed} sealed again of ${report.umaKeys.checked}\ndocuments: ${report.documents.sealed} sealed again of ${report.documents.checked}`,
        );
      });
    });

  const credentials = program.command('credentials').description('credentials.json, written by the first start');
  credentials
    .command('delete')
    .description('delete credentials.json from the data directory (keep its secret and password elsewhere first)')
    .action(() => {
      const { file, deleted } = deleteCredentialsFile(loadConfig().dataDir);
      process.stdout.write(deleted ? `deleted ${file}\n` : `no ${file}\n`);
    });
}

import type { Command } from 'commander';
import { print, withContainer } from '../../cli/context.js';
import { BankKeyError, importBankKey, listBankKeys } from './credentials.js';

/**
 * `npx corridor bank key import <bankId> <file>` and `bank key list`: the SFTP client keys of the
 * partner banks, kept sealed under the KEK in the database (bank/credentials.ts).
 */
export function registerBankCommands(program: Command) {
  const bank = program.command('bank').description('partner banks of the production bank rails (BANKS_FILE)');
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

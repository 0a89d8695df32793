import type { Command } from 'commander';
import { ApiError } from '../../common/errors.js';
import { isId } from '../../common/ids.js';
import type { Environment } from '../../common/scope.js';
import { print, withContainer } from '../../cli/context.js';

/** `npx corridor uma-domain list|approve`: UMA domains platforms asked for and have not proven. */
export function registerUmaDomainCommands(program: Command) {
  const uma = program.command('uma-domain').description("UMA domains waiting for proof (a platform's own domain in PRODUCTION)");
  uma
    .command('list')
    .description('list pending UMA domain claims of every platform')
    .option('--json', 'print one JSON object per claim')
    .action(async (opts: { json?: boolean }) => {
      await withContainer(async (c) => {
        const pending = await c.services.config.pendingUmaDomains();
        if (!opts.json && pending.length === 0) process.stdout.write('no pending UMA domains\n');
        for (const p of pending) print(!!opts.json, p, `${p.platformId} ${p.environment} ${p.domain} (asked ${p.requestedAt})`);
      });
    });
  uma
    .command('approve')
    .description("make a platform's pending UMA domain its domain without a proof (you checked it yourself)")
    .requiredOption('--platform <id>', 'Platform:<id>')
    .option('--environment <environment>', 'SANDBOX or PRODUCTION', 'PRODUCTION')
    .option('--json', 'print {platformId, environment, umaDomain}')
    .action(async (opts: { platform: string; environment: string; json?: boolean }) => {
      if (!isId('Platform', opts.platform)) program.error(`--platform must be a platform id (Platform:<uuid>), got "${opts.platform}"`);
      const environment = opts.environment.toUpperCase();
      if (environment !== 'SANDBOX' && environment !== 'PRODUCTION') program.error('--environment must be SANDBOX or PRODUCTION');
      await withContainer(async (c) => {
        try {
          const { umaDomain } = await c.services.config.approveUmaDomain({ platformId: opts.platform, environment: environment as Environment });
          print(!!opts.json, { platformId: opts.platform, environment, umaDomain }, `${opts.platform} ${environment}: umaDomain is now ${umaDomain}`);
        } catch (e) {
          if (e instanceof ApiError) program.error(`${e.message}`);
          throw e;
        }
      });
    });
}

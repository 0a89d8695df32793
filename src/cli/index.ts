import { Command, InvalidArgumentError } from 'commander';
import { migrate } from '../db/migrate.js';
import { ENVIRONMENTS, PERMISSIONS, type Environment, type Permission } from '../common/scope.js';
import { isId } from '../common/ids.js';
import { cliCommands } from './commands.js';
import { print, withContainer } from './context.js';
import { createCliAudit, isCommanderError } from '../audit/cli.js';

function environment(value: string): Environment {
  const v = value.toUpperCase();
  if (!ENVIRONMENTS.includes(v as Environment)) throw new InvalidArgumentError('must be SANDBOX or PRODUCTION');
  return v as Environment;
}

function permissions(value: string): Permission[] {
  const list = value
    .split(',')
    .map((p) => p.trim().toUpperCase())
    .filter(Boolean);
  const bad = list.filter((p) => !PERMISSIONS.includes(p as Permission));
  if (bad.length || list.length === 0) throw new InvalidArgumentError(`must be a comma-separated list of ${PERMISSIONS.join(', ')}`);
  return list as Permission[];
}

// exitOverride: a refused command throws instead of exiting, so its audit entry is still written.
const program = new Command('corridor').description('Corridor operator commands').showHelpAfterError().exitOverride();
// Every command that runs is recorded in the audit log (src/audit/cli.ts).
const audit = createCliAudit();
program.hook('preAction', (_program, actionCommand) => audit.started(actionCommand));

program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(async () => {
    await withContainer(async (c) => {
      const applied = await migrate(c.db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'schema is up to date\n');
    });
  });

const platform = program.command('platform').description('platforms (API clients)');
platform
  .command('create')
  .description('create a platform and a SANDBOX token with every permission')
  .requiredOption('--name <name>', 'platform name')
  .option('--json', 'print {platformId, clientId, clientSecret}')
  .action(async (opts: { name: string; json?: boolean }) => {
    await withContainer(async (c) => {
      const result = await c.db.tx(async () => {
        const p = await c.services.platforms.create(opts.name);
        const t = await c.services.tokens.issue({ platformId: p.id, environment: 'SANDBOX', name: `${opts.name} sandbox token`, permissions: PERMISSIONS });
        return { platformId: p.id, clientId: t.row.client_id, clientSecret: t.clientSecret };
      });
      print(!!opts.json, result, `platform ${result.platformId}\nclientId ${result.clientId}\nclientSecret ${result.clientSecret}  (shown once)`);
    });
  });

const token = program.command('token').description('API tokens');
token
  .command('create')
  .description('create an API token for a platform')
  .requiredOption('--platform <id>', 'Platform:<id>')
  .option('--environment <env>', 'SANDBOX or PRODUCTION', environment, 'SANDBOX' as Environment)
  .option('--permissions <list>', 'comma-separated VIEW,TRANSACT,MANAGE', permissions, [...PERMISSIONS] as Permission[])
  .option('--name <name>', 'token name', 'CLI token')
  .option('--json', 'print {clientId, clientSecret}')
  .action(async (opts: { platform: string; environment: Environment; permissions: Permission[]; name: string; json?: boolean }) => {
    if (!isId('Platform', opts.platform)) program.error(`--platform must be a platform id (Platform:<uuid>), got "${opts.platform}"`);
    await withContainer(async (c) => {
      if (!(await c.services.platforms.exists(opts.platform))) program.error(`no platform ${opts.platform}`);
      const t = await c.services.tokens.issue({ platformId: opts.platform, environment: opts.environment, name: opts.name, permissions: opts.permissions });
      print(
        !!opts.json,
        { clientId: t.row.client_id, clientSecret: t.clientSecret },
        `clientId ${t.row.client_id}\nclientSecret ${t.clientSecret}  (shown once)`,
      );
    });
  });

token
  .command('revoke')
  .description('revoke an API token of any platform at once (other nodes stop trusting it within AUTH_CACHE_TTL_MS)')
  .argument('<token>', 'Token:<id> or its client id')
  .option('--json', 'print {tokenId, clientId, platformId, revokedAt}')
  .action(async (tokenRef: string, opts: { json?: boolean }) => {
    await withContainer(async (c) => {
      const row = await c.services.tokens.revokeAny(tokenRef);
      if (!row) return program.error(`no active token ${tokenRef}`);
      print(
        !!opts.json,
        { tokenId: row.id, clientId: row.client_id, platformId: row.platform_id, revokedAt: row.revoked_at },
        `token ${row.id} (${row.client_id}) revoked`,
      );
    });
  });

for (const register of cliCommands) register(program);

try {
  await program.parseAsync(process.argv);
  await audit.finished(process.exitCode ? 'FAILED' : 'SUCCEEDED');
} catch (err) {
  // Commander has already printed its own refusals (and help, which exits 0).
  if (!isCommanderError(err)) process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  const code = isCommanderError(err) ? err.exitCode : 1;
  await audit.finished(code === 0 ? 'SUCCEEDED' : 'FAILED', err instanceof Error ? err.message : String(err));
  process.exit(code);
}

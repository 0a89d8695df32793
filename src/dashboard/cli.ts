import { InvalidArgumentError, type Command } from 'commander';
import { ApiError } from '../common/errors.js';
import { isId } from '../common/ids.js';
import { print, withContainer } from '../cli/context.js';
import { isRole, ROLES, type Role } from './roles.js';

function role(value: string): Role {
  const v = value.toUpperCase();
  if (!isRole(v)) throw new InvalidArgumentError(`must be one of ${ROLES.join(', ')}`);
  return v;
}

/** `npx corridor user create`: a dashboard user of a platform. */
export function registerUserCommands(program: Command) {
  const user = program.command('user').description('dashboard users (people who sign in at /dashboard/)');
  user
    .command('create')
    .description('create a dashboard user of a platform; without --password one is generated and shown once')
    .requiredOption('--platform <id>', 'Platform:<id>')
    .requiredOption('--email <email>', 'sign-in email (unique across this Corridor)')
    .option('--role <role>', `${ROLES.join(', ')}`, role, 'VIEWER' as Role)
    .option('--password <password>', 'at least 12 characters (prefer the generated one: a password in a command line lands in shell history)')
    .option('--json', 'print {userId, platformId, email, role, password}')
    .action(async (opts: { platform: string; email: string; role: Role; password?: string; json?: boolean }) => {
      if (!isId('Platform', opts.platform)) program.error(`--platform must be a platform id (Platform:<uuid>), got "${opts.platform}"`);
      await withContainer(async (c) => {
        if (!(await c.services.platforms.exists(opts.platform))) program.error(`no platform ${opts.platform}`);
        try {
          const made = await c.dashboard.createUser({ platformId: opts.platform, email: opts.email, role: opts.role, password: opts.password });
          const result = { userId: made.user.id, platformId: made.user.platform_id, email: made.user.email, role: made.user.role, password: made.password };
          print(
            !!opts.json,
            result,
            `user ${result.userId}\nemail ${result.email}\nrole ${result.role}\npassword ${result.password}${made.generated ? '  (shown once)' : ''}`,
          );
        } catch (e) {
          if (e instanceof ApiError)
            program.error(e.details?.fields ? `${e.message}` : `${e.message}${e.details?.email ? `: ${String(e.details.email)}` : ''}`);
          throw e;
        }
      });
    });
  user
    .command('disable')
    .description('stop a dashboard user from signing in; every session of the user ends at once')
    .requiredOption('--email <email>', "the user's sign-in email")
    .option('--json', 'print {userId, email, disabledAt}')
    .action(async (opts: { email: string; json?: boolean }) => {
      await withContainer(async (c) => {
        const u = await c.dashboard.setDisabled(opts.email, true);
        if (!u) program.error(`no dashboard user with email ${opts.email}`);
        print(!!opts.json, { userId: u.id, email: u.email, disabledAt: u.disabled_at }, `user ${u.email} disabled; their sessions have ended`);
      });
    });
  user
    .command('enable')
    .description('let a disabled dashboard user sign in again')
    .requiredOption('--email <email>', "the user's sign-in email")
    .option('--json', 'print {userId, email, disabledAt}')
    .action(async (opts: { email: string; json?: boolean }) => {
      await withContainer(async (c) => {
        const u = await c.dashboard.setDisabled(opts.email, false);
        if (!u) program.error(`no dashboard user with email ${opts.email}`);
        print(!!opts.json, { userId: u.id, email: u.email, disabledAt: null }, `user ${u.email} enabled`);
      });
    });
  user
    .command('password')
    .description('set a new password for a dashboard user (generated and shown once unless --password); their sessions end')
    .requiredOption('--email <email>', "the user's sign-in email")
    .option('--password <password>', 'at least 12 characters (prefer the generated one: a password in a command line lands in shell history)')
    .option('--json', 'print {userId, email, password}')
    .action(async (opts: { email: string; password?: string; json?: boolean }) => {
      await withContainer(async (c) => {
        try {
          const made = await c.dashboard.setPassword(opts.email, opts.password);
          if (!made) program.error(`no dashboard user with email ${opts.email}`);
          print(
            !!opts.json,
            { userId: made.user.id, email: made.user.email, password: made.password },
            `user ${made.user.email}\npassword ${made.password}${made.generated ? '  (shown once)' : ''}\ntheir sessions have ended`,
          );
        } catch (e) {
          if (e instanceof ApiError) program.error(e.message);
          throw e;
        }
      });
    });
}

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
          print(!!opts.json, result, `user ${result.userId}\nemail ${result.email}\nrole ${result.role}\npassword ${result.password}${made.generated ? '  (shown once)' : ''}`);
        } catch (e) {
          if (e instanceof ApiError) program.error(e.details?.fields ? `${e.message}` : `${e.message}${e.details?.email ? `: ${String(e.details.email)}` : ''}`);
          throw e;
        }
      });
    });
}

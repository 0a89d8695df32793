import os from 'node:os';
import { CommanderError, InvalidArgumentError, type Command } from 'commander';
import { print, withContainer } from '../cli/context.js';
import type { Outcome } from './store.js';
import { createAuditLog } from './store.js';

/** Options never written to the audit log. */
const SECRET_OPTIONS = new Set(['password', 'secret', 'clientSecret']);
/** Options that name what a command acts on, in the order they are looked for. */
const TARGET_OPTIONS = ['token', 'user', 'email', 'platform', 'to'];

function positiveInt(max: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`must be an integer from 1 to ${max}`);
    return n;
  };
}

function isoTime(value: string) {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new InvalidArgumentError('must be a date or time, e.g. 2026-11-24 or 2026-11-24T06:00:00Z');
  return new Date(t).toISOString();
}

/** The full name of a subcommand: `token revoke`. */
function commandName(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c && c.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Records every operator command in the audit log: which command, with which options (secrets
 * left out), by which OS user on which host, and whether it succeeded. Call `started` from the
 * program's preAction hook and `finished` once the command is over.
 */
export function createCliAudit() {
  let current: { action: string; target: string | null; details: Record<string, unknown> } | undefined;
  return {
    started(actionCommand: Command) {
      const opts = actionCommand.opts() as Record<string, unknown>;
      const options = Object.fromEntries(Object.entries(opts).filter(([k]) => !SECRET_OPTIONS.has(k) && k !== 'json'));
      const args = actionCommand.args.filter((a) => typeof a === 'string');
      const named = TARGET_OPTIONS.map((k) => opts[k]).find((v) => typeof v === 'string') as string | undefined;
      current = { action: commandName(actionCommand), target: args[0] ?? named ?? null, details: { options, ...(args.length ? { arguments: args } : {}) } };
    },
    async finished(outcome: Outcome, failure?: string) {
      if (!current) return;
      const { action, target, details } = current;
      current = undefined;
      const host = os.hostname();
      let user = 'unknown';
      try {
        user = os.userInfo().username;
      } catch {
        /* no passwd entry (containers): keep "unknown" */
      }
      const platformId =
        typeof details.options === 'object' && details.options && typeof (details.options as Record<string, unknown>).platform === 'string'
          ? (details.options as Record<string, string>).platform
          : null;
      try {
        await withContainer((c) =>
          createAuditLog({ db: c.db, clock: c.sandbox.clocks.realClock }).record({
            actorType: 'OPERATOR',
            actor: `${user}@${host}`,
            action,
            target,
            source: `cli@${host}`,
            platformId,
            outcome,
            details: failure ? { ...details, failure: failure.slice(0, 500) } : details,
          }),
        );
      } catch (err) {
        process.stderr.write(`warning: could not record this command in the audit log: ${err instanceof Error ? err.message : String(err)}\n`);
      }
    },
  };
}

export function isCommanderError(err: unknown): err is CommanderError {
  return err instanceof CommanderError;
}

/** `npx corridor audit list`: the audit log, newest first. */
export function registerAuditCommands(program: Command) {
  const auditCmd = program.command('audit').description('the audit log: operator commands and dashboard writes');
  auditCmd
    .command('list')
    .description('list audit entries, newest first')
    .option('--platform <id>', 'only entries of this platform')
    .option('--actor <actor>', 'only entries of this actor (an email, or user@host for the CLI)')
    .option('--action <prefix>', 'only actions starting with this text, e.g. "token" or "POST /2025-10-13/customers"')
    .option('--since <time>', 'entries at or after this time', isoTime)
    .option('--until <time>', 'entries at or before this time', isoTime)
    .option('--limit <n>', 'at most this many entries (1-1000)', positiveInt(1000), 50)
    .option('--json', 'print one JSON object per line')
    .action(async (opts: { platform?: string; actor?: string; action?: string; since?: string; until?: string; limit: number; json?: boolean }) => {
      await withContainer(async (c) => {
        const entries = await createAuditLog({ db: c.db, clock: c.sandbox.clocks.realClock }).list({
          platformId: opts.platform,
          actor: opts.actor,
          action: opts.action,
          since: opts.since,
          until: opts.until,
          limit: opts.limit,
        });
        if (opts.json) {
          for (const e of entries) process.stdout.write(`${JSON.stringify(e)}\n`);
          return;
        }
        if (entries.length === 0) print(false, {}, 'no audit entries match');
        for (const e of entries) {
          process.stdout.write(
            `${e.createdAt}  ${e.outcome.padEnd(9)}  ${e.actorType.padEnd(8)}  ${e.actor}  ${e.action}${e.target ? `  ${e.target}` : ''}${e.source ? `  from ${e.source}` : ''}${e.statusCode ? `  ${e.statusCode}` : ''}\n`,
          );
        }
      });
    });
}

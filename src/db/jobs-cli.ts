import type { Command } from 'commander';
import { isId } from '../common/ids.js';
import { print, withContainer } from '../cli/context.js';

/** `npx corridor jobs dead|retry`: jobs that failed JOB_MAX_ATTEMPTS times (src/db/jobs.ts). */
export function registerJobCommands(program: Command) {
  const jobs = program.command('jobs').description('durable background jobs: the dead-lettered ones');
  jobs
    .command('dead')
    .description('list jobs that failed JOB_MAX_ATTEMPTS times and wait for an operator, oldest first')
    .option('--limit <n>', 'how many to list (1 to 1000)', '100')
    .option('--json', 'print one JSON object per job')
    .action(async (opts: { limit: string; json?: boolean }) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) program.error(`--limit must be an integer from 1 to 1000, got "${opts.limit}"`);
      await withContainer(async (c) => {
        const dead = await c.jobs.dead(limit);
        if (!opts.json && dead.length === 0) process.stdout.write('no dead jobs\n');
        for (const j of dead) {
          const firstLine = (j.lastError ?? '').split('\n')[0];
          print(!!opts.json, { ...j }, `${j.id} ${j.kind} ${j.subject ?? '-'} attempts ${j.attempts}, dead since ${j.deadAt}: ${firstLine}`);
        }
      });
    });
  jobs
    .command('retry')
    .description('give a dead job a fresh set of attempts, due now (after fixing what made it fail)')
    .argument('<id>', 'Job:<id>, from `jobs dead`')
    .option('--json', 'print {id, retried}')
    .action(async (id: string, opts: { json?: boolean }) => {
      if (!isId('Job', id)) program.error(`the id must be a job id (Job:<uuid>), got "${id}"`);
      await withContainer(async (c) => {
        if (!(await c.jobs.retryDead(id))) program.error(`no dead job ${id}`);
        print(!!opts.json, { id, retried: true }, `${id} is due again`);
      });
    });
}

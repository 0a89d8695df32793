import type { Environment } from '../common/scope.js';
import type { Database } from '../db/database.js';
import type { BankProfile } from './bank/profile.js';
import { createBankRail } from './bank/rail.js';
import { createSandboxRail } from './sandbox.js';
import type { Rail } from './types.js';

export { FAILURE_REASONS, type FailureReason, type Rail, type RailEvent, type RailStep } from './types.js';

/**
 * The rail of each environment: simulated outcomes in the sandbox; in production the partner banks
 * (files over SFTP, src/rails/bank), and an operator for what no bank carries only when
 * `manualRail` says so.
 */
export function createRails(opts: {
  sandboxTimeScale: number;
  db: Database;
  banks: readonly BankProfile[];
  manualRail: boolean;
  now: () => Date;
}): Record<Environment, Rail> {
  return {
    SANDBOX: createSandboxRail({ timeScale: opts.sandboxTimeScale }),
    PRODUCTION: createBankRail({ db: opts.db, banks: opts.banks, now: opts.now, manualFallback: opts.manualRail }),
  };
}

export type Rails = ReturnType<typeof createRails>;

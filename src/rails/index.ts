import type { Environment } from '../common/scope.js';
import { createManualRail } from './manual.js';
import { createSandboxRail } from './sandbox.js';
import type { Rail } from './types.js';

export { FAILURE_REASONS, type FailureReason, type Rail, type RailEvent, type RailStep } from './types.js';

/** The rail of each environment: simulated outcomes in the sandbox, an operator in production. */
export function createRails(opts: { sandboxTimeScale: number }): Record<Environment, Rail> {
  return { SANDBOX: createSandboxRail({ timeScale: opts.sandboxTimeScale }), PRODUCTION: createManualRail() };
}

export type Rails = ReturnType<typeof createRails>;

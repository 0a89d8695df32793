import type { Command } from 'commander';
import { registerLedgerCommands } from '../ledger/cli.js';
import { registerUserCommands } from '../dashboard/cli.js';
import { registerPayoutCommands } from '../rails/cli.js';
import { registerUmaDomainCommands } from '../modules/config/cli.js';
import { registerUmaKeyCommands } from '../modules/uma/cli.js';
import { registerSecretCommands } from '../secrets/cli.js';
import { registerBackupCommands } from '../backup/cli.js';
import { registerAuditCommands } from '../audit/cli.js';
import { registerRetentionCommands } from '../retention/cli.js';
import { registerJobCommands } from '../db/jobs-cli.js';
import { registerCustomerCommands } from '../modules/customers/cli.js';
import { registerBankCommands } from '../rails/bank/cli.js';
import { registerBankSimulatorCommand } from '../rails/bank/simulator/cli.js';

/** Further operator commands, each registering itself on the program (ledger, users...). */
export const cliCommands: Array<(program: Command) => void> = [
  registerUserCommands,
  registerLedgerCommands,
  registerPayoutCommands,
  registerUmaDomainCommands,
  registerUmaKeyCommands,
  registerSecretCommands,
  registerBackupCommands,
  registerAuditCommands,
  registerRetentionCommands,
  registerJobCommands,
  registerCustomerCommands,
  registerBankCommands,
  registerBankSimulatorCommand,
];

import type { Command } from 'commander';

/** Further operator commands, each registering itself on the program (ledger, users...). */
export const cliCommands: Array<(program: Command) => void> = [];

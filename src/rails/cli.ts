import { InvalidArgumentError, type Command } from 'commander';
import { print, withContainer } from '../cli/context.js';
import { isId } from '../common/ids.js';
import { transactionView } from '../modules/transactions/view.js';
import { FAILURE_REASONS, type FailureReason } from './types.js';

function transactionId(value: string): string {
  if (!isId('Transaction', value)) throw new InvalidArgumentError('must be a transaction id (Transaction:<uuid>)');
  return value;
}

function reason(value: string): FailureReason {
  const v = value.toUpperCase();
  if (!FAILURE_REASONS.includes(v as FailureReason)) throw new InvalidArgumentError(`must be one of ${FAILURE_REASONS.join(', ')}`);
  return v as FailureReason;
}

/**
 * The manual rail's operator (PRODUCTION until real connectors exist): after moving the money by
 * hand, `payout settle` completes a PROCESSING payment (its reserved transfers are posted) and
 * `payout fail` fails it (voided: the payer is refunded). Both send the payment's webhook.
 */
export function registerPayoutCommands(program: Command) {
  const payout = program.command('payout').description('settle or fail payments waiting on the manual rail');
  const run = async (id: string, json: boolean, event: Parameters<typeof operate>[1], cause: string) => operate(id, event, cause, json);
  payout
    .command('settle')
    .description('the payout reached its destination: PROCESSING → COMPLETED')
    .argument('<transactionId>', 'Transaction:<id>', transactionId)
    .option('--json', 'print the transaction')
    .action((id: string, opts: { json?: boolean }) => run(id, !!opts.json, { kind: 'COMPLETE' }, 'operator settled the payout (manual rail)'));
  payout
    .command('fail')
    .description('the payout failed: PROCESSING → FAILED and the payer is refunded')
    .argument('<transactionId>', 'Transaction:<id>', transactionId)
    .option('--reason <reason>', 'failureReason', reason, 'OFFRAMP_FAILED' as FailureReason)
    .option('--json', 'print the transaction')
    .action((id: string, opts: { reason: FailureReason; json?: boolean }) =>
      run(id, !!opts.json, { kind: 'FAIL', reason: opts.reason, refund: 'COMPLETED' }, `operator failed the payout (manual rail): ${opts.reason}`),
    );
}

async function operate(id: string, event: { kind: 'COMPLETE' } | { kind: 'FAIL'; reason: FailureReason; refund: 'COMPLETED' }, cause: string, json: boolean) {
  await withContainer(async (c) => {
    const row = await c.payments.engine.operate(id, event, cause);
    const view = transactionView(row);
    print(json, view as unknown as Record<string, unknown>, `${view.id} is ${view.status}${view.failureReason ? ` (${view.failureReason})` : ''}`);
  });
}

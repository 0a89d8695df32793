/**
 * The sandbox rail: the spec's "Sandbox test patterns", chosen by the last 3 characters of the
 * external account's primary identifier (sandboxSuffixOf, the same reading as beneficiary
 * verification). Delays are divided by SANDBOX_TIME_SCALE (D9). docs/payments.md lists them.
 */
import { sandboxSuffixOf } from '../identifiers/sandbox-fixtures.js';
import type { Rail, RailStep } from './types.js';

/** "about 30 seconds" and "about 6 minutes" of the spec. */
export const SANDBOX_PENDING_FAILURE_MS = 30_000;
export const SANDBOX_LONG_PAYMENT_MS = 6 * 60_000;
/** How long after completing a 005 payout its return arrives (the spec names no time). */
export const SANDBOX_RETURN_MS = 30_000;

/** Quote destinations, and transfer-out (same table, documented in docs/payments.md). */
export function payoutPlan(suffix: string, scale: number): RailStep[] {
  const at = (ms: number) => Math.max(1, Math.round(ms / scale));
  switch (suffix) {
    case '002':
      return [{ afterMs: 0, event: { kind: 'FAIL', reason: 'QUOTE_EXECUTION_FAILED', refund: 'COMPLETED' } }];
    case '003':
      return [{ afterMs: at(SANDBOX_LONG_PAYMENT_MS), event: { kind: 'COMPLETE' } }];
    case '004':
      return [{ afterMs: 0, event: { kind: 'FAIL', reason: 'OFFRAMP_FAILED', refund: 'COMPLETED' } }];
    case '005':
      return [
        { afterMs: 0, event: { kind: 'COMPLETE' } },
        { afterMs: at(SANDBOX_RETURN_MS), event: { kind: 'RETURN', reason: 'COUNTERPARTY_POST_TX_FAILED' } },
      ];
    case '006':
      return [{ afterMs: 0, event: { kind: 'FAIL', reason: 'PAY_REQUEST_FAILED', refund: 'COMPLETED' } }];
    case '007':
      return [{ afterMs: 0, event: { kind: 'FAIL', reason: 'OFFRAMP_FAILED', refund: 'FAILED' } }];
    default:
      return [{ afterMs: 0, event: { kind: 'COMPLETE' } }];
  }
}

/** Transfer-in sources. */
export function pullPlan(suffix: string, scale: number): RailStep[] {
  switch (suffix) {
    case '002': // insufficient funds
    case '003': // account closed or invalid
    case '004': // rejected by the bank
      return [{ afterMs: 0, event: { kind: 'FAIL', reason: 'PAY_REQUEST_FAILED', refund: 'COMPLETED' } }];
    case '005':
      return [
        { afterMs: Math.max(1, Math.round(SANDBOX_PENDING_FAILURE_MS / scale)), event: { kind: 'FAIL', reason: 'PAY_REQUEST_FAILED', refund: 'COMPLETED' } },
      ];
    default:
      return [{ afterMs: 0, event: { kind: 'COMPLETE' } }];
  }
}

export function createSandboxRail(opts: { timeScale: number }): Rail {
  return {
    name: 'sandbox',
    planPayout: (destination) => payoutPlan(sandboxSuffixOf(destination.primary_identifier), opts.timeScale),
    planPull: (source) => pullPlan(sandboxSuffixOf(source.primary_identifier), opts.timeScale),
  };
}

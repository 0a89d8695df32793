/**
 * Sandbox test patterns of UMA addresses (docs/incoming-payments.md): the last 3 characters of
 * the receiver's address local part (before the @), read like an external account's suffix.
 * 002 is handled by the resolver (the lookup fails); the rest shape the payment on arrival.
 */
import type { Environment } from '../../common/scope.js';
import { sandboxSuffixOf } from '../../identifiers/sandbox-fixtures.js';
import type { FailureReason } from '../../rails/types.js';

export type SandboxArrival = { kind: 'NORMAL' } | { kind: 'APPROVAL' } | { kind: 'FAIL'; reason: FailureReason };

export function sandboxArrival(environment: Environment, receiverAddress: string): SandboxArrival {
  if (environment !== 'SANDBOX') return { kind: 'NORMAL' };
  switch (sandboxSuffixOf(receiverAddress)) {
    case '003':
      return { kind: 'APPROVAL' };
    case '004':
      return { kind: 'FAIL', reason: 'PAY_REQUEST_FAILED' };
    case '005':
      return { kind: 'FAIL', reason: 'MISSING_MANDATORY_PAYEE_DATA' };
    default:
      return { kind: 'NORMAL' };
  }
}

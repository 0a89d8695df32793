import { commonErrors, invalidInput } from '../../common/errors.js';
import type { Environment } from '../../common/scope.js';
import { sandboxSuffixOf } from '../../identifiers/sandbox-fixtures.js';

export const VERIFICATION_STATUSES = ['MATCHED', 'PARTIAL_MATCH', 'NOT_MATCHED', 'UNSUPPORTED', 'CHECKED_BY_RECEIVING_FI', 'PENDING'] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export interface Verification {
  status: VerificationStatus;
  /** What the rail says the holder is called, when it says. */
  verifiedData?: { fullName: string };
}

/** The holder's name as a bank's fuzzy match would report it: initial and surname, upper case. */
function fuzzy(fullName: string): string {
  const parts = fullName.trim().split(/\s+/);
  if (parts.length === 1) return parts[0].toUpperCase();
  return `${parts[0][0]}. ${parts.slice(1).join(' ')}`.toUpperCase();
}

/**
 * Beneficiary verification (name check). In the sandbox the last 3 characters of the primary
 * identifier (of its username part when it has an '@') pick the outcome, exactly as the spec's
 * table; 105 and 109 throw before anything is stored. PRODUCTION has no name-check connector yet,
 * so every account there is UNSUPPORTED.
 */
export function verifyBeneficiary(environment: Environment, primaryField: string, primary: string, beneficiaryName: string | undefined): Verification {
  if (environment !== 'SANDBOX') return { status: 'UNSUPPORTED' };
  const suffix = sandboxSuffixOf(primary);
  if (suffix === '105') {
    throw invalidInput(
      [
        {
          field: `accountInfo.${primaryField}`,
          in: 'body',
          message: 'the receiving institution reports that this account does not exist (sandbox suffix 105)',
        },
      ],
      'Invalid account: the receiving institution rejected it',
    );
  }
  if (suffix === '109')
    throw commonErrors.INTERNAL_ERROR({ sandbox: 'simulated error of the verification provider (suffix 109); retry with another identifier' });
  // Nothing to compare a name against (a layer-2 wallet registered without a beneficiary).
  if (beneficiaryName === undefined) return { status: 'UNSUPPORTED' };
  switch (suffix) {
    case '102':
      return { status: 'NOT_MATCHED', verifiedData: { fullName: 'SANDBOX OTHER HOLDER' } };
    case '103':
      return { status: 'PARTIAL_MATCH', verifiedData: { fullName: fuzzy(beneficiaryName) } };
    case '104':
      return { status: 'PENDING' };
    case '106':
      return { status: 'UNSUPPORTED' };
    case '107':
      return { status: 'CHECKED_BY_RECEIVING_FI' };
    default:
      return { status: 'MATCHED', verifiedData: { fullName: beneficiaryName } };
  }
}

/**
 * The test account patterns: what the simulated bank does with a payment, read from the last four
 * characters of the receiver's account, as the sandbox reads its suffixes. Documented in
 * docs/bank-simulator.md; anything else is paid.
 */

export type NachaOutcome =
  | { kind: 'PAID' }
  /** Refused in the acknowledgement (ENTRY-REJECTED), never booked. */
  | { kind: 'REJECTED'; code: 'R03' }
  /** Accepted and booked, then returned by the receiving bank: the amount comes back. */
  | { kind: 'RETURNED'; code: 'R03' | 'R01' }
  /** Accepted and paid, then a notification of change with the corrected account number. */
  | { kind: 'CHANGED'; code: 'C01'; correctedAccountNumber: string };

export type Pain001Outcome =
  | { kind: 'PAID' }
  /** TxSts RJCT in the pain.002, never booked. */
  | { kind: 'REJECTED'; code: 'AC01' }
  /** Accepted and booked, then returned: a credit with return information. */
  | { kind: 'RETURNED'; code: 'AC04' };

/** By the receiver's DFI account number (NACHA entry detail, columns 13-29). */
export function nachaOutcome(accountNumber: string): NachaOutcome {
  const account = accountNumber.trim();
  if (account.endsWith('0002')) return { kind: 'REJECTED', code: 'R03' };
  if (account.endsWith('0003')) return { kind: 'RETURNED', code: 'R03' };
  if (account.endsWith('0004')) return { kind: 'RETURNED', code: 'R01' };
  if (account.endsWith('0005')) return { kind: 'CHANGED', code: 'C01', correctedAccountNumber: `${account.slice(0, -4)}1005` };
  return { kind: 'PAID' };
}

/** By the creditor's account (IBAN, or the other account id of a generic transfer). */
export function pain001Outcome(account: string | undefined): Pain001Outcome {
  const id = (account ?? '').trim();
  if (id.endsWith('0002')) return { kind: 'REJECTED', code: 'AC01' };
  if (id.endsWith('0003')) return { kind: 'RETURNED', code: 'AC04' };
  return { kind: 'PAID' };
}

/**
 * How money enters and leaves Corridor. A rail is asked, once the funds of a payment are
 * reserved, what will happen to it; it answers with a plan of timed events. The payment engine
 * applies events due at once inside the request's transaction and schedules the rest as durable
 * jobs (db/jobs.ts), so a restart loses none. A rail never does I/O while asked (it is called
 * inside a database transaction): a connector that talks to a bank would answer with no events,
 * start the transfer from a job after commit and report the outcome later through the same
 * lifecycle functions the operator's CLI uses.
 */
import type { ExternalAccountRow } from '../modules/external-accounts/repository.js';
import type { TransactionRow } from '../modules/transactions/repository.js';

/** failureReason values (the spec's enum, section Errors). */
export const FAILURE_REASONS = [
  'LNURLP_FAILED',
  'PAY_REQUEST_FAILED',
  'PAYMENT_APPROVAL_WEBHOOK_ERROR',
  'PAYMENT_APPROVAL_TIMED_OUT',
  'OFFRAMP_FAILED',
  'MISSING_MANDATORY_PAYEE_DATA',
  'QUOTE_EXPIRED',
  'QUOTE_EXECUTION_FAILED',
  'LIGHTNING_PAYMENT_FAILED',
  'FUNDING_AMOUNT_MISMATCH',
  'COUNTERPARTY_POST_TX_FAILED',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** What happens next to a payment in flight. */
export type RailEvent =
  /** PROCESSING → COMPLETED: the reserved transfers are posted. */
  | { kind: 'COMPLETE' }
  /** PROCESSING → FAILED. refund COMPLETED: the reservation is voided (the refund); FAILED: the money stays in flight. */
  | { kind: 'FAIL'; reason: FailureReason; refund: 'COMPLETED' | 'FAILED' }
  /** COMPLETED → FAILED: the receiving side sent the money back; reversing transfers refund the payer. */
  | { kind: 'RETURN'; reason: FailureReason };

export interface RailStep {
  /** Delay after the funds were reserved; 0 means inside the same request. */
  afterMs: number;
  event: RailEvent;
}

/** What a rail is asked to carry: a payout, a pull (transfer-in), or a quote paid out from money it pulls first. */
export type CarriedDirection = 'PAYOUT' | 'PULL' | 'QUOTE_PULL';

export interface Rail {
  readonly name: string;
  /** A payout to an external account (quote destinations and transfer-out). */
  planPayout(destination: ExternalAccountRow): RailStep[];
  /** A pull from an external account into an internal account (transfer-in). */
  planPull(source: ExternalAccountRow): RailStep[];
  /**
   * Refuses (400, naming `field`) a payment this rail cannot carry, when the quote or transfer is
   * made, before anything is reserved. Absent: the rail carries every account.
   */
  checkCarried?(account: Pick<ExternalAccountRow, 'currency' | 'account_type'>, field: string, direction: CarriedDirection): void;
  /**
   * In the payment's transaction, once its funds are reserved and it waits in PROCESSING: a rail
   * that carries it later records what it needs (a bank rail queues it for a file). No I/O.
   */
  started?(row: TransactionRow, account: ExternalAccountRow): Promise<void>;
}

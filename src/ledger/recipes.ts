/**
 * The recipes: the legs of every money movement, in one place (ARCHITECTURE, the ledger model).
 * Callers post them at once (ledger.transfer) or reserve them (ledger.createPending) to post or
 * void later; every leg names its currency.
 *
 * A payment (its transaction row):
 * OUTGOING, sending S → receiving R, paid from D (the internal account, or FUNDING(S) when the
 * money arrives from outside: a pull or a JIT payment):
 *   D → FX_LIQUIDITY(S)            converted  (FX)      the amount converted
 *   FX_LIQUIDITY(R) → PAYOUTS(R)   received + counterparty fee (PAYOUT)  what leaves for the rail
 *   D → FEES(S)                    fees       (FEE)     the service's fees
 * Same currency with nothing kept back, the FX pair collapses into D → PAYOUTS(S).
 * INCOMING (transfer-in), currency C, into internal account A: the deposit recipe, with the fees.
 * Money arriving (a deposit), currency C, into internal account A:
 *   FUNDING(C) → A                 amount     (DEPOSIT)
 *   FUNDING(C) → FEES(C)           fee        (FEE)
 * Sandbox money: SANDBOX_FUNDING(C) → A (FUNDING). A returned payout: each posted or reserved leg
 * of the payment reversed (REFUND).
 * The bank side (PRODUCTION bank rails), as the bank reports each movement on the operator's account:
 *   money in (a deposit, a JIT payment, a pull, a returned payout):  BANK_CASH(C) → FUNDING(C) or PAYOUTS_IN_FLIGHT(C)  (BANK)
 *   money out (a payout leaves):                                      PAYOUTS_IN_FLIGHT(C) → BANK_CASH(C)              (BANK)
 * so FUNDING and PAYOUTS_IN_FLIGHT come back to zero for every movement the bank confirmed, and
 * BANK_CASH holds the platform's money at the bank.
 */
import type { Scope } from '../common/scope.js';
import type { SystemCode } from './accounts.js';
import type { Transfer, TransferInput } from './types.js';

/** What the recipes need of the ledger: the id of a system account. */
export interface SystemAccounts {
  systemAccount(scope: Scope, code: SystemCode, currency: string): Promise<string>;
}

/** The fields of a payment's transaction row the recipes read (a TransactionRow has them). */
export interface PaymentAmounts {
  type: string;
  funding: string;
  internal_account_id: string | null;
  sending_currency: string;
  receiving_currency: string;
  converted_amount: bigint;
  received_amount: bigint;
  fees: bigint;
  counterparty_fee: bigint;
}

/** Money arriving into an internal account from outside, with an optional fee kept from it. */
export async function depositLegs(
  ledger: SystemAccounts,
  scope: Scope,
  d: { accountId: string; currency: string; amount: bigint; fee: bigint },
): Promise<TransferInput[]> {
  const funding = await ledger.systemAccount(scope, 'FUNDING', d.currency);
  const legs: TransferInput[] = [{ debitAccountId: funding, creditAccountId: d.accountId, amount: d.amount, code: 'DEPOSIT', currency: d.currency }];
  if (d.fee > 0n)
    legs.push({
      debitAccountId: funding,
      creditAccountId: await ledger.systemAccount(scope, 'FEES', d.currency),
      amount: d.fee,
      code: 'FEE',
      currency: d.currency,
    });
  return legs;
}

/** The sandbox's money printer (POST /sandbox/internal-accounts/{id}/fund). */
export async function sandboxFundingLegs(
  ledger: SystemAccounts,
  scope: Scope,
  d: { accountId: string; currency: string; amount: bigint },
): Promise<TransferInput[]> {
  const source = await ledger.systemAccount(scope, 'SANDBOX_FUNDING', d.currency);
  return [{ debitAccountId: source, creditAccountId: d.accountId, amount: d.amount, code: 'FUNDING', currency: d.currency }];
}

/** A returned payout: every leg of the payment (reserved, or posted at once) reversed; earlier refunds are not. */
export function returnLegs(transfers: readonly Transfer[]): TransferInput[] {
  return transfers
    .filter((t) => t.phase === 'PENDING' || (t.phase === 'POSTED' && t.code !== 'REFUND'))
    .map((t) => ({ debitAccountId: t.creditAccountId, creditAccountId: t.debitAccountId, amount: t.amount, code: 'REFUND' as const, currency: t.currency }));
}

/** A payment's legs (see above). */
export async function paymentLegs(ledger: SystemAccounts, scope: Scope, row: PaymentAmounts): Promise<TransferInput[]> {
  const s = row.sending_currency;
  const r = row.receiving_currency;
  const converted = BigInt(row.converted_amount);
  const received = BigInt(row.received_amount);
  const fees = BigInt(row.fees);
  const legs: TransferInput[] = [];
  const system = (code: SystemCode, currency: string) => ledger.systemAccount(scope, code, currency);
  if (row.type === 'INCOMING') return depositLegs(ledger, scope, { accountId: row.internal_account_id!, currency: s, amount: received, fee: fees });
  const debit = row.funding === 'INTERNAL' ? row.internal_account_id! : await system('FUNDING', s);
  const payout = received + BigInt(row.counterparty_fee);
  if (s === r && converted === payout) {
    legs.push({ debitAccountId: debit, creditAccountId: await system('PAYOUTS_IN_FLIGHT', r), amount: payout, code: 'PAYOUT', currency: s });
  } else {
    legs.push({ debitAccountId: debit, creditAccountId: await system('FX_LIQUIDITY', s), amount: converted, code: 'FX', currency: s });
    legs.push({
      debitAccountId: await system('FX_LIQUIDITY', r),
      creditAccountId: await system('PAYOUTS_IN_FLIGHT', r),
      amount: payout,
      code: 'PAYOUT',
      currency: r,
    });
  }
  if (fees > 0n) legs.push({ debitAccountId: debit, creditAccountId: await system('FEES', s), amount: fees, code: 'FEE', currency: s });
  return legs;
}

/** A movement the bank reported on the operator's account (see above): money in debits BANK_CASH, money out credits it. */
export async function bankLegs(
  ledger: SystemAccounts,
  scope: Scope,
  d: { currency: string; amount: bigint; direction: 'IN' | 'OUT'; counterpart: 'FUNDING' | 'PAYOUTS_IN_FLIGHT' },
): Promise<TransferInput[]> {
  const bank = await ledger.systemAccount(scope, 'BANK_CASH', d.currency);
  const other = await ledger.systemAccount(scope, d.counterpart, d.currency);
  return [
    d.direction === 'IN'
      ? { debitAccountId: bank, creditAccountId: other, amount: d.amount, code: 'BANK', currency: d.currency }
      : { debitAccountId: other, creditAccountId: bank, amount: d.amount, code: 'BANK', currency: d.currency },
  ];
}

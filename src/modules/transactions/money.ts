/**
 * The ledger transfers of a payment (ARCHITECTURE, the ledger model). Executing reserves them as
 * one linked group of PENDING transfers; completion posts them, failure voids them (the refund).
 *
 * OUTGOING, sending S → receiving R, paid from D (the internal account, or FUNDING(S) when the
 * money arrives from outside: a pull or a JIT payment):
 *   D → FX_LIQUIDITY(S)            converted  (FX)      the amount converted
 *   FX_LIQUIDITY(R) → PAYOUTS(R)   received + counterparty fee (PAYOUT)  what leaves for the rail
 *   D → FEES(S)                    fees       (FEE)     the service's fees
 * Same currency with nothing kept back, the FX pair collapses into D → PAYOUTS(S).
 * INCOMING (transfer-in), currency C, into internal account A:
 *   FUNDING(C) → A                 received   (DEPOSIT)
 *   FUNDING(C) → FEES(C)           fees       (FEE)
 */
import type { Scope } from '../../common/scope.js';
import type { Ledger, SystemCode, TransferInput } from '../../ledger/index.js';
import type { TransactionRow } from './repository.js';

/** The payment's legs, each with its currency (the ledger then checks it in the accounts' update instead of reading them). */
export async function paymentLegs(ledger: Ledger, scope: Scope, row: TransactionRow): Promise<TransferInput[]> {
  const s = row.sending_currency;
  const r = row.receiving_currency;
  const converted = BigInt(row.converted_amount);
  const received = BigInt(row.received_amount);
  const fees = BigInt(row.fees);
  const legs: TransferInput[] = [];
  const system = (code: SystemCode, currency: string) => ledger.systemAccount(scope, code, currency);
  if (row.type === 'INCOMING') {
    const funding = await system('FUNDING', s);
    legs.push({ debitAccountId: funding, creditAccountId: row.internal_account_id!, amount: received, code: 'DEPOSIT', currency: s });
    if (fees > 0n) legs.push({ debitAccountId: funding, creditAccountId: await system('FEES', s), amount: fees, code: 'FEE', currency: s });
    return legs;
  }
  const debit = row.funding === 'INTERNAL' ? row.internal_account_id! : await system('FUNDING', s);
  const payout = received + BigInt(row.counterparty_fee);
  if (s === r && converted === payout) {
    legs.push({ debitAccountId: debit, creditAccountId: await system('PAYOUTS_IN_FLIGHT', r), amount: payout, code: 'PAYOUT', currency: s });
  } else {
    legs.push({ debitAccountId: debit, creditAccountId: await system('FX_LIQUIDITY', s), amount: converted, code: 'FX', currency: s });
    legs.push({ debitAccountId: await system('FX_LIQUIDITY', r), creditAccountId: await system('PAYOUTS_IN_FLIGHT', r), amount: payout, code: 'PAYOUT', currency: r });
  }
  if (fees > 0n) legs.push({ debitAccountId: debit, creditAccountId: await system('FEES', s), amount: fees, code: 'FEE', currency: s });
  return legs;
}

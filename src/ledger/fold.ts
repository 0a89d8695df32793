/**
 * The fold (docs/ledger.md): adds the movements of system accounts, kept aside as delta rows by
 * the payments that made them, to the accounts' running totals — many payments' worth in one
 * update per account. Taking the rows out (DELETE … RETURNING) and adding them up happen in one
 * transaction, so each delta is counted exactly once even when several nodes fold at the same
 * time: a row another fold already took is no longer there to take.
 */
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/database.js';
import { toBigInt } from '../db/values.js';
import { ADD_TO_TOTALS, TAKE_DELTAS } from './statements.js';
import { zero, type Delta } from './types.js';

type DeltaRow = { account_id: string; debits_pending: bigint; debits_posted: bigint; credits_pending: bigint; credits_posted: bigint };

/** Deltas folded per transaction: bounds how long one fold holds the system accounts. */
export const FOLD_BATCH = 2000;

/** Folds up to `limit` of the oldest deltas; answers how many it folded. */
export async function foldLedgerDeltas(deps: { db: Database; clock: Clock }, limit = FOLD_BATCH): Promise<number> {
  const { db, clock } = deps;
  return db.tx(async () => {
    const taken = await db.query<DeltaRow>(TAKE_DELTAS, [limit]);
    const sums = new Map<string, Delta>();
    for (const r of taken) {
      const d = sums.get(r.account_id) ?? sums.set(r.account_id, zero()).get(r.account_id)!;
      d.debitsPending += toBigInt(r.debits_pending);
      d.debitsPosted += toBigInt(r.debits_posted);
      d.creditsPending += toBigInt(r.credits_pending);
      d.creditsPosted += toBigInt(r.credits_posted);
    }
    const now = clock.now().toISOString();
    // In id order, as every writer of accounts locks them: two folds on two nodes never deadlock.
    for (const id of [...sums.keys()].sort()) {
      const d = sums.get(id)!;
      await db.execute(
        ADD_TO_TOTALS,
        [d.debitsPending, d.debitsPosted, d.creditsPending, d.creditsPosted, now, id].map((v) => (typeof v === 'bigint' ? v.toString() : v)),
      );
    }
    return taken.length;
  });
}

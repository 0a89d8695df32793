/**
 * Replay protection for signed UMA messages: a (counterparty domain, nonce) pair is accepted once,
 * in the database, so a restart or another node does not forget it (the SDK's validator is one
 * process's memory). A message must also be signed within TIMESTAMP_WINDOW_MS of now, either way:
 * an old one may have had its nonce pruned, and one from the future would outlive the window.
 */
import type { Clock } from '../../common/clock.js';
import type { Database } from '../../db/database.js';

export const TIMESTAMP_WINDOW_MS = 5 * 60_000;
/** Nonces older than this are refused for their age before their row is looked at, so they can go. */
const KEEP_MS = 2 * TIMESTAMP_WINDOW_MS;
const PRUNE_EVERY_MS = 60_000;

export type NonceVerdict = 'ACCEPTED' | 'REPLAYED' | 'STALE' | 'FROM_THE_FUTURE';

export function createNonceStore(deps: { db: Database; clock: Clock }) {
  const { db, clock } = deps;
  let prunedAt = 0;

  async function prune(now: number) {
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    await db.tx((trx) =>
      trx
        .deleteFrom('uma_nonces')
        .where('signed_at', '<', new Date(now - KEEP_MS).toISOString())
        .execute(),
    );
  }

  return {
    /**
     * Accepts (domain, nonce) signed at `signedAtSeconds` (Unix seconds, as UMA messages carry it)
     * once. Call it after the signature verified, so nobody can spend a counterparty's nonces.
     */
    async accept(domain: string, nonce: string, signedAtSeconds: number): Promise<NonceVerdict> {
      const now = clock.now().getTime();
      const signedAt = signedAtSeconds * 1000;
      if (!Number.isFinite(signedAt) || nonce.length === 0 || nonce.length > 128) return 'STALE';
      if (signedAt < now - TIMESTAMP_WINDOW_MS) return 'STALE';
      if (signedAt > now + TIMESTAMP_WINDOW_MS) return 'FROM_THE_FUTURE';
      await prune(now);
      const inserted = await db.tx((trx) =>
        trx
          .insertInto('uma_nonces')
          .values({ domain: domain.toLowerCase(), nonce, signed_at: new Date(signedAt).toISOString(), seen_at: new Date(now).toISOString() })
          .onConflict((oc) => oc.columns(['domain', 'nonce']).doNothing())
          .executeTakeFirst(),
      );
      return BigInt(inserted.numInsertedOrUpdatedRows ?? 0n) === 1n ? 'ACCEPTED' : 'REPLAYED';
    },
  };
}

export type NonceStore = ReturnType<typeof createNonceStore>;

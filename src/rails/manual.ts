import type { Rail } from './types.js';

/**
 * PRODUCTION until real bank and custody connectors exist: a payout (or pull) waits in
 * PROCESSING, its funds reserved, until an operator settles or fails it with
 * `npx corridor payout settle|fail <transactionId>` (rails/cli.ts) after moving the money by hand.
 */
export function createManualRail(): Rail {
  return { name: 'manual', planPayout: () => [], planPull: () => [] };
}

import { randomFillSync } from 'node:crypto';

/**
 * Random bytes from the system's CSPRNG without a system call per use: `crypto.randomBytes(5)`
 * costs as much as filling 4 KiB, so ids, UMA address suffixes and funding references take their
 * bytes from a pool refilled 4 KiB at a time. Each byte is handed out once. Long-lived secrets
 * (tokens, session keys, the KEK) still call `randomBytes` themselves.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `n` (at most 4096) fresh random bytes: a view of the pool that later calls overwrite, so read it at once. */
export function randomView(n: number): Buffer {
  if (offset + n > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const view = pool.subarray(offset, offset + n);
  offset += n;
  return view;
}

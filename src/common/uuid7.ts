import { randomFillSync } from 'node:crypto';

/**
 * UUID version 7 (RFC 9562) without a system call per id: random bytes come from a pool refilled
 * 4 KiB at a time. Ids of one process are strictly increasing: within one millisecond the 12-bit
 * rand_a field counts up (method 1 of the RFC, "fixed bit-length dedicated counter"); when it
 * overflows, the timestamp moves on by a millisecond, as the uuid package does.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;
let lastMs = -1;
let counter = 0;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function random(n: number): number {
  if (offset + n > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += n;
  return at;
}

export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    // A random start in the lower half leaves room to count up within the millisecond.
    const r = random(2);
    counter = ((pool[r] << 8) | pool[r + 1]) & 0x7ff;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const ms = lastMs;
  const b = random(8);
  const high = Math.floor(ms / 0x100000000);
  const low = ms >>> 0;
  return (
    HEX[(high >>> 8) & 0xff] +
    HEX[high & 0xff] +
    HEX[(low >>> 24) & 0xff] +
    HEX[(low >>> 16) & 0xff] +
    '-' +
    HEX[(low >>> 8) & 0xff] +
    HEX[low & 0xff] +
    '-' +
    HEX[0x70 | (counter >>> 8)] +
    HEX[counter & 0xff] +
    '-' +
    HEX[0x80 | (pool[b] & 0x3f)] +
    HEX[pool[b + 1]] +
    '-' +
    HEX[pool[b + 2]] +
    HEX[pool[b + 3]] +
    HEX[pool[b + 4]] +
    HEX[pool[b + 5]] +
    HEX[pool[b + 6]] +
    HEX[pool[b + 7]]
  );
}

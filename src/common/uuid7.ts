import { randomView } from './random.js';

/**
 * UUID version 7 (RFC 9562) without a system call per id: random bytes come from a pool refilled
 * 4 KiB at a time (random.ts). Ids of one process are strictly increasing: within one millisecond the 12-bit
 * rand_a field counts up (method 1 of the RFC, "fixed bit-length dedicated counter"); when it
 * overflows, the timestamp moves on by a millisecond, as the uuid package does.
 */
let lastMs = -1;
let counter = 0;

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function uuidv7(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    // A random start in the lower half leaves room to count up within the millisecond.
    const r = randomView(2);
    counter = ((r[0] << 8) | r[1]) & 0x7ff;
  } else if (++counter > 0xfff) {
    lastMs++;
    counter = 0;
  }
  const ms = lastMs;
  const b = randomView(8);
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
    HEX[0x80 | (b[0] & 0x3f)] +
    HEX[b[1]] +
    '-' +
    HEX[b[2]] +
    HEX[b[3]] +
    HEX[b[4]] +
    HEX[b[5]] +
    HEX[b[6]] +
    HEX[b[7]]
  );
}

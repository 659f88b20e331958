import { randomFillSync } from 'node:crypto';

let lastMs = 0;
let counter = 0;

// Random bytes drawn 4 KiB at a time: asking the system for 16 bytes per id costs more than the rest
// of making it, and an import makes an id per row.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;
const bytes = Buffer.alloc(16);

/**
 * A UUIDv7 (RFC 9562): 48 bits of milliseconds, then a 12-bit counter that keeps ids made in
 * the same millisecond in order, then random bits. Sorting ids sorts records by creation.
 */
export function newId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
    ms = lastMs;
  } else {
    lastMs = ms;
    counter = 0;
  }
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  pool.copy(bytes, 0, poolOffset, poolOffset + 16);
  poolOffset += 16;
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

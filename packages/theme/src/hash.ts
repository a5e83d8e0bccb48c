// A small string hash implemented here (FNV-1a + a 32-bit finaliser), identical on every JS engine.

/**
 * A 32-bit unsigned hash of a string's UTF-8 bytes. Only integer operations (`Math.imul`, shifts,
 * xor), so the same string gives the same number on every engine, platform and locale.
 *
 * @example
 * ```ts
 * hashString('weather'); // always the same 32-bit number
 * ```
 */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  // FNV-1a alone clusters short, similar names; a murmur3-style finaliser spreads every bit.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

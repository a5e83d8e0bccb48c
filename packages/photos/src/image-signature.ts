// Image signatures: the first bytes each accepted photo type starts with, so a page or script uploaded
// as `image/png` is refused instead of stored and served back.

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));

/** HEIF brands (ISO/IEC 23008-12) a phone camera writes for `image/heic`. */
const HEIC_BRANDS = ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'];

const SIGNATURES: Readonly<Record<string, (b: Uint8Array) => boolean>> = {
  'image/jpeg': (b) => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/png': (b) =>
    b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((x, i) => b[i] === x),
  'image/gif': (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'),
  'image/webp': (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP'),
  'image/heic': (b) => ascii(b, 4, 'ftyp') && HEIC_BRANDS.some((brand) => ascii(b, 8, brand)),
};

/**
 * True when `bytes` start the way an image of `type` does. Unknown types are never images.
 *
 * @example
 * ```ts
 * hasImageSignature('image/png', new TextEncoder().encode('<html>')); // false
 * ```
 */
export function hasImageSignature(type: string, bytes: Uint8Array): boolean {
  return SIGNATURES[type]?.(bytes) ?? false;
}

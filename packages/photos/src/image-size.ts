// Image dimensions read from an accepted photo's header (PNG, GIF, JPEG with its EXIF orientation, WebP), so
// a link can carry the size and the app lays a photo out at its final height before the bytes arrive.

/** A photo's displayed size in pixels (a JPEG turned by its EXIF orientation has width and height swapped). */
export interface ImageSize {
  width: number;
  height: number;
}

const be16 = (b: Uint8Array, at: number) => ((b[at]! << 8) | b[at + 1]!) >>> 0;
const le16 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8)) >>> 0;
const le24 = (b: Uint8Array, at: number) => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16)) >>> 0;
const be32 = (b: Uint8Array, at: number) => ((b[at]! << 24) | (b[at + 1]! << 16) | be16(b, at + 2)) >>> 0;
const ascii = (b: Uint8Array, at: number, text: string) =>
  b.length >= at + text.length && [...text].every((c, i) => b[at + i] === c.charCodeAt(0));

/** Largest side accepted as real: anything bigger is a broken or hostile header, not a photo. */
const MAX_SIDE = 65_535;

function sized(width: number, height: number): ImageSize | null {
  const ok = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_SIDE;
  return ok(width) && ok(height) ? { width, height } : null;
}

function png(b: Uint8Array): ImageSize | null {
  return b.length >= 24 && ascii(b, 12, 'IHDR') ? sized(be32(b, 16), be32(b, 20)) : null;
}

function gif(b: Uint8Array): ImageSize | null {
  return b.length >= 10 ? sized(le16(b, 6), le16(b, 8)) : null;
}

function webp(b: Uint8Array): ImageSize | null {
  if (ascii(b, 12, 'VP8 ') && b.length >= 30) return sized(le16(b, 26) & 0x3fff, le16(b, 28) & 0x3fff);
  if (ascii(b, 12, 'VP8L') && b.length >= 25 && b[20] === 0x2f) {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return sized(1 + (((b1 & 0x3f) << 8) | b0), 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)));
  }
  if (ascii(b, 12, 'VP8X') && b.length >= 30) return sized(1 + le24(b, 24), 1 + le24(b, 27));
  return null;
}

/** The EXIF orientation (1-8) in an APP1 segment's body, or 1 when it says none. */
function exifOrientation(b: Uint8Array, start: number, end: number): number {
  if (!ascii(b, start, 'Exif\0\0')) return 1;
  const tiff = start + 6;
  const little = ascii(b, tiff, 'II');
  if (!little && !ascii(b, tiff, 'MM')) return 1;
  const u16 = (at: number) => (little ? le16(b, at) : be16(b, at));
  const u32 = (at: number) => (little ? (le16(b, at) | (le16(b, at + 2) << 16)) >>> 0 : be32(b, at));
  const ifd = tiff + u32(tiff + 4);
  if (ifd + 2 > end) return 1;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : 1;
    }
  }
  return 1;
}

// Start-of-frame markers carry the frame size (C4 is a Huffman table, C8 reserved, CC arithmetic coding).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): ImageSize | null {
  let at = 2;
  let orientation = 1;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    const length = be16(b, at + 2);
    if (length < 2) return null;
    if (marker === 0xe1) orientation = Math.max(orientation, exifOrientation(b, at + 4, at + 2 + length));
    if (SOF.has(marker)) {
      if (at + 9 > b.length) return null;
      const height = be16(b, at + 5);
      const width = be16(b, at + 7);
      // Orientations 5-8 turn the picture a quarter: the browser shows it with the sides swapped.
      return orientation >= 5 ? sized(height, width) : sized(width, height);
    }
    at += 2 + length;
  }
  return null;
}

const READERS: Readonly<Record<string, (b: Uint8Array) => ImageSize | null>> = {
  'image/png': png,
  'image/gif': gif,
  'image/webp': webp,
  'image/jpeg': jpeg,
};

/**
 * The displayed size of an image of `type` from its header, or null when the header does not say (HEIC,
 * a truncated file, a side over 65,535 pixels). Never throws: an unknown size only means the app lays the
 * photo out once it has loaded.
 *
 * @example
 * ```ts
 * imageSize('image/png', bytes); // { width: 1200, height: 900 }
 * ```
 */
export function imageSize(type: string, bytes: Uint8Array): ImageSize | null {
  try {
    return READERS[type]?.(bytes) ?? null;
  } catch {
    return null;
  }
}

// Photo sizes from headers built byte by byte after each format's specification (PNG IHDR, GIF logical
// screen, JPEG SOF with an EXIF orientation, WebP's three chunk kinds), and the headers that say nothing.
import { describe, expect, it } from 'vitest';
import { imageSize } from './image-size.js';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));
const be16 = (n: number) => [n >> 8, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, n >> 8];
const le24 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];

const png = (w: number, h: number) =>
  bytes(
    [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    be32(13),
    'IHDR',
    be32(w),
    be32(h),
    [8, 6, 0, 0, 0],
  );

/** A JPEG's start: SOI, an optional EXIF APP1 with one orientation entry, a quantisation table, SOF0. */
function jpeg(w: number, h: number, orientation?: number, order: 'II' | 'MM' = 'MM'): Uint8Array {
  const u16 = order === 'II' ? le16 : be16;
  const u32 = (n: number) => (order === 'II' ? [...be32(n)].reverse() : be32(n));
  const tiff = [
    ...bytes(order),
    ...u16(42),
    ...u32(8),
    ...u16(1),
    ...u16(0x0112),
    ...u16(3),
    ...u32(1),
    ...u16(orientation ?? 1),
    0,
    0,
    ...u32(0),
  ];
  const exif = [...bytes('Exif\0\0'), ...tiff];
  const app1 = orientation === undefined ? [] : [0xff, 0xe1, ...be16(exif.length + 2), ...exif];
  const dqt = [0xff, 0xdb, ...be16(67), 0, ...new Array(64).fill(1)];
  const sof = [0xff, 0xc0, ...be16(17), 8, ...be16(h), ...be16(w), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  return bytes([0xff, 0xd8], app1, dqt, [0xff], sof);
}

describe('imageSize', () => {
  it('reads PNG and GIF headers', () => {
    expect(imageSize('image/png', png(1200, 900))).toEqual({ width: 1200, height: 900 });
    expect(imageSize('image/gif', bytes('GIF89a', le16(320), le16(200), [0xf7, 0, 0]))).toEqual({
      width: 320,
      height: 200,
    });
  });

  it('reads a JPEG frame and turns it by its EXIF orientation, in either byte order', () => {
    expect(imageSize('image/jpeg', jpeg(4032, 3024))).toEqual({ width: 4032, height: 3024 });
    expect(imageSize('image/jpeg', jpeg(4032, 3024, 1))).toEqual({ width: 4032, height: 3024 });
    // A phone held upright writes a landscape frame with orientation 6: shown portrait.
    expect(imageSize('image/jpeg', jpeg(4032, 3024, 6))).toEqual({ width: 3024, height: 4032 });
    expect(imageSize('image/jpeg', jpeg(4032, 3024, 8, 'II'))).toEqual({ width: 3024, height: 4032 });
    expect(imageSize('image/jpeg', jpeg(4032, 3024, 3, 'II'))).toEqual({ width: 4032, height: 3024 });
  });

  it("reads WebP's lossy, lossless and extended headers", () => {
    const riff = (chunk: string, body: number[]) =>
      bytes('RIFF', [0, 0, 0, 0], 'WEBP', chunk, [0, 0, 0, 0], body);
    // VP8: frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    expect(
      imageSize('image/webp', riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, ...le16(640), ...le16(480)])),
    ).toEqual({
      width: 640,
      height: 480,
    });
    // VP8L: signature 0x2f, then (width-1) in 14 bits and (height-1) in 14 bits, little-endian.
    const packed = (640 - 1) | ((480 - 1) << 14);
    expect(
      imageSize(
        'image/webp',
        riff('VP8L', [0x2f, packed & 0xff, (packed >> 8) & 0xff, (packed >> 16) & 0xff, packed >>> 24]),
      ),
    ).toEqual({ width: 640, height: 480 });
    // VP8X: flags and reserved (4 bytes), then canvas width-1 and height-1 in 24 bits each.
    expect(imageSize('image/webp', riff('VP8X', [0, 0, 0, 0, ...le24(1999), ...le24(2999)]))).toEqual({
      width: 2000,
      height: 3000,
    });
  });

  it('says nothing for headers it cannot read, and never throws', () => {
    expect(imageSize('image/heic', bytes([0, 0, 0, 24], 'ftypheic'))).toBeNull();
    expect(imageSize('image/png', png(1200, 900).slice(0, 20))).toBeNull();
    expect(imageSize('image/png', png(0, 900))).toBeNull();
    expect(imageSize('image/png', png(70_000, 900))).toBeNull();
    expect(imageSize('image/jpeg', jpeg(800, 600).slice(0, 40))).toBeNull();
    expect(imageSize('image/jpeg', bytes([0xff, 0xd8, 0x00, 0x00]))).toBeNull();
    expect(imageSize('image/bmp', png(10, 10))).toBeNull();
  });
});

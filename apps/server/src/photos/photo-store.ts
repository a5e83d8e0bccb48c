// Photo bytes in <dataDir>/photos, reachable only through HMAC-signed links that expire after 1 hour.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { PhotoRecord } from '@screen-service/service-core';

export const PHOTO_LINK_TTL_MS = 60 * 60 * 1000;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
export const PHOTO_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
};

export interface PhotoStore {
  /** Writes the bytes under a random file name; returns the name to record. */
  save(bytes: Buffer, contentType: string): Promise<string>;
  /** Absolute path of a recorded file name (never outside the photos directory). */
  pathOf(file: string): string;
  /** Signed links, one per photo, valid for 1 hour from now. */
  links(photos: PhotoRecord[]): string[];
  /** True when `exp` is in the future and `sig` signs (id, exp). */
  verify(photoId: string, exp: string, sig: string): boolean;
  /** Removes files (account or agent deletion); missing files are ignored. */
  remove(files: string[]): Promise<void>;
}

export function createPhotoStore(o: {
  dir: string;
  secret: Uint8Array;
  baseUrl: string;
  now: () => number;
}): PhotoStore {
  const sign = (id: string, exp: string) =>
    createHmac('sha256', o.secret).update(`photo:${id}:${exp}`).digest('base64url');
  const pathOf = (file: string) => {
    if (!/^[A-Za-z0-9_-]+\.[a-z]+$/.test(file)) throw new Error(`not a stored photo file name: ${file}`);
    return path.join(o.dir, file);
  };
  return {
    async save(bytes, contentType) {
      const ext = PHOTO_TYPES[contentType];
      if (!ext) throw new Error(`unsupported photo type ${contentType}`);
      await fs.promises.mkdir(o.dir, { recursive: true });
      const file = `${randomBytes(16).toString('base64url')}.${ext}`;
      await fs.promises.writeFile(pathOf(file), bytes, { flag: 'wx' });
      return file;
    },
    pathOf,
    links(photos) {
      const exp = String(o.now() + PHOTO_LINK_TTL_MS);
      return photos.map((p) => `${o.baseUrl}/${encodeURIComponent(p.id)}?exp=${exp}&sig=${sign(p.id, exp)}`);
    },
    verify(photoId, exp, sig) {
      if (!/^\d{1,16}$/.test(exp) || Number(exp) <= o.now()) return false;
      const want = Buffer.from(sign(photoId, exp));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
    async remove(files) {
      await Promise.all(files.map((f) => fs.promises.rm(pathOf(f), { force: true })));
    },
  };
}

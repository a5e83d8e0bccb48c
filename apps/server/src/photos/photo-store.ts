// The server's photo calls: service-core's photo use cases over <dataDir>/photos, plus the file-level calls
// the person's API used before it called the use cases (kept until every route has moved).
import {
  type Core,
  type createDiskPhotoFiles,
  MAX_PHOTO_BYTES,
  PHOTO_LINK_TTL_MS,
  PHOTO_TYPES,
  type PhotoRecord,
  type Photos,
} from '@screen-service/service-core';

export { MAX_PHOTO_BYTES, PHOTO_LINK_TTL_MS, PHOTO_TYPES };

export interface PhotoStore extends Photos {
  /** @deprecated call `upload`: writes the bytes under a random file name; returns the name to record. */
  save(bytes: Buffer, contentType: string): Promise<string>;
  /** @deprecated call `open`: absolute path of a recorded file name (never outside the photos directory). */
  pathOf(file: string): string;
  /** Signed links, one per photo, valid for 1 hour from now. */
  links(photos: PhotoRecord[]): string[];
  /** True when `exp` is in the future and `sig` signs (id, exp). */
  verify(photoId: string, exp: string, sig: string): boolean;
  /** @deprecated call `core.deleteAccount` / `core.deleteAgent`, which remove the files themselves. */
  remove(files: string[]): Promise<void>;
}

export function createPhotoStore(core: Core, files: ReturnType<typeof createDiskPhotoFiles>): PhotoStore {
  return {
    ...core.photos,
    async save(bytes, contentType) {
      const ext = PHOTO_TYPES[contentType];
      if (!ext) throw new Error(`unsupported photo type ${contentType}`);
      const file = `${Buffer.from(core.random.bytes(16)).toString('base64url')}.${ext}`;
      await files.write(file, bytes);
      return file;
    },
    pathOf: files.pathOf,
    links: (photos) => core.photoLinks.sign(photos),
    verify: (photoId, exp, sig) => core.photoLinks.verify(photoId, exp, sig),
    async remove(names) {
      await Promise.all(names.map((f) => files.remove(f)));
    },
  };
}

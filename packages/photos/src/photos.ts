// Photos the person attaches to answers: upload checks, where the bytes go (PhotoFiles), the signed,
// expiring links (PhotoLinks), and removing the files of deleted rows without ever half-doing it.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock, Random } from '@screen-service/registry/kernel';
import { createRateLimiter, newId, type RateLimiter, ServiceError } from '@screen-service/registry/kernel';
import type { PhotoRecord, Store } from '@screen-service/registry/model';
import { hasImageSignature } from './image-signature.js';
import { imageSize } from './image-size.js';

/** A signed photo link lives this long (doc1: 1 hour). */
export const PHOTO_LINK_TTL_MS = 60 * 60 * 1000;
/** The largest photo accepted by default (10 MB; `SVC_PHOTO_MAX_BYTES` on the server). */
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/** What one account's photos may hold together by default (500 MB; `SVC_PHOTO_QUOTA_BYTES`). */
export const PHOTO_QUOTA_BYTES = 500 * 1024 * 1024;
/** Uploads per account: a burst of 20, then 10 a minute. */
export const PHOTO_UPLOAD_RATE = Object.freeze({ burst: 20, perMinute: 10 });
/** Accepted content types and the file extension each is stored with. */
export const PHOTO_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/heic': 'heic',
};

/** Where photo bytes live (the server keeps them under `<dataDir>/photos`). */
export interface PhotoFiles {
  /** Writes a new file; never overwrites one. */
  write(name: string, bytes: Uint8Array): Promise<void>;
  /** A readable stream of the file's bytes. */
  read(name: string): NodeJS.ReadableStream;
  /** Removes one file; a missing file counts as removed. Throws when the file stays. */
  remove(name: string): Promise<void>;
}

/** Signed, expiring links to photos: what the app and the tool server hand out. */
export interface PhotoLinks {
  /**
   * One link per photo, valid {@link PHOTO_LINK_TTL_MS} from now. A photo whose size is known carries it
   * in the link's fragment (`#w=1200&h=900`): never sent to the server, read by the app to size the photo
   * before it loads.
   */
  sign(
    photos: readonly (Pick<PhotoRecord, 'id'> & Partial<Pick<PhotoRecord, 'width' | 'height'>>)[],
  ): string[];
  /** True when `exp` is in the future and `sig` signs (photo id, exp). */
  verify(photoId: string, exp: string, sig: string): boolean;
}

/**
 * HMAC-SHA256 links: `{photosUrl}/{id}?exp={ms}&sig={base64url}[#w={px}&h={px}]`, signed with the service
 * secret (the fragment, the photo's size, is not signed: it only lays the photo out).
 *
 * @example
 * ```ts
 * const links = createSignedPhotoLinks({ secret, photosUrl: serviceUrls(base).photosUrl, now });
 * const [url] = links.sign([photo]);
 * ```
 */
export function createSignedPhotoLinks(o: { secret: Uint8Array; photosUrl: string; now: Clock }): PhotoLinks {
  const sign = (id: string, exp: string) =>
    createHmac('sha256', o.secret).update(`photo:${id}:${exp}`).digest('base64url');
  return {
    sign(photos) {
      const exp = String(o.now() + PHOTO_LINK_TTL_MS);
      return photos.map((p) => {
        const size = p.width && p.height ? `#w=${p.width}&h=${p.height}` : '';
        return `${o.photosUrl}/${encodeURIComponent(p.id)}?exp=${exp}&sig=${sign(p.id, exp)}${size}`;
      });
    },
    verify(photoId, exp, sig) {
      if (typeof exp !== 'string' || typeof sig !== 'string') return false;
      if (!/^\d{1,16}$/.test(exp) || Number(exp) <= o.now()) return false;
      const want = Buffer.from(sign(photoId, exp));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
  };
}

/**
 * The upload checks: a known image type (parameters after `;` ignored, any case), 1 byte to `maxBytes`,
 * and bytes that start like that type (an HTML page sent as `image/png` is refused). Returns the clean
 * type and the file extension.
 *
 * @throws {ServiceError} `INVALID_INPUT` (field `content-type` or `body`) saying what to send instead.
 * @example
 * ```ts
 * checkPhotoUpload('image/PNG; charset=binary', bytes); // { type: 'image/png', ext: 'png' }
 * ```
 */
export function checkPhotoUpload(
  contentType: unknown,
  bytes: unknown,
  maxBytes: number = MAX_PHOTO_BYTES,
): { type: string; ext: string } {
  const type = String(contentType ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  const ext = PHOTO_TYPES[type];
  if (!ext) {
    throw new ServiceError('INVALID_INPUT', `Send the photo as ${Object.keys(PHOTO_TYPES).join(', ')}.`, {
      field: 'content-type',
    });
  }
  if (!(bytes instanceof Uint8Array) || bytes.length === 0 || bytes.length > maxBytes) {
    throw new ServiceError('INVALID_INPUT', `The body must be the image bytes, up to ${maxBytes} bytes.`, {
      field: 'body',
    });
  }
  if (!hasImageSignature(type, bytes)) {
    throw new ServiceError(
      'INVALID_INPUT',
      `The body is not a ${ext.toUpperCase()} image: send the image file's own bytes with its type.`,
      { field: 'body' },
    );
  }
  return { type, ext };
}

/** An upload's idempotency key (ADR 0287): 1 to 128 of `A-Za-z0-9._:~-`, as the answers' keys (ADR 0276). */
const UPLOAD_KEY = /^[A-Za-z0-9._:~-]{1,128}$/;

/**
 * The `idempotency-key` header of an upload: undefined when absent, else the key.
 *
 * @throws {ServiceError} `INVALID_INPUT` (field `idempotency-key`) for a key of other characters or length.
 */
export function checkUploadKey(key: unknown): string | undefined {
  if (key === undefined || key === null) return undefined;
  if (typeof key !== 'string' || !UPLOAD_KEY.test(key)) {
    throw new ServiceError(
      'INVALID_INPUT',
      'The idempotency-key header must be 1 to 128 letters, digits or . _ : ~ - (one key per photo).',
      { field: 'idempotency-key' },
    );
  }
  return key;
}

/** Photo use cases of the person's API. */
export interface Photos {
  /** The largest upload accepted, in bytes (the person's API sizes its body parser with it). */
  readonly maxBytes: number;
  /**
   * `POST /agents/:id/photos`: checks, stores the bytes, records the row; returns its id and link. With an
   * `idempotencyKey` (ADR 0287) the person's upload is kept once: the same key with the same image for the same
   * thread answers the first photo and stores nothing; the key with another image or thread is `CONFLICT`.
   */
  upload(
    userId: string,
    agentId: string,
    input: { contentType: unknown; bytes: unknown; idempotencyKey?: unknown },
  ): Promise<{ id: string; url: string }>;
  /** `GET /photos/:id?exp&sig`: the photo behind a valid link, or `NOT_FOUND`. */
  open(
    photoId: string,
    exp: unknown,
    sig: unknown,
  ): Promise<{ contentType: string; bytes: number; body: NodeJS.ReadableStream }>;
  /**
   * Removes the files whose rows are gone (queued in the deleting transaction). Files that fail stay
   * queued for the next call; returns how many were removed and how many are left.
   */
  sweep(): Promise<{ removed: number; failed: number }>;
}

export interface PhotosOptions {
  store: Store;
  files: PhotoFiles;
  links: PhotoLinks;
  now: Clock;
  random: Random;
  /** Confirms the agent is the user's (`AGENT_NOT_FOUND` otherwise) and records the row. */
  addPhoto(
    userId: string,
    agentId: string,
    file: {
      file: string;
      contentType: string;
      bytes: number;
      width: number | null;
      height: number | null;
      /** The upload's idempotency key (ADR 0287); the store refuses a second row with it (`CONFLICT`). */
      idemKey?: string | null;
    },
  ): Promise<PhotoRecord>;
  /** Reports a file that could not be removed (it stays queued). */
  onRemoveError?: (file: string, err: unknown) => void;
  /** Largest photo in bytes; default {@link MAX_PHOTO_BYTES}. */
  maxBytes?: number;
  /** Bytes one account's photos may hold together; default {@link PHOTO_QUOTA_BYTES}. */
  quotaBytes?: number;
  /** Uploads per account; default {@link PHOTO_UPLOAD_RATE}. */
  uploadRate?: RateLimiter;
}

const SWEEP_BATCH = 200;

const sha256 = async (bytes: Uint8Array | NodeJS.ReadableStream): Promise<string> => {
  const hash = createHash('sha256');
  if (bytes instanceof Uint8Array) hash.update(bytes);
  else for await (const chunk of bytes) hash.update(chunk as Uint8Array);
  return hash.digest('hex');
};

/** The upload `key` already names a photo with other bytes, or of another thread: never answered with it. */
const keyReused = (key: string) =>
  new ServiceError(
    'CONFLICT',
    `The idempotency key "${key}" was already used for another photo; send a new key with each new photo.`,
    { field: 'idempotency-key' },
  );

/**
 * The person's photo kept under `key` when it is this upload sent again (same thread, type and bytes), null
 * when the key is free; `CONFLICT` when it names another photo. The bytes are compared through their hash, read
 * back from the files: a resend is rare, and the row keeps no digest.
 */
async function sameUpload(
  o: PhotosOptions,
  up: { userId: string; agentId: string; key: string; type: string; bytes: Uint8Array },
): Promise<PhotoRecord | null> {
  const kept = await o.store.photos.findByKey(up.userId, up.key);
  if (!kept) return null;
  const same =
    kept.agentId === up.agentId &&
    kept.contentType === up.type &&
    kept.bytes === up.bytes.length &&
    (await sha256(o.files.read(kept.file))) === (await sha256(up.bytes));
  if (!same) throw keyReused(up.key);
  return kept;
}

/**
 * @example
 * ```ts
 * const photos = createPhotos({ store, files, links, now, random, addPhoto: threads.addPhoto });
 * const { id, url } = await photos.upload(userId, agentId, { contentType: 'image/png', bytes });
 * ```
 */
export function createPhotos(o: PhotosOptions): Photos {
  const maxBytes = o.maxBytes ?? MAX_PHOTO_BYTES;
  const quotaBytes = o.quotaBytes ?? PHOTO_QUOTA_BYTES;
  const rate = o.uploadRate ?? createRateLimiter({ ...PHOTO_UPLOAD_RATE, now: o.now });
  return {
    maxBytes,
    async upload(userId, agentId, input) {
      const key = checkUploadKey(input.idempotencyKey);
      const { type, ext } = checkPhotoUpload(input.contentType, input.bytes, maxBytes);
      const bytes = input.bytes as Uint8Array;
      const up = key === undefined ? null : { userId, agentId, key, type, bytes };
      // A resend (the phone never heard the first answer): the first photo, without rate, quota or a write.
      const resent = up && (await sameUpload(o, up));
      if (resent) return { id: resent.id, url: o.links.sign([resent])[0]! };
      const allowed = await rate.take(userId);
      if (!allowed.ok) {
        throw new ServiceError(
          'RATE_LIMITED',
          `Too many photos in a short time; try again in ${allowed.retryAfterS} s.`,
          { details: { retryAfterS: allowed.retryAfterS } },
        );
      }
      const used = await o.store.photos.bytesOf(userId);
      if (used + bytes.length > quotaBytes) {
        throw new ServiceError(
          'LIMIT_EXCEEDED',
          `Your photos hold ${used} of ${quotaBytes} bytes; remove threads or agents with old photos to make room.`,
          { field: 'body' },
        );
      }
      const name = `${newId('', o.random)}.${ext}`;
      await o.files.write(name, bytes);
      let photo: PhotoRecord;
      try {
        // The size from the header, so a link can lay the photo out before it loads (issue 38).
        const size = imageSize(type, bytes);
        photo = await o.addPhoto(userId, agentId, {
          file: name,
          contentType: type,
          bytes: bytes.length,
          width: size?.width ?? null,
          height: size?.height ?? null,
          idemKey: key ?? null,
        });
      } catch (err) {
        // No row, no file: an upload refused after the write leaves nothing behind.
        await o.files.remove(name).catch(() => {});
        // Two sends of one upload at once: the store kept the other's row; answer it as a resend.
        const winner =
          up && err instanceof ServiceError && err.code === 'CONFLICT' && (await sameUpload(o, up));
        if (winner) return { id: winner.id, url: o.links.sign([winner])[0]! };
        throw err;
      }
      return { id: photo.id, url: o.links.sign([photo])[0]! };
    },

    async open(photoId, exp, sig) {
      const ok = typeof exp === 'string' && typeof sig === 'string' && o.links.verify(photoId, exp, sig);
      const photo = ok ? await o.store.photos.get(photoId) : null;
      if (!photo) throw new ServiceError('NOT_FOUND', 'This photo link is unknown or expired.');
      return { contentType: photo.contentType, bytes: photo.bytes, body: o.files.read(photo.file) };
    },

    async sweep() {
      let removed = 0;
      let failed = 0;
      const tried = new Set<string>();
      for (;;) {
        const batch = (await o.store.photos.pendingRemovals(SWEEP_BATCH)).filter((f) => !tried.has(f));
        if (batch.length === 0) return { removed, failed };
        const done: string[] = [];
        const bad: string[] = [];
        for (const file of batch) {
          tried.add(file);
          try {
            await o.files.remove(file);
            done.push(file);
          } catch (err) {
            bad.push(file);
            o.onRemoveError?.(file, err);
          }
        }
        await o.store.photos.settleRemovals(done, bad);
        removed += done.length;
        failed += bad.length;
      }
    },
  };
}

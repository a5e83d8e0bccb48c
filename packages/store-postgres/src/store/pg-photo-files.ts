// PhotoFiles in PostgreSQL (ADR 0220): every instance reads every photo; the bytes go with the row's delete.
import { Readable } from 'node:stream';
import type { PhotoFiles } from '@screen-service/photos';
import type pg from 'pg';
import { createPgDb } from './pg-db.js';

/** Options of {@link createPostgresPhotoFiles}. */
export interface PostgresPhotoFilesOptions {
  /** The store's pool (the same database as the photo rows). */
  pool: pg.Pool;
  /** Stamps each stored file (for the orphan sweep); default `Date.now`. */
  now?: () => number;
}

/**
 * Photo bytes in the `photo_files` table, behind the same interface the disk implementation offers. A
 * photo row's delete removes its bytes in the same transaction (a trigger), and the housekeeping sweep of
 * unattached photos also drops bytes whose row was never written (a crash between the two writes).
 *
 * @example
 * ```ts
 * const store = await openPostgresStore({ url });
 * const core = createCore({ store: store.store, photoFiles: createPostgresPhotoFiles({ pool: store.pool }), ... });
 * ```
 */
export function createPostgresPhotoFiles(options: PostgresPhotoFilesOptions): PhotoFiles {
  const db = createPgDb(options.pool);
  const now = options.now ?? Date.now;
  return {
    async write(name, bytes) {
      // A plain INSERT: a second write of a name fails on the primary key, like the disk's `wx` flag.
      await db.run('INSERT INTO photo_files (file, bytes, created_at) VALUES ($1, $2, $3)', [
        name,
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
        now(),
      ]);
    },
    read(name) {
      // The interface hands a stream back at once; the bytes arrive when the query does (errors included).
      return Readable.from(
        (async function* () {
          const r = await db.one<{ bytes: Buffer }>('SELECT bytes FROM photo_files WHERE file = $1', [name]);
          if (!r) throw new Error(`photo file ${name} is not stored`);
          yield r.bytes;
        })(),
      );
    },
    async remove(name) {
      await db.run('DELETE FROM photo_files WHERE file = $1', [name]);
    },
  };
}

// PhotoFiles on the local disk: one file per photo under a directory (the server's `<dataDir>/photos`).
import fs from 'node:fs';
import path from 'node:path';
import type { PhotoFiles } from '@screen-service/photos';

const FILE_NAME = /^[A-Za-z0-9_-]+\.[a-z]+$/;

/**
 * @example
 * ```ts
 * const files = createDiskPhotoFiles(path.join(dataDir, 'photos'));
 * ```
 */
export function createDiskPhotoFiles(dir: string): PhotoFiles & { pathOf(name: string): string } {
  const pathOf = (name: string) => {
    // Names come from the core's random draw; anything else must never reach the file system.
    if (!FILE_NAME.test(name)) throw new Error(`not a stored photo file name: ${name}`);
    return path.join(dir, name);
  };
  return {
    pathOf,
    async write(name, bytes) {
      await fs.promises.mkdir(dir, { recursive: true });
      await fs.promises.writeFile(pathOf(name), bytes, { flag: 'wx' });
    },
    read(name) {
      return fs.createReadStream(pathOf(name));
    },
    async remove(name) {
      await fs.promises.rm(pathOf(name), { force: true });
    },
  };
}

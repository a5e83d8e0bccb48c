// Serves the built dist/public on 127.0.0.1 for the playground test (the app's own tests use apps/server).
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built files (the test runs after `build`). */
export const DIST_PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'public');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
};

export async function serveStatic(root = DIST_PUBLIC): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    try {
      const body = await readFile(join(root, path.endsWith('/') ? `${path}index.html` : path));
      res
        .writeHead(200, {
          'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
          // Cacheable like the service's static files (max-age 5 min), so Chromium keeps compiled WebAssembly.
          'cache-control': 'max-age=300',
        })
        .end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Starts the real service (apps/server, built) in this process on 127.0.0.1 with a temp data dir.
// It is imported by path, not as a package: apps/server depends on apps/web, so a package link back would be a cycle.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../config/free-port.js';

export interface Principal {
  userId: string;
  connectorId: string;
}
export interface Running {
  url: string;
  services: {
    connectionAuth: { verify(credential: string): Promise<Principal> };
  };
  close(graceMs?: number): Promise<void>;
}

/** What tests may inject into the service (apps/server's ServicesOptions): a movable clock, a short status tick. */
export interface ServiceOptions {
  now?: () => number;
  statusTickMs?: number;
}

/** `extra`: more ServerConfig fields; `options`: what the services are built with (a clock, the status tick). */
export async function startService(
  extra: Record<string, unknown> = {},
  options: ServiceOptions = {},
): Promise<Running & { dataDir: string; dispose(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-web-'));
  const entry = new URL('../../server/dist/index.js', import.meta.url).href;
  const { startServer } = (await import(/* @vite-ignore */ entry)) as {
    startServer(config: unknown, logger?: unknown, options?: ServiceOptions): Promise<Running>;
  };
  // A real port up front, so the base URL (and signed photo links) name it.
  const port = await freePort();
  const running = await startServer(
    {
      port,
      host: '127.0.0.1',
      baseUrl: `http://127.0.0.1:${port}`,
      dataDir,
      logLevel: 'silent',
      ...extra,
    },
    undefined,
    options,
  );
  return {
    ...running,
    dataDir,
    async dispose() {
      await running.close(500);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

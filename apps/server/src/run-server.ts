// `npm start` and `svc serve` run the same way: the operations package's process loop around startServer.
import { type ServeOptions, serveUntilStopped as serve } from '@screen-service/operations';
import type { ServerConfig } from './config.js';
import { startServer } from './server.js';

export type { ServeOptions };

/** Serves until SIGINT/SIGTERM; resolves with the exit code (0 clean stop, 1 failed start or stop). */
export function serveUntilStopped(config: ServerConfig, options: ServeOptions): Promise<number> {
  return serve(() => startServer(config), config, options);
}

// Runs the server until SIGINT/SIGTERM, the same way for `npm start` and `svc serve`: one start-up
// failure message, one shutdown log.
import type { ServerConfig } from './config.js';
import { type RunningServer, startServer } from './server.js';

/** What a failed start says, with the next step (EADDRINUSE and EACCES are the usual ones). */
export function startFailureMessage(err: unknown, config: ServerConfig): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    return `Port ${config.port} is already in use (${config.host}). Another Screen Service (\`npm start\` or \`npx svc serve\`: run one or the other) or another program holds it. Stop it, or set PORT (or --port) to a free port.`;
  }
  if (e?.code === 'EACCES' && e.syscall === 'listen') {
    return `Not allowed to listen on port ${config.port} (${config.host}). Choose a port above 1023 with PORT (or --port).`;
  }
  if (['SQLITE_CANTOPEN', 'EACCES', 'EROFS', 'ENOENT', 'ENOTDIR'].includes(String(e?.code))) {
    return `Cannot open the database in ${config.dataDir} (${e.message}). Set SVC_DATA_DIR to a folder you can write.`;
  }
  return `Screen Service failed to start (data in ${config.dataDir}): ${e?.stack ?? String(err)}`;
}

export interface ServeOptions {
  /** Where the failure message goes (stderr). */
  stderr: (line: string) => void;
  /** Signals to stop on; tests never need to change these. */
  signals?: readonly NodeJS.Signals[];
}

/**
 * Starts the server and resolves with an exit code once it stopped: 0 after a clean stop on a signal
 * ("shutting down", then "stopped" in the log), 1 when it could not start or the shutdown failed.
 */
export async function serveUntilStopped(config: ServerConfig, options: ServeOptions): Promise<number> {
  let running: RunningServer;
  try {
    running = await startServer(config);
  } catch (err) {
    options.stderr(`${startFailureMessage(err, config)}\n`);
    return 1;
  }
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    for (const s of signals) process.once(s, () => resolve(s));
  });
  running.logger.info({ signal }, 'shutting down');
  try {
    await running.close();
    running.logger.info('stopped');
    return 0;
  } catch (err) {
    running.logger.error({ err }, 'shutdown failed');
    return 1;
  }
}

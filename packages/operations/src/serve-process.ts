// Runs a service process until SIGINT/SIGTERM, the same way for `npm start` and `svc serve`: one start-up
// failure message with the next step, one shutdown log, an exit code.
import type { Logger } from 'pino';

/** Where the service listens and keeps its data, for the failure messages. */
export interface ServeTarget {
  port: number;
  host: string;
  dataDir: string;
}

/** A started service: its logger, and how to stop it. */
export interface StoppableService {
  logger: Logger;
  close(): Promise<void>;
}

/** What a failed start says, with the next step (EADDRINUSE and EACCES are the usual ones). */
export function startFailureMessage(err: unknown, target: ServeTarget): string {
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    return `Port ${target.port} is already in use (${target.host}). Another Screen Service (\`npm start\` or \`npx svc serve\`: run one or the other) or another program holds it. Stop it, or set PORT (or --port) to a free port.`;
  }
  if (e?.code === 'EACCES' && e.syscall === 'listen') {
    return `Not allowed to listen on port ${target.port} (${target.host}). Choose a port above 1023 with PORT (or --port).`;
  }
  if (['SQLITE_CANTOPEN', 'EACCES', 'EROFS', 'ENOENT', 'ENOTDIR'].includes(String(e?.code))) {
    return `Cannot open the database in ${target.dataDir} (${e.message}). Set SVC_DATA_DIR to a folder you can write.`;
  }
  return `Screen Service failed to start (data in ${target.dataDir}): ${e?.stack ?? String(err)}`;
}

export interface ServeOptions {
  /** Where the failure message goes (stderr). */
  stderr: (line: string) => void;
  /** Signals to stop on; tests never need to change these. */
  signals?: readonly NodeJS.Signals[];
}

/**
 * Starts the service with `start` and resolves with an exit code once it stopped: 0 after a clean stop on a
 * signal ("shutting down", then "stopped" in the log), 1 when it could not start or the shutdown failed.
 *
 * @example
 * ```ts
 * process.exit(await serveUntilStopped(() => startServer(config), config, { stderr: (s) => process.stderr.write(s) }));
 * ```
 */
export async function serveUntilStopped(
  start: () => Promise<StoppableService>,
  target: ServeTarget,
  options: ServeOptions,
): Promise<number> {
  let running: StoppableService;
  try {
    running = await start();
  } catch (err) {
    options.stderr(`${startFailureMessage(err, target)}\n`);
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

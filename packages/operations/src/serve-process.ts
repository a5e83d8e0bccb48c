// Runs a service process until SIGINT/SIGTERM, the same way for `npm start` and `svc serve`: one start-up
// failure message with the next step and its exit code, one clean shutdown however many signals arrive.
import type { Logger } from 'pino';
import { OperationsError } from './errors.js';

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

/**
 * Exit codes of a service process, from the table `svc --help` prints: 0 stopped cleanly; 1 an unexpected
 * failure, or a stop cut short on purpose; 2 configuration (the port is taken or not allowed, the data
 * folder cannot be written); 3 refused (another server serves the data folder).
 */
export const SERVE_EXIT = { OK: 0, FAILURE: 1, CONFIG: 2, REFUSED: 3 } as const;

/** What a failed start says, with the next step (EADDRINUSE and EACCES are the usual ones). */
export function startFailureMessage(err: unknown, target: ServeTarget): string {
  return startFailure(err, target).message;
}

function startFailure(err: unknown, target: ServeTarget): { message: string; code: number } {
  if (err instanceof OperationsError && err.code === 'INSTANCE_RUNNING') {
    return { message: err.message, code: SERVE_EXIT.REFUSED };
  }
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EADDRINUSE') {
    return {
      message: `Port ${target.port} is already in use (${target.host}). Another Screen Service (\`npm start\` or \`npx svc serve\`: run one or the other) or another program holds it. Stop it, or set PORT (or --port) to a free port.`,
      code: SERVE_EXIT.CONFIG,
    };
  }
  if (e?.code === 'EACCES' && e.syscall === 'listen') {
    return {
      message: `Not allowed to listen on port ${target.port} (${target.host}). Choose a port above 1023 with PORT (or --port).`,
      code: SERVE_EXIT.CONFIG,
    };
  }
  if (['SQLITE_CANTOPEN', 'EACCES', 'EROFS', 'ENOENT', 'ENOTDIR'].includes(String(e?.code))) {
    return {
      message: `Cannot open the database in ${target.dataDir} (${e.message}). Set SVC_DATA_DIR to a folder you can write.`,
      code: SERVE_EXIT.CONFIG,
    };
  }
  return {
    message: `Screen Service failed to start (data in ${target.dataDir}): ${e?.stack ?? String(err)}`,
    code: SERVE_EXIT.FAILURE,
  };
}

export interface ServeOptions {
  /** Where the failure message goes (stderr). */
  stderr: (line: string) => void;
  /** Signals to stop on; tests never need to change these. */
  signals?: readonly NodeJS.Signals[];
  /**
   * Signals closer than this (ms) to the last press count as the same press: one Ctrl-C in a terminal
   * reaches the server from the terminal and again from `npm` forwarding it. Default 1000.
   */
  samePressMs?: number;
  /** Ends the process at once on a third press; default `process.exit`. */
  exit?: (code: number) => void;
}

/**
 * Starts the service with `start` and resolves with an exit code ({@link SERVE_EXIT}) once it stopped: 0
 * after a clean stop on a signal ("shutting down", then "stopped" in the log), 1 when the shutdown failed,
 * 2 or 3 when it could not start (the message on `stderr` says why and what to do).
 *
 * A signal during the shutdown never cuts it short: copies of the same press are ignored, a second press
 * is told that in-flight requests are finishing, and only a third press stops the process at once (it
 * says so, and exits 1).
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
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const samePressMs = options.samePressMs ?? 1000;
  let logger: Logger | undefined;
  let presses = 0;
  let lastPress = 0;
  let stopAsked: (signal: NodeJS.Signals) => void = () => {};
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    stopAsked = resolve;
  });
  // Installed before start-up and kept until the process exits: with no listener Node's default action
  // for SIGINT is to die on the spot, which is what a forwarded second copy used to do.
  const onSignal = (signal: NodeJS.Signals) => {
    const at = Date.now();
    if (presses > 0 && at - lastPress < samePressMs) return;
    presses += 1;
    lastPress = at;
    if (presses === 1) {
      stopAsked(signal);
    } else if (presses === 2) {
      logger?.warn(
        { signal },
        'still shutting down: in-flight requests are finishing (a few seconds at most); send it once more to stop at once',
      );
    } else if (presses === 3) {
      logger?.error({ signal }, 'stopping at once on a third signal: in-flight requests are cut');
      (options.exit ?? process.exit)(SERVE_EXIT.FAILURE);
    }
  };
  for (const s of signals) process.on(s, onSignal);

  let running: StoppableService;
  try {
    running = await start();
  } catch (err) {
    for (const s of signals) process.off(s, onSignal);
    const failure = startFailure(err, target);
    options.stderr(`${failure.message}\n`);
    return failure.code;
  }
  logger = running.logger;
  // A signal that came during start-up has already resolved this: the service stops right after starting.
  const signal = await stopSignal;
  running.logger.info({ signal }, 'shutting down');
  try {
    await running.close();
    running.logger.info('stopped');
    return SERVE_EXIT.OK;
  } catch (err) {
    running.logger.error({ err }, 'shutdown failed');
    return SERVE_EXIT.FAILURE;
  }
}

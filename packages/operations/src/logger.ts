// The service's logger: short human lines on a terminal (pino-pretty), JSON lines everywhere else.
import pino, { type Level, type Logger } from 'pino';
import { build as prettyStream } from 'pino-pretty';

/** `pretty` or `json`; `auto` (default) is pretty when the output is a terminal. */
export type LogFormat = 'pretty' | 'json' | 'auto';

/** Options of {@link createServiceLogger}. */
export interface ServiceLoggerOptions {
  level?: Level | 'silent';
  /** LOG_FORMAT; default `auto`. */
  format?: LogFormat;
  /** Where lines go; default stdout. */
  destination?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Colours in pretty mode; default: when the destination is a terminal. */
  colorize?: boolean;
}

/** Which format `auto` resolves to for a destination. */
export function resolveLogFormat(format: LogFormat, destination: { isTTY?: boolean }): 'pretty' | 'json' {
  if (format !== 'auto') return format;
  return destination.isTTY ? 'pretty' : 'json';
}

/**
 * A pino logger. Pretty lines read `14:02:11 INFO Screen Service listening on http://...` with the
 * context fields (url, port, mcp_url, ...) on the lines below; JSON lines are pino's own, for collectors.
 *
 * @example
 * ```ts
 * const logger = createServiceLogger({ level: 'info', format: process.env.LOG_FORMAT as LogFormat });
 * ```
 */
export function createServiceLogger(options: ServiceLoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stdout;
  const level = options.level ?? 'info';
  if (resolveLogFormat(options.format ?? 'auto', destination) === 'json') {
    return pino({ level }, destination);
  }
  const stream = prettyStream({
    destination,
    colorize: options.colorize ?? Boolean(destination.isTTY),
    translateTime: 'HH:MM:ss',
    ignore: 'pid,hostname',
    // Synchronous writes keep start-up lines in order with anything the process prints itself.
    sync: true,
  });
  return pino({ level }, stream);
}

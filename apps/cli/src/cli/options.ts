// Option parsing for `svc` commands: io-kit's command-line parser (node:util's parseArgs), worded for `svc`:
// a misspelt option is answered by the command's real options and the closest one.
import { parseCommandLine } from '@screen-service/io-kit/command-line';

/** The options one command takes (`--help`/`-h` is added to every command). */
export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/**
 * Parses `argv` for `command` (e.g. `svc user add`).
 *
 * @throws {UsageError} (io-kit's, exit 2) naming the unknown option, the command's options and the closest one.
 */
export function parseOptions<const T extends OptionSpec>(argv: string[], options: T, command: string) {
  return parseCommandLine(argv, {
    options,
    words: {
      unknownOption: (given, closest, known) =>
        `unknown option ${given} for \`${command}\`.${closest ? ` Did you mean ${closest}?` : ''} Its options: ${known.join(', ')}.`,
      badValue: ({ detail }) => `${command}: ${detail}. See \`${command} --help\`.`,
    },
  });
}

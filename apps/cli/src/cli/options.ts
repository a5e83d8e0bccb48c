// Option parsing for `svc` commands: node:util's parseArgs, with a misspelt option answered by the
// command's real options and the closest one instead of the parser's raw message.
import { parseArgs } from 'node:util';
import { CliError, EXIT } from './commands.js';

/** The options one command takes (`--help`/`-h` is added to every command). */
export type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

/**
 * Parses `argv` for `command` (e.g. `svc user add`).
 *
 * @throws {CliError} exit 2 naming the unknown option, the command's options and the closest one.
 */
export function parseOptions<T extends OptionSpec>(argv: string[], options: T, command: string) {
  const all = { ...options, help: { type: 'boolean' as const, short: 'h' } };
  const loose = parseArgs({ args: argv, options: all, strict: false, allowPositionals: true, tokens: true });
  for (const token of loose.tokens) {
    if (token.kind === 'option' && !(token.name in all)) throw unknownOption(token.rawName, all, command);
  }
  try {
    return parseArgs({ args: argv, options: all, strict: true, allowPositionals: true });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new CliError(`${command}: ${(err as Error).message}. See \`${command} --help\`.`, EXIT.USAGE);
    }
    throw err;
  }
}

function unknownOption(raw: string, all: OptionSpec, command: string): CliError {
  const names = Object.keys(all).map((n) => `--${n}`);
  const given = raw.startsWith('--') ? raw : `--${raw.replace(/^-+/, '')}`;
  const near = closest(given, names);
  return new CliError(
    `unknown option ${raw} for \`${command}\`.${near ? ` Did you mean ${near}?` : ''} Its options: ${names.join(', ')}.`,
    EXIT.USAGE,
  );
}

/** The candidate within a small edit distance of `word` (typos, swapped letters), or undefined. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = editDistance(word, name);
    if (!best || d < best.d) best = { name, d };
  }
  // Up to a third of the word may differ (`--emial` is two edits from `--email`).
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

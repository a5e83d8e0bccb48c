// One command-line parser for every program: node:util's parseArgs, plus `--help`/`-h`, an unknown option
// answered with the closest real one and the whole list, and every usage problem as a UsageError (exit 2).
import { parseArgs } from 'node:util';
import { closestWord } from './closest-word.js';
import { UsageError } from './errors.js';

export { closestWord, editDistance } from './closest-word.js';
export { UsageError } from './errors.js';

/** One option: a flag (`boolean`) or one taking a value (`string`); `multiple` collects every use. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

/** The options of one command, by long name (without the dashes). */
export type OptionSpecs = Record<string, OptionSpec>;

/** A value problem parseArgs found: the value is missing (or looks like the next option), or a flag was given one. */
export interface BadValue {
  /** The option as the person typed it, e.g. `--card`. */
  option: string;
  kind: 'missing' | 'not-allowed';
  /** node:util's own sentence, e.g. `Option '--card <value>' argument missing`. */
  detail: string;
}

/** How a program words its usage errors (each CLI keeps its own voice and its help pointer). */
export interface UsageWords {
  /** An option the command does not take; `closest` is the likely meant one, `known` every `--option`. */
  unknownOption(given: string, closest: string | undefined, known: readonly string[]): string;
  badValue(problem: BadValue): string;
  /** A positional argument where the command takes none. */
  unexpectedArgument(argument: string): string;
}

/** The wording when a program gives none. */
export const DEFAULT_USAGE_WORDS: UsageWords = {
  unknownOption: (given, closest, known) =>
    `unknown option ${given}.${closest ? ` Did you mean ${closest}?` : ''} Options: ${known.join(', ')}.`,
  badValue: (p) => (p.kind === 'missing' ? `${p.option} needs a value.` : `${p.detail}.`),
  unexpectedArgument: (argument) => `unexpected argument ${JSON.stringify(argument)}.`,
};

/** Options of {@link parseCommandLine}. */
export interface CommandLineOptions<T extends OptionSpecs> {
  options: T;
  /** Positional arguments allowed; default true. */
  positionals?: boolean;
  /** The program's wording of each problem; the defaults fill in what is not given. */
  words?: Partial<UsageWords>;
}

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * Parses `argv` against `options` (with `--help`/`-h` added), strictly: an unknown option, a missing value
 * or a stray positional (when none are allowed) throws a {@link UsageError} worded by `words`.
 *
 * @example
 * ```ts
 * const { values, positionals } = parseCommandLine(['pair', '123456', '--card', url], {
 *   options: { card: { type: 'string' }, header: { type: 'string', multiple: true } },
 * });
 * values.card; // url
 * ```
 */
export function parseCommandLine<const T extends OptionSpecs>(
  argv: readonly string[],
  config: CommandLineOptions<T>,
) {
  const words = { ...DEFAULT_USAGE_WORDS, ...config.words };
  const options = { ...config.options, ...HELP };
  const args = [...argv];
  // A first, lenient pass sees every option as typed, so an unknown one is named before anything else.
  const loose = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of loose.tokens) {
    if (token.kind === 'option' && !Object.hasOwn(options, token.name)) {
      const known = Object.keys(options).map((n) => `--${n}`);
      const closest = closestWord(`--${token.name}`, known);
      throw new UsageError(words.unknownOption(token.rawName, closest, known));
    }
  }
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: T & typeof HELP; allowPositionals: true }>
  >;
  try {
    parsed = parseArgs({ args, options: options as T & typeof HELP, strict: true, allowPositionals: true });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (code !== 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw error;
    const option = /--[^\s'<,]+/.exec(message)?.[0] ?? '';
    const kind = /does not take an argument/.test(message) ? 'not-allowed' : 'missing';
    throw new UsageError(
      words.badValue({ option, kind, detail: message.split('\n')[0]!.replace(/\.$/, '') }),
    );
  }
  if (config.positionals === false && parsed.positionals.length > 0)
    throw new UsageError(words.unexpectedArgument(parsed.positionals[0]!));
  return parsed;
}

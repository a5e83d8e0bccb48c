// cleanCommands: doc2's cleaning of a host's slash-commands list for the agent's `commands` column.
import { isPlainObject, jsonByteLength } from './clean-look.js';
import { visibleText } from './visible-text.js';

/** One slash command the agent's host accepts (doc2 "Commands entry"). */
export interface CommandEntry {
  /** `^[a-z0-9][a-z0-9_-]{0,31}$`, without the leading `/`. */
  name: string;
  /** One line, at most 100 characters; `''` when the host gave none. */
  description: string;
  /** Argument hint (`<city> [days]`), one line, at most 60 characters; absent when none. */
  args?: string;
}

/** The answer of {@link cleanCommands}. */
export type CleanCommandsResult =
  | { ok: true; commands: CommandEntry[] | null; dropped: number }
  | { ok: false; code: 'COMMANDS_NOT_A_LIST'; message: string };

/** doc2 limits of the commands column. */
export const COMMAND_LIMITS = {
  entries: 200,
  name: 32,
  description: 100,
  args: 60,
  columnBytes: 32 * 1024,
} as const;

const NAME = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/**
 * First line with something visible, cleaned by {@link visibleText} (controls such as ESC, bidi controls such
 * as U+202E and invisible characters removed, white space runs made single spaces), cut to `max` characters.
 */
function oneLine(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const line = value.split(/\r\n|[\n\r\u2028\u2029]/).find((l) => visibleText(l) !== null) ?? '';
  return visibleText(line, { max }) ?? '';
}

/** The command name rule: trim, drop one leading `/`, lowercase, then match doc2's pattern. */
export function cleanCommandName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  const name = (trimmed.startsWith('/') ? trimmed.slice(1) : trimmed).toLowerCase();
  return NAME.test(name) ? name : null;
}

/**
 * Cleans the commands list a host reports (doc2 "Commands entry"): `null` clears the column; a value
 * that is not a list is refused (the registry answers `invalid_commands`); inside a list every entry
 * that is not an object with a valid name is dropped silently, names are cleaned (leading `/` dropped,
 * lowercased) and kept once (first wins), descriptions become one line of at most 100 characters with
 * nothing invisible and no control or direction character (see {@link visibleText}),
 * `args` one line of at most 60 (longer text is cut with `…`), unknown keys are dropped, at most 200
 * entries are kept, and entries are dropped from the end until the column is at most 32 KB.
 *
 * @example
 * ```ts
 * cleanCommands([{ name: '/Weather', description: 'Forecast\nfor a city', args: '<city>' }, { name: '!' }]);
 * // { ok: true, commands: [{ name: 'weather', description: 'Forecast', args: '<city>' }], dropped: 1 }
 * cleanCommands('help'); // { ok: false, code: 'COMMANDS_NOT_A_LIST', message: '...' }
 * ```
 */
export function cleanCommands(input: unknown): CleanCommandsResult {
  if (input === null) return { ok: true, commands: null, dropped: 0 };
  if (!Array.isArray(input)) {
    const got = typeof input === 'object' ? 'an object' : typeof input;
    return {
      ok: false,
      code: 'COMMANDS_NOT_A_LIST',
      message: `commands must be a list of {name, description, args?} or null to clear, got ${got}`,
    };
  }
  const seen = new Set<string>();
  const commands: CommandEntry[] = [];
  for (const item of input) {
    if (commands.length === COMMAND_LIMITS.entries) break;
    if (!isPlainObject(item)) continue;
    const name = cleanCommandName(item.name);
    if (name === null || seen.has(name)) continue;
    seen.add(name);
    const entry: CommandEntry = { name, description: oneLine(item.description, COMMAND_LIMITS.description) };
    const args = oneLine(item.args, COMMAND_LIMITS.args);
    if (args !== '') entry.args = args;
    commands.push(entry);
  }
  // JSON of the list = brackets + entries + commas between them; drop from the end until it fits.
  let bytes =
    2 + commands.reduce((sum, entry) => sum + jsonByteLength(entry), 0) + Math.max(0, commands.length - 1);
  while (bytes > COMMAND_LIMITS.columnBytes) {
    const last = commands.pop()!;
    bytes -= jsonByteLength(last) + (commands.length > 0 ? 1 : 0);
  }
  return { ok: true, commands, dropped: input.length - commands.length };
}

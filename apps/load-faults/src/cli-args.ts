// Flags of the two CLIs: whole numbers with bounds, a help text, and a message naming the bad flag. Pure.
import { parseCommandLine, UsageError } from '@screen-service/io-kit/command-line';

export interface FlagSpec {
  name: string;
  /** Default value. */
  value: number;
  min: number;
  max: number;
  help: string;
}

/** A flag that takes one of a few words (`--store postgres`). */
export interface ChoiceSpec {
  name: string;
  values: readonly string[];
  /** Default value, one of `values`. */
  value: string;
  help: string;
}

export type ParsedFlags<T extends readonly FlagSpec[], C extends readonly ChoiceSpec[] = []> = {
  [K in T[number]['name']]: number;
} & { [K in C[number]['name']]: string } & {
  help: boolean;
  json: string | null;
};

/** A usage problem: the CLI prints it with the help and exits 2 (io-kit's, shared by every CLI). */
export { UsageError };

/**
 * Parses `--name N` / `--name=N` for each spec, `--json <file>` and `--help` (io-kit's command-line parser);
 * unknown flags and values outside a spec's bounds throw a UsageError naming the flag and its range.
 *
 * @example
 * ```ts
 * parseFlags(['--duration', '30'], [{ name: 'duration', value: 60, min: 1, max: 600, help: 'seconds' }]);
 * // { duration: 30, help: false, json: null }
 * ```
 */
export function parseFlags<T extends readonly FlagSpec[], C extends readonly ChoiceSpec[] = []>(
  argv: readonly string[],
  specs: T,
  choices: C = [] as unknown as C,
): ParsedFlags<T, C> {
  const options: Record<string, { type: 'string' }> = { json: { type: 'string' } };
  for (const s of [...specs, ...choices]) options[s.name] = { type: 'string' };
  const { values } = parseCommandLine(argv, {
    options,
    positionals: false,
    words: {
      unknownOption: (given, closest) => {
        const known = ['help', 'json', ...[...specs, ...choices].map((s) => s.name)]
          .map((n) => `--${n}`)
          .join(', ');
        return `Unknown flag ${given}; known: ${known}.${closest ? ` Did you mean ${closest}?` : ''}`;
      },
      badValue: ({ option, kind, detail }) =>
        kind === 'missing' ? `${option} needs a value, for example ${option} 10.` : `${detail}.`,
      unexpectedArgument: (arg) =>
        `Unexpected argument ${JSON.stringify(arg)}: flags look like --duration 60.`,
    },
  });
  const out: Record<string, unknown> = { help: values.help === true, json: values.json ?? null };
  for (const spec of specs) {
    const raw = values[spec.name];
    if (typeof raw !== 'string') {
      out[spec.name] = spec.value;
      continue;
    }
    if (!/^\d+$/.test(raw) || Number(raw) < spec.min || Number(raw) > spec.max) {
      throw new UsageError(
        `--${spec.name} must be a whole number from ${spec.min} to ${spec.max} (${spec.help}), not ${JSON.stringify(raw)}.`,
      );
    }
    out[spec.name] = Number(raw);
  }
  for (const choice of choices) {
    const raw = values[choice.name];
    if (typeof raw !== 'string') {
      out[choice.name] = choice.value;
      continue;
    }
    if (!choice.values.includes(raw)) {
      throw new UsageError(
        `--${choice.name} must be one of ${choice.values.join(', ')} (${choice.help}), not ${JSON.stringify(raw)}.`,
      );
    }
    out[choice.name] = raw;
  }
  return out as ParsedFlags<T, C>;
}

/** The help text: a summary, then each flag with its default and range. */
export function helpText(
  command: string,
  summary: string,
  specs: readonly FlagSpec[],
  choices: readonly ChoiceSpec[] = [],
): string {
  const width = Math.max(...[...specs, ...choices].map((s) => s.name.length), 4) + 4;
  const rows = [
    ...choices.map(
      (c) => `  --${c.name.padEnd(width)}${c.help} (default ${c.value}; ${c.values.join(' | ')})`,
    ),
    ...specs.map((s) => `  --${s.name.padEnd(width)}${s.help} (default ${s.value}; ${s.min}..${s.max})`),
  ];
  return [
    `Usage: ${command} [flags]`,
    '',
    summary,
    '',
    'Flags:',
    ...rows,
    `  --${'json'.padEnd(width)}also write the results as JSON to this file`,
    `  --${'help'.padEnd(width)}this text`,
    '',
  ].join('\n');
}

// Flags of the two CLIs: whole numbers with bounds, a help text, and a message naming the bad flag. Pure.

export interface FlagSpec {
  name: string;
  /** Default value. */
  value: number;
  min: number;
  max: number;
  help: string;
}

export type ParsedFlags<T extends readonly FlagSpec[]> = { [K in T[number]['name']]: number } & {
  help: boolean;
  json: string | null;
};

/** A usage problem: the CLI prints it with the help and exits 2. */
export class UsageError extends Error {
  readonly code = 'INVALID_FLAG';
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * Parses `--name N` / `--name=N` for each spec, `--json <file>` and `--help`; unknown flags and values
 * outside a spec's bounds throw a UsageError naming the flag and its range.
 *
 * @example
 * ```ts
 * parseFlags(['--duration', '30'], [{ name: 'duration', value: 60, min: 1, max: 600, help: 'seconds' }]);
 * // { duration: 30, help: false, json: null }
 * ```
 */
export function parseFlags<T extends readonly FlagSpec[]>(argv: readonly string[], specs: T): ParsedFlags<T> {
  const out: Record<string, unknown> = { help: false, json: null };
  for (const s of specs) out[s.name] = s.value;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') {
      out.help = true;
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m)
      throw new UsageError(`Unexpected argument ${JSON.stringify(arg)}: flags look like --duration 60.`);
    const name = m[1] as string;
    const raw = m[2] ?? argv[++i];
    if (raw === undefined) throw new UsageError(`--${name} needs a value, for example --${name} 10.`);
    if (name === 'json') {
      out.json = raw;
      continue;
    }
    const spec = specs.find((s) => s.name === name);
    if (!spec) {
      const known = ['help', 'json', ...specs.map((s) => s.name)].map((n) => `--${n}`).join(', ');
      throw new UsageError(`Unknown flag --${name}; known: ${known}.`);
    }
    if (!/^\d+$/.test(raw) || Number(raw) < spec.min || Number(raw) > spec.max) {
      throw new UsageError(
        `--${name} must be a whole number from ${spec.min} to ${spec.max} (${spec.help}), not ${JSON.stringify(raw)}.`,
      );
    }
    out[name] = Number(raw);
  }
  return out as ParsedFlags<T>;
}

/** The help text: a summary, then each flag with its default and range. */
export function helpText(command: string, summary: string, specs: readonly FlagSpec[]): string {
  const width = Math.max(...specs.map((s) => s.name.length), 4) + 4;
  const rows = specs.map(
    (s) => `  --${s.name.padEnd(width)}${s.help} (default ${s.value}; ${s.min}..${s.max})`,
  );
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

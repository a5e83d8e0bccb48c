// The shared command-line parser: parseArgs' values, --help everywhere, and every usage problem worded.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestWord, editDistance, parseCommandLine, UsageError } from './command-line.js';

const OPTIONS = {
  card: { type: 'string' },
  header: { type: 'string', multiple: true },
  verbose: { type: 'boolean' },
} as const;

function usage(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (e) {
    if (e instanceof UsageError) return e;
    throw e;
  }
  throw new Error('no UsageError');
}

describe('parseCommandLine', () => {
  it('gives values, repeated options and positionals, with --help and -h on every command', () => {
    const { values, positionals } = parseCommandLine(
      [
        'pair',
        '123456',
        '--card',
        'https://a.example',
        '--header',
        'A: 1',
        '--header=B: 2',
        '--verbose',
        '-h',
      ],
      { options: OPTIONS },
    );
    expect(values).toEqual({
      card: 'https://a.example',
      header: ['A: 1', 'B: 2'],
      verbose: true,
      help: true,
    });
    expect(positionals).toEqual(['pair', '123456']);
  });

  it('answers an unknown option with the closest one and the whole list; exit code 2', () => {
    const e = usage(() => parseCommandLine(['--crad', 'x'], { options: OPTIONS }));
    expect(e.message).toBe(
      'unknown option --crad. Did you mean --card? Options: --card, --header, --verbose, --help.',
    );
    expect(e.exitCode).toBe(2);
    expect(e.code).toBe('USAGE');
    expect(usage(() => parseCommandLine(['-x'], { options: OPTIONS })).message).toMatch(
      /^unknown option -x\. Options: --card, /,
    );
  });

  it('reads an option-like word after a string option as a missing value, and an unknown option as unknown', () => {
    expect(usage(() => parseCommandLine(['--card', '--zzz'], { options: OPTIONS })).message).toMatch(
      /needs a value/,
    );
    expect(usage(() => parseCommandLine(['--card=', '--zzzzzz'], { options: OPTIONS })).message).toMatch(
      /^unknown option --zzzzzz\./,
    );
  });

  it('says a value is missing, also when the next word is an option, and when a flag is given one', () => {
    expect(usage(() => parseCommandLine(['--card'], { options: OPTIONS })).message).toBe(
      '--card needs a value.',
    );
    expect(usage(() => parseCommandLine(['--card', '--verbose'], { options: OPTIONS })).message).toBe(
      '--card needs a value.',
    );
    expect(usage(() => parseCommandLine(['--verbose=yes'], { options: OPTIONS })).message).toBe(
      "Option '--verbose' does not take an argument.",
    );
  });

  it('refuses positionals when the command takes none', () => {
    expect(
      usage(() => parseCommandLine(['--card', 'x', 'stray'], { options: OPTIONS, positionals: false }))
        .message,
    ).toBe('unexpected argument "stray".');
  });

  it('lets each program word its own errors', () => {
    const words = {
      unknownOption: (given: string, closest: string | undefined) => `no ${given} (${closest ?? '-'})`,
      badValue: (p: { option: string; kind: string; detail: string }) => `${p.kind} ${p.option}: ${p.detail}`,
      unexpectedArgument: (a: string) => `stray ${a}`,
    };
    expect(usage(() => parseCommandLine(['--verbos'], { options: OPTIONS, words })).message).toBe(
      'no --verbos (--verbose)',
    );
    expect(usage(() => parseCommandLine(['--card'], { options: OPTIONS, words })).message).toBe(
      "missing --card: Option '--card <value>' argument missing",
    );
    expect(
      usage(() => parseCommandLine(['a'], { options: OPTIONS, words, positionals: false })).message,
    ).toBe('stray a');
  });
});

describe('closestWord', () => {
  it('suggests within a third of the word (at least two edits), else nothing', () => {
    expect(closestWord('--emial', ['--email', '--password'])).toBe('--email');
    expect(closestWord('--prot', ['--port', '--host'])).toBe('--port');
    expect(closestWord('--zzzzzzzz', ['--email', '--agent'])).toBeUndefined();
  });

  it('edit distance is a metric with adjacent swaps costing one', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 8 });
    fc.assert(
      fc.property(word, word, (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, a)).toBe(0);
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
        if (a.length >= 2) expect(editDistance(a, a[1]! + a[0]! + a.slice(2))).toBeLessThanOrEqual(1);
      }),
    );
  });
});
